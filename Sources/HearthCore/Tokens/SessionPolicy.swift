/// How refresh-token sessions are kept: rotation with reuse detection, the cap of live sessions per
/// account, and how long spent sessions are kept before the purge deletes them. Times are in seconds.
public struct SessionPolicy: Sendable, Equatable {
    /// Whether each refresh returns a new refresh token (the session keeps the replaced one's hash).
    public var rotatesRefreshTokens: Bool
    /// How long after a rotation the replaced token still works, answered with the successor it was
    /// replaced by (a client retrying a lost response). Presenting it later revokes the whole session.
    /// 0: never.
    public var reuseGracePeriod: Int64
    /// Live sessions an account may have; a new sign-in beyond it revokes the oldest ones.
    public var maximumSessionsPerAccount: Int
    /// How long a legacy refresh token (issued before migration 5) that was rotated before the upgrade is
    /// kept, so that its reuse is recognised. Reuse of a newer token is recognised as long as its
    /// session exists: a session keeps what that needs in its own row.
    public var reuseDetectionPeriod: Int64
    /// How long the tokens of a revoked session (reuse, the cap, `validSince`) or a deleted account are
    /// kept, so that they are answered `TOKEN_EXPIRED` / `USER_NOT_FOUND` (which sign clients out)
    /// rather than `INVALID_REFRESH_TOKEN`.
    public var revokedRetention: Int64
    /// How old a sign-in may be to change how its account signs in (Firebase: five minutes); an operator may only
    /// shorten it.
    public var recentSignInWindow: Int64

    public init(
        rotatesRefreshTokens: Bool = true, reuseGracePeriod: Int64 = 60, maximumSessionsPerAccount: Int = 100,
        reuseDetectionPeriod: Int64 = 30 * 86_400, revokedRetention: Int64 = 7 * 86_400, recentSignInWindow: Int64 = 300
    ) {
        self.recentSignInWindow = recentSignInWindow
        self.rotatesRefreshTokens = rotatesRefreshTokens
        self.reuseGracePeriod = reuseGracePeriod
        self.maximumSessionsPerAccount = maximumSessionsPerAccount
        self.reuseDetectionPeriod = reuseDetectionPeriod
        self.revokedRetention = revokedRetention
    }

    var reuseGraceMillis: Int64 { Self.millis(reuseGracePeriod) }
    var reuseDetectionMillis: Int64 { Self.millis(reuseDetectionPeriod) }
    var revokedRetentionMillis: Int64 { Self.millis(revokedRetention) }

    /// Seconds as milliseconds, saturating instead of overflowing.
    private static func millis(_ seconds: Int64) -> Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? .min : .max) : product
    }
}
