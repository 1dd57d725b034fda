/// How an `oidc.*` provider's authorization code is exchanged for its tokens, for a sign-in that carries the code
/// instead of an ID token (`OpenIDCodeExchange` in HearthProviders).
public protocol AuthorizationCodeExchanging: Sendable {
    /// The client ID codes are exchanged as, and the audience the returned ID token must name.
    var clientID: String { get }
    /// The provider's tokens for `code`, unverified.
    ///
    /// - Parameters:
    ///   - redirectURI: the `redirect_uri` of the authorization request: the page the provider sent the code to.
    ///   - codeVerifier: the PKCE verifier the client sent along, if any.
    /// - Throws: `INVALID_IDP_RESPONSE` when the provider refuses the code, cannot be reached, or answers without an
    ///   `id_token`.
    func tokens(code: String, redirectURI: String, codeVerifier: String?) throws -> ExchangedTokens
}

/// What a provider's token endpoint answered to an authorization-code exchange; unverified.
public struct ExchangedTokens: Equatable, Sendable {
    public var idToken: String
    public var accessToken: String?

    public init(idToken: String, accessToken: String?) {
        self.idToken = idToken
        self.accessToken = accessToken
    }
}
