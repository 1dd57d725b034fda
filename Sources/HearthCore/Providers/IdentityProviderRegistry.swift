import HearthProtocol

/// The identity providers `signInWithIdp` accepts, by provider ID: Google, Apple and configured `oidc.*` providers,
/// all verified with the one ID-token check (``OpenIDTokenVerifier``); Google also takes an access token alone, and an
/// `oidc.*` provider with a client secret an authorization code (``redeemingCode(_:providerID:in:clientAddress:)``).
public final class IdentityProviderRegistry: Sendable {
    private let providers: [String: IdentityProvider]
    private let idTokens: OpenIDTokenVerifier
    private let googleAccessTokens: [String: GoogleAccessTokenVerifier]
    private let codeExchanges: OutboundCallLimiter
    /// The `oidc.*` providers made through the admin API (after the file's, which win).
    let directory: ProviderConfigDirectory?

    /// - Parameters:
    ///   - providers: the entries; one without client IDs is left out (not enabled). A later entry with the same ID
    ///     replaces an earlier one.
    ///   - clockSkew: allowed clock difference for `exp`/`iat`, in seconds.
    ///   - limits: bounds on the outbound calls of access-token sign-ins, and likewise of code exchanges.
    public init(
        providers: [IdentityProvider], time: any TimeSource, clockSkew: Int64 = 300,
        limits: OutboundCallLimits = OutboundCallLimits(), directory: ProviderConfigDirectory? = nil
    ) {
        self.directory = directory
        let enabled = providers.filter { !$0.clientIDs.isEmpty }
        self.providers = Dictionary(enabled.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        idTokens = OpenIDTokenVerifier(time: time, clockSkew: clockSkew)
        codeExchanges = OutboundCallLimiter(total: limits.maxConcurrentChecks, perClient: limits.maxConcurrentChecksPerClient)
        googleAccessTokens = self.providers.filter { !$0.value.accessTokenIssuers.isEmpty }.mapValues {
            GoogleAccessTokenVerifier(issuers: $0.accessTokenIssuers, clientIDs: $0.clientIDs, time: time, limits: limits)
        }
    }

    /// The enabled provider IDs, sorted.
    public var providerIDs: [String] { providers.keys.sorted() }

    /// The enabled entry of the config file for `providerID`, if any.
    public func provider(_ providerID: String) -> IdentityProvider? { providers[providerID] }

    /// The enabled entry for `providerID` in `scope`: the config file's (which every scope has), else an enabled
    /// `oidc.*` configuration the scope made through the admin API (seen within
    /// `ProviderConfigDirectory.cacheLifetimeMillis`).
    public func provider(_ providerID: String, in scope: StoreScope) throws -> IdentityProvider? {
        if let provider = providers[providerID] { return provider }
        return try directory?.provider(providerID, in: scope)
    }

    /// Verifies a credential for `providerID`: its ID token, else (Google only) its access token alone.
    ///
    /// - Parameter clientAddress: the caller's address, to bound access-token checks per client; nil when unknown.
    /// - Throws: `OPERATION_NOT_ALLOWED` for a provider that is not enabled, `INVALID_IDP_RESPONSE` for a credential
    ///   that does not verify, `MISSING_OR_INVALID_NONCE`, or `TOO_MANY_ATTEMPTS_TRY_LATER` when too many
    ///   access-token checks are running.
    public func verify(
        _ credential: IdpCredential, providerID: String, in scope: StoreScope = .project, clientAddress: String?
    ) throws -> FederatedProfile {
        var profile = try verifiedProfile(credential, providerID: providerID, in: scope, clientAddress: clientAddress)
        if let email = profile.email {
            // One spelling per address (as for the emails users type), so that no provider can make a second account
            // for an address by sending it in another Unicode form.
            guard let canonical = try? AccountFieldRules.checkedEmail(email) else {
                throw WireError(.invalidIdpResponse, "The identity provider's email address is not valid.")
            }
            profile.email = canonical
        }
        return profile
    }

    private func verifiedProfile(
        _ credential: IdpCredential, providerID: String, in scope: StoreScope, clientAddress: String?
    ) throws -> FederatedProfile {
        guard let provider = try provider(providerID, in: scope) else {
            throw WireError(.operationNotAllowed, "The identity provider \(providerID) is not enabled for this project.")
        }
        if let idToken = credential.idToken, !idToken.isEmpty {
            var audience = provider
            if let clientID = credential.exchangedForClientID { audience.clientIDs.formIntersection([clientID]) }
            let token = try idTokens.verify(
                idToken, for: audience, accessToken: credential.accessToken, nonce: credential.nonce)
            return provider.profile(of: token, credential: credential)
        }
        if let accessToken = credential.accessToken, !accessToken.isEmpty, let google = googleAccessTokens[providerID] {
            return try google.verify(accessToken: accessToken, clientAddress: clientAddress)
        }
        throw WireError(.invalidIdpResponse, "No id_token was given for \(providerID).")
    }

    /// For an `oidc.*` credential with an authorization code and no ID token (a code flow): the credential with the ID
    /// token and access token the provider's token endpoint gives for the code, to be checked by ``verify(_:providerID:in:clientAddress:)``
    /// like any other, its audience then only the client ID the code was exchanged as. Any other credential unchanged.
    ///
    /// Exchanges run within the same bounds as access-token checks (their own slots): they come before any token is
    /// verified, so unknown callers must not hold the HTTP workers with them.
    ///
    /// - Parameter clientAddress: the caller's address, to bound exchanges per client; nil when unknown.
    /// - Throws: `INVALID_IDP_RESPONSE` when the provider has no client secret to exchange codes with, or the exchange
    ///   fails (a used or expired code, a wrong verifier or redirect URI, the provider unreachable);
    ///   `TOO_MANY_ATTEMPTS_TRY_LATER` when too many exchanges are running.
    public func redeemingCode(
        _ credential: IdpCredential, providerID: String, in scope: StoreScope = .project, clientAddress: String?
    ) throws -> IdpCredential {
        guard let provider = try provider(providerID, in: scope), provider.kind == .openID, credential.idToken?.isEmpty ?? true,
            let code = credential.authorizationCode, !code.isEmpty
        else { return credential }
        guard let exchange = provider.codeExchange else {
            throw WireError(
                .invalidIdpResponse,
                "\(providerID) has no client secret configured, so its authorization code cannot be exchanged; send an id_token.")
        }
        guard let redirectURI = credential.redirectURI, !redirectURI.isEmpty else {
            throw WireError(.invalidIdpResponse, "The requestUri the authorization code was sent to is missing.")
        }
        let tokens = try codeExchanges.run(client: clientAddress) {
            try exchange.tokens(code: code, redirectURI: redirectURI, codeVerifier: credential.codeVerifier)
        }
        var redeemed = credential
        redeemed.idToken = tokens.idToken
        redeemed.accessToken = tokens.accessToken
        redeemed.authorizationCode = nil
        redeemed.exchangedForClientID = exchange.clientID
        return redeemed
    }
}
