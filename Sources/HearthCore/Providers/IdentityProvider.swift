/// One entry of the ``IdentityProviderRegistry``: a provider ID `signInWithIdp` accepts, the issuers whose ID
/// tokens count as that provider's, and the project's client IDs at that provider (the accepted `aud` values).
public struct IdentityProvider: Sendable {
    /// Which rules and claim set apply.
    public enum Kind: Sendable, Equatable {
        /// `google.com`: Google's claims and userinfo shape; an access token alone may sign in.
        case google
        /// `apple.com`: Apple's claims (booleans as strings), the hashed-nonce rule, the name from the request.
        case apple
        /// `oidc.<name>`: the standard OpenID claims.
        case openID
    }

    /// How a token's `nonce` must relate to the request's raw `nonce`.
    public enum NonceRule: Sendable, Equatable {
        /// Checked only when the request carries one: the token's `nonce` is the raw nonce or its SHA-256 (hex).
        case checkedWhenGiven
        /// Firebase's Apple rule: the token's `nonce` is the lowercase hex SHA-256 of the request's raw nonce; a
        /// nonce on one side only is refused.
        case hashedOnBothSides
    }

    public static let googleID = "google.com"
    public static let appleID = "apple.com"
    /// Apple's issuer, and the base of its endpoints.
    public static let appleIssuer = "https://appleid.apple.com"

    public var id: String
    public var kind: Kind
    /// Issuers whose tokens are this provider's (the provider itself, and in `--dev` its look-alike).
    public var issuers: [any OpenIDIssuer]
    /// Issuers that may vouch for an access token alone (Google only).
    public var accessTokenIssuers: [any GoogleAccessTokenIssuer]
    /// The project's client IDs at the provider; a provider without any is not enabled.
    public var clientIDs: Set<String>
    /// How an authorization code sent instead of an ID token is exchanged (`oidc.*` with a client secret); nil when
    /// codes are not accepted that way.
    public var codeExchange: (any AuthorizationCodeExchanging)?
    /// For which emails the provider's `email_verified` proves that the user owns the address (``EmailTrust``).
    public var emailTrust: EmailTrust

    public var nonceRule: NonceRule { kind == .apple ? .hashedOnBothSides : .checkedWhenGiven }

    init(
        id: String, kind: Kind, issuers: [any OpenIDIssuer], accessTokenIssuers: [any GoogleAccessTokenIssuer],
        clientIDs: Set<String>, codeExchange: (any AuthorizationCodeExchanging)?, emailTrust: EmailTrust
    ) {
        self.id = id
        self.kind = kind
        self.issuers = issuers
        self.accessTokenIssuers = accessTokenIssuers
        self.clientIDs = clientIDs
        self.codeExchange = codeExchange
        self.emailTrust = emailTrust
    }

    /// Google: ID tokens from `issuers`, and access tokens alone through their tokeninfo and userinfo.
    public static func google(issuers: [any GoogleAccessTokenIssuer], clientIDs: Set<String>) -> IdentityProvider {
        IdentityProvider(
            id: googleID, kind: .google, issuers: issuers, accessTokenIssuers: issuers, clientIDs: clientIDs,
            codeExchange: nil, emailTrust: .googleAccounts)
    }

    /// Sign in with Apple: ID tokens from `issuers` (Apple, and in `--dev` the dev Apple) for the app's bundle IDs
    /// and services IDs.
    public static func apple(issuers: [any OpenIDIssuer], clientIDs: Set<String>) -> IdentityProvider {
        IdentityProvider(
            id: appleID, kind: .apple, issuers: issuers, accessTokenIssuers: [], clientIDs: clientIDs, codeExchange: nil,
            emailTrust: .appleAddresses)
    }

    /// A configured OpenID Connect provider `oidc.<name>`; with `codeExchange` (its client secret), a sign-in may
    /// send the provider's authorization code instead of its ID token. Its `email_verified` proves nothing unless the
    /// operator says the provider is trusted for email verification (`trustedForEmail`).
    public static func openID(
        id: String, issuer: any OpenIDIssuer, clientIDs: Set<String>, codeExchange: (any AuthorizationCodeExchanging)? = nil,
        trustedForEmail: Bool = false
    ) -> IdentityProvider {
        IdentityProvider(
            id: id, kind: .openID, issuers: [issuer], accessTokenIssuers: [], clientIDs: clientIDs,
            codeExchange: codeExchange, emailTrust: trustedForEmail ? .everyVerifiedEmail : .none)
    }
}
