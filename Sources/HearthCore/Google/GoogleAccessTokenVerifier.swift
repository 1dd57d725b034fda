import HearthProtocol

/// Google's access-token-only sign-in: the issuer's tokeninfo must name one of the project's client IDs, and the
/// profile comes from its userinfo.
///
/// These checks call the issuer over the network, so they are bounded (``OutboundCallLimits``): a verified token is
/// remembered by its SHA-256 until it expires, and only a few checks run at once, in all and per client address; the
/// rest are refused at once with `TOO_MANY_ATTEMPTS_TRY_LATER` rather than holding an HTTP worker thread.
final class GoogleAccessTokenVerifier: Sendable {
    private let issuers: [any GoogleAccessTokenIssuer]
    private let clientIDs: Set<String>
    private let time: any TimeSource
    private let lifetime: Int64
    private let verified: AccessTokenCache
    private let checks: OutboundCallLimiter

    init(issuers: [any GoogleAccessTokenIssuer], clientIDs: Set<String>, time: any TimeSource, limits: OutboundCallLimits) {
        self.issuers = issuers
        self.clientIDs = clientIDs
        self.time = time
        lifetime = limits.accessTokenCacheLifetime
        verified = AccessTokenCache(capacity: limits.accessTokenCacheSize)
        checks = OutboundCallLimiter(total: limits.maxConcurrentChecks, perClient: limits.maxConcurrentChecksPerClient)
    }

    /// An access token alone: remembered if verified before, else checked with the issuers (tokeninfo, then
    /// userinfo) within the outbound bounds, and remembered until it expires.
    ///
    /// - Parameter clientAddress: the address the request came from, to bound checks per client; nil when unknown
    ///   (only the server-wide bound applies).
    /// - Throws: `INVALID_IDP_RESPONSE`, or `TOO_MANY_ATTEMPTS_TRY_LATER` when too many checks are running.
    func verify(accessToken: String, clientAddress: String?) throws -> FederatedProfile {
        let key = AccessTokenCache.key(accessToken)
        if let known = verified.profile(forKey: key, now: time.nowSeconds) { return known }
        return try checks.run(client: clientAddress) {
            for issuer in issuers {
                guard let info = try? issuer.accessTokenInfo(accessToken) else { continue }
                let parties = [info.audience, info.authorizedParty].compactMap { $0 }
                guard parties.contains(where: clientIDs.contains) else {
                    throw OpenIDTokenVerifier.invalid("The access_token was not issued to a client ID of this project.")
                }
                guard info.expiresIn > 0 else { throw OpenIDTokenVerifier.invalid("The access_token has expired.") }
                let userInfo = try issuer.userInfo(accessToken: accessToken)
                guard userInfo["sub"]?.stringValue == info.subject else {
                    throw OpenIDTokenVerifier.invalid("The userinfo subject does not match the access_token.")
                }
                let profile = IdentityProvider.googleProfile(subject: info.subject, claims: userInfo, scopes: info.scope)
                verified.remember(profile, forKey: key, expiresAt: time.nowSeconds + min(info.expiresIn, lifetime))
                return profile
            }
            throw OpenIDTokenVerifier.invalid("The access_token is not valid.")
        }
    }
}
