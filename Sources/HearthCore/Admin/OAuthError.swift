/// An error of an OAuth 2.0 token endpoint (RFC 6749 §5.2): `{"error": …, "error_description": …}` with
/// HTTP 400 (401 for `invalid_client`), what google-auth reads into its `RefreshError`.
public struct OAuthError: Error, Sendable, Equatable {
    /// `invalid_request`, `invalid_grant`, `unsupported_grant_type`, …
    public var error: String
    /// A sentence for the operator; never a token or key.
    public var description: String
    public var httpStatus: Int

    public init(_ error: String, _ description: String, httpStatus: Int = 400) {
        self.error = error
        self.description = description
        self.httpStatus = httpStatus
    }

    public static func invalidRequest(_ description: String) -> OAuthError { OAuthError("invalid_request", description) }
    public static func invalidGrant(_ description: String) -> OAuthError { OAuthError("invalid_grant", description) }
}
