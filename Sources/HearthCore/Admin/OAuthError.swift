public import HearthProtocol

/// An error of an OAuth 2.0 endpoint (RFC 6749 §5.2): `{"error": …, "error_description": …}`, HTTP 400 unless
/// told otherwise. Hearth's service-account token endpoint answers these (google-auth reads them into its
/// `RefreshError`), and so do the dev IdP's token, tokeninfo and revoke endpoints.
public struct OAuthError: Error, Sendable, Equatable {
    /// `invalid_request`, `invalid_grant`, `unsupported_grant_type`, …
    public var error: String
    /// A sentence for people; never a token or key.
    public var description: String
    public var status: Int

    public init(_ error: String, _ description: String, status: Int = 400) {
        self.error = error
        self.description = description
        self.status = status
    }

    public var body: [String: JSONValue] { ["error": .string(error), "error_description": .string(description)] }

    /// Equal when the OAuth error code and status match (descriptions are for people).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.error == rhs.error && lhs.status == rhs.status }

    package static func invalidRequest(_ description: String) -> OAuthError { OAuthError("invalid_request", description) }
    package static func invalidGrant(_ description: String) -> OAuthError { OAuthError("invalid_grant", description) }
}
