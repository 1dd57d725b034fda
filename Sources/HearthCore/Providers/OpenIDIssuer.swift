public import HearthProtocol
public import JOSE

/// An OpenID provider's token issuer as `signInWithIdp` trusts it: the `iss` values it signs with and its
/// verification keys (Google, Apple, a configured `oidc.*` provider, or in `--dev` Hearth's own look-alikes).
public protocol OpenIDIssuer: Sendable {
    /// The `iss` values this issuer puts in its ID tokens.
    var issuerNames: Set<String> { get }
    /// The issuer's verification keys. `forceRefresh` says a token named a `kid` the keys lacked: the issuer then
    /// returns newer keys if it may fetch them now (a remote issuer at most every 30 s), else the same keys.
    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet
}

/// An issuer that also describes its access tokens the way Google does (tokeninfo and userinfo), so an access
/// token alone can sign in: Google, and in `--dev` the dev IdP.
public protocol GoogleAccessTokenIssuer: OpenIDIssuer {
    /// What the issuer says about an access token, or nil if it does not know the token.
    func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo?
    /// The issuer's userinfo for an access token it issued.
    func userInfo(accessToken: String) throws -> [String: JSONValue]
}

/// The parts of a tokeninfo answer Hearth relies on.
public struct AccessTokenInfo: Sendable, Equatable {
    public var audience: String?
    public var authorizedParty: String?
    public var subject: String
    public var expiresIn: Int64
    public var scope: String?

    public init(audience: String?, authorizedParty: String?, subject: String, expiresIn: Int64, scope: String?) {
        self.audience = audience
        self.authorizedParty = authorizedParty
        self.subject = subject
        self.expiresIn = expiresIn
        self.scope = scope
    }
}
