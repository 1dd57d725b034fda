/// What Apple's token endpoint answers to an authorization-code exchange. Its description never shows the tokens.
///
/// The ID token is returned as Apple sent it, **not verified**: check it like any Apple ID token (issuer, audience =
/// the client ID, expiry, signature against Apple's keys) before trusting its claims.
public struct AppleTokenResponse: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Apple's access token (`access_token`).
    public var accessToken: String
    /// `token_type`, `"Bearer"`.
    public var tokenType: String
    /// Seconds the access token is valid (`expires_in`).
    public var expiresIn: Int64
    /// The refresh token (`refresh_token`), which Hearth keeps (sealed) to revoke the user's authorization later.
    public var refreshToken: String?
    /// Apple's ID token for the user (`id_token`), unverified.
    public var idToken: String

    public init(accessToken: String, tokenType: String, expiresIn: Int64, refreshToken: String?, idToken: String) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
    }

    public var description: String {
        "AppleTokenResponse(tokenType: \(tokenType), expiresIn: \(expiresIn), refreshToken: \(refreshToken == nil ? "none" : "present"))"
    }

    public var debugDescription: String { description }
}

/// Which kind of token is being revoked (`token_type_hint` at Apple's `/auth/revoke`).
public enum AppleTokenTypeHint: String, Sendable, CaseIterable {
    case refreshToken = "refresh_token"
    case accessToken = "access_token"
}
