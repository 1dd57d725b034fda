/// Something an operator should know about, reported through `IdentityPlatform`'s event sink:
/// lockouts and exhausted quotas. Carries ids, client addresses and times, never secrets.
public enum SecurityEvent: Sendable, Equatable {
    /// `key` (see ``LimitCounter``) is locked until `untilMillis` after too many wrong attempts.
    case lockout(key: String, untilMillis: Int64)
    /// A store-kept quota (SMS to a number, from an account, a client or the project) refused a send.
    case quotaExhausted(key: String)
    /// An email of `action` (`PASSWORD_RESET`, …) could not be delivered; `reason` never holds the message.
    case emailNotDelivered(action: String, reason: String)

    /// One log line: `event=lockout key=… until_ms=…`.
    public var logLine: String {
        switch self {
        case .lockout(let key, let until): "event=lockout key=\(key) until_ms=\(until)"
        case .quotaExhausted(let key): "event=quota_exhausted key=\(key)"
        case .emailNotDelivered(let action, let reason): "event=email_not_delivered action=\(action) reason=\"\(reason)\""
        }
    }
}
