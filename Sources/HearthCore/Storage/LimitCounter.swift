/// A count kept under one key across requests, pending credentials, sessions and server instances:
/// wrong second-factor codes, SMS sent, and so on. It is read and changed in the same write
/// transaction that decides, so concurrent requests cannot both slip under a limit, and a refused
/// attempt is committed with it (see ``WriteOutcome``).
///
/// Keys name what is counted and for whom (`mfa-failure:factor:<uid>:<enrollment>`); they hold ids and
/// client addresses, never secrets. The policies that interpret a counter are ``WindowQuota`` and
/// ``FailureLockout``.
public struct LimitCounter: Sendable, Equatable {
    public var key: String
    /// Start of the current window, in milliseconds since 1970.
    public var windowStartMillis: Int64
    /// Events counted in the current window.
    public var count: Int
    /// Failures since the last lockout (or success).
    public var streak: Int
    /// Lockouts in the current window; each doubles the next one.
    public var lockouts: Int
    /// Until when the key is locked, in milliseconds since 1970; 0 when it is not.
    public var lockedUntilMillis: Int64
    /// When the counter no longer matters (its window and any lock are over) and may be purged.
    public var expiresAtMillis: Int64

    public init(
        key: String, windowStartMillis: Int64, count: Int = 0, streak: Int = 0, lockouts: Int = 0,
        lockedUntilMillis: Int64 = 0, expiresAtMillis: Int64
    ) {
        self.key = key
        self.windowStartMillis = windowStartMillis
        self.count = count
        self.streak = streak
        self.lockouts = lockouts
        self.lockedUntilMillis = lockedUntilMillis
        self.expiresAtMillis = expiresAtMillis
    }
}
