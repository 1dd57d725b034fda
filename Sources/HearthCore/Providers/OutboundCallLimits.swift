public import Foundation

/// Bounds on the calls Hearth makes to identity providers while it answers a request (their JWKS and discovery
/// documents, Google's tokeninfo and userinfo), so that a slow or hostile provider, or many access-token sign-ins,
/// cannot hold the HTTP worker threads.
public struct OutboundCallLimits: Sendable, Equatable {
    /// Seconds one call may take before it fails.
    public var timeout: TimeInterval
    /// Access-token checks (tokeninfo, then userinfo) that may run at once in the whole server, and as many `oidc.*`
    /// code exchanges; more are refused at once with `TOO_MANY_ATTEMPTS_TRY_LATER`. Keep it below the number of HTTP
    /// threads.
    public var maxConcurrentChecks: Int
    /// The same bound per client address (requests whose address is unknown count only against the server's bound).
    public var maxConcurrentChecksPerClient: Int
    /// Verified access tokens remembered, by the SHA-256 of the token, so a repeated sign-in makes no call; when
    /// full, the oldest is forgotten. 0 turns the cache off.
    public var accessTokenCacheSize: Int
    /// The longest a verified access token is remembered, in seconds, whatever its own expiry (a token revoked at
    /// the provider keeps signing in until then).
    public var accessTokenCacheLifetime: Int64

    public init(
        timeout: TimeInterval = 5, maxConcurrentChecks: Int = 2, maxConcurrentChecksPerClient: Int = 1,
        accessTokenCacheSize: Int = 10_000, accessTokenCacheLifetime: Int64 = 3600
    ) {
        self.timeout = timeout
        self.maxConcurrentChecks = maxConcurrentChecks
        self.maxConcurrentChecksPerClient = maxConcurrentChecksPerClient
        self.accessTokenCacheSize = accessTokenCacheSize
        self.accessTokenCacheLifetime = accessTokenCacheLifetime
    }
}
