/// The provider credential a `signInWithIdp` request carries (its merged parameters, PROTOCOL.md §4.1).
public struct IdpCredential: Sendable, Equatable {
    /// `id_token`.
    public var idToken: String?
    /// `access_token`.
    public var accessToken: String?
    /// `nonce`: the raw nonce the app generated (the token carries it, or for Apple its SHA-256).
    public var nonce: String?
    /// `user`: Apple's name blob, `{"name":{"firstName":…,"lastName":…}}`, sent only when Apple gave a name.
    public var user: String?
    /// `code`: an authorization code a web-style flow sends along, or (`oidc.*` code flow) instead of an `id_token`.
    public var authorizationCode: String?
    /// `code_verifier`: the PKCE verifier of the authorization request that gave `authorizationCode`.
    public var codeVerifier: String?
    /// Where the provider sent `authorizationCode`: the `requestUri` without query and fragment.
    public var redirectURI: String?
    /// Set when Hearth got `idToken` by exchanging the code: the client ID it exchanged as, the only audience the
    /// token may then name.
    var exchangedForClientID: String?

    public init(
        idToken: String? = nil, accessToken: String? = nil, nonce: String? = nil, user: String? = nil,
        authorizationCode: String? = nil, codeVerifier: String? = nil, redirectURI: String? = nil
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.nonce = nonce
        self.user = user
        self.authorizationCode = authorizationCode
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
    }

    /// The credential in a request's merged parameters.
    init(_ parameters: IdpParameters) {
        self.init(
            idToken: parameters["id_token"], accessToken: parameters["access_token"], nonce: parameters["nonce"],
            user: parameters["user"], authorizationCode: parameters["code"], codeVerifier: parameters["code_verifier"],
            redirectURI: parameters.redirectURI)
    }
}
