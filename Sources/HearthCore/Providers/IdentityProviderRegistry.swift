import HearthProtocol

/// The identity providers `signInWithIdp` accepts, by provider ID: Google, Apple and configured `oidc.*` providers,
/// all verified with the one ID-token check (``OpenIDTokenVerifier``); Google also takes an access token alone.
public final class IdentityProviderRegistry: Sendable {
    private let providers: [String: IdentityProvider]
    private let idTokens: OpenIDTokenVerifier
    private let googleAccessTokens: [String: GoogleAccessTokenVerifier]

    /// - Parameters:
    ///   - providers: the entries; one without client IDs is left out (not enabled). A later entry with the same ID
    ///     replaces an earlier one.
    ///   - clockSkew: allowed clock difference for `exp`/`iat`, in seconds.
    ///   - limits: bounds on the outbound calls of access-token sign-ins.
    public init(
        providers: [IdentityProvider], time: any TimeSource, clockSkew: Int64 = 300,
        limits: OutboundCallLimits = OutboundCallLimits()
    ) {
        let enabled = providers.filter { !$0.clientIDs.isEmpty }
        self.providers = Dictionary(enabled.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        idTokens = OpenIDTokenVerifier(time: time, clockSkew: clockSkew)
        googleAccessTokens = self.providers.filter { !$0.value.accessTokenIssuers.isEmpty }.mapValues {
            GoogleAccessTokenVerifier(issuers: $0.accessTokenIssuers, clientIDs: $0.clientIDs, time: time, limits: limits)
        }
    }

    /// The enabled provider IDs, sorted.
    public var providerIDs: [String] { providers.keys.sorted() }

    /// The enabled entry for `providerID`, if any.
    public func provider(_ providerID: String) -> IdentityProvider? { providers[providerID] }

    /// Verifies a credential for `providerID`: its ID token, else (Google only) its access token alone.
    ///
    /// - Parameter clientAddress: the caller's address, to bound access-token checks per client; nil when unknown.
    /// - Throws: `OPERATION_NOT_ALLOWED` for a provider that is not enabled, `INVALID_IDP_RESPONSE` for a credential
    ///   that does not verify, `MISSING_OR_INVALID_NONCE`, or `TOO_MANY_ATTEMPTS_TRY_LATER` when too many
    ///   access-token checks are running.
    public func verify(_ credential: IdpCredential, providerID: String, clientAddress: String?) throws -> FederatedProfile {
        guard let provider = providers[providerID] else {
            throw WireError(.operationNotAllowed, "The identity provider \(providerID) is not enabled for this project.")
        }
        if let idToken = credential.idToken, !idToken.isEmpty {
            let token = try idTokens.verify(
                idToken, for: provider, accessToken: credential.accessToken, nonce: credential.nonce)
            return provider.profile(of: token, credential: credential)
        }
        if let accessToken = credential.accessToken, !accessToken.isEmpty, let google = googleAccessTokens[providerID] {
            return try google.verify(accessToken: accessToken, clientAddress: clientAddress)
        }
        throw WireError(.invalidIdpResponse, "No id_token was given for \(providerID).")
    }
}
