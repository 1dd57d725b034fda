import HearthProtocol

/// What the operator's metrics count (`GET /metrics`), reported by the services, the request edge, the
/// senders and ``MeasuredStore``. Labels come from small fixed sets (enabled provider ids, wire error codes,
/// sender names), never from request values. ``NoMetrics`` (the default everywhere) ignores everything;
/// HearthServer's `ServerMetrics` counts it.
public protocol MetricsRecording: Sendable {
    /// A `signInWithIdp` ended. `provider`: an enabled provider's id, or ``MetricsOutcome/unknownProvider``;
    /// `outcome`: see ``MetricsOutcome``.
    func signIn(provider: String, outcome: String)
    /// A token refresh ended (``MetricsOutcome``).
    func refresh(outcome: String)
    /// A second-factor call ended (``MetricsOutcome``).
    func secondFactor(_ step: SecondFactorStep, outcome: String)
    /// An SMS or email was handed to `sender` (`twilio`, `webhook`, `smtp`, `development`…), or failed for good.
    func delivery(_ channel: DeliveryChannel, sender: String, succeeded: Bool)
    /// A store transaction ended after `seconds`; `succeeded` is false when it threw (a rolled-back body
    /// included).
    func storeTransaction(_ kind: StoreTransactionKind, seconds: Double, succeeded: Bool)
    /// A store reran a write body after a serialization failure (the PostgreSQL store's retries).
    func storeTransactionRetried()
}

/// The second-factor calls the metrics count.
public enum SecondFactorStep: String, Sendable, CaseIterable {
    case enrollmentStart = "enrollment_start"
    case enrollmentFinalize = "enrollment_finalize"
    case signInStart = "sign_in_start"
    case signInFinalize = "sign_in_finalize"
}

/// What a delivery carried.
public enum DeliveryChannel: String, Sendable {
    case sms
    case email
}

/// The two kinds of store transaction.
public enum StoreTransactionKind: String, Sendable {
    case read
    case write
}

/// The `outcome` label of an operation: `success`, a few successful endings of their own, or the wire
/// error code the client received (`INVALID_REFRESH_TOKEN`; `UNAVAILABLE` or `INTERNAL` for the server's faults).
public enum MetricsOutcome {
    public static let success = "success"
    /// A first factor that stopped at the second one.
    public static let secondFactorRequired = "mfa_required"
    /// A federated sign-in whose email belongs to another account that must confirm first.
    public static let needsConfirmation = "needs_confirmation"
    /// The provider label of a sign-in that named no enabled provider.
    public static let unknownProvider = "unknown"

    /// The wire code `error` is answered with.
    public static func failure(_ error: any Error) -> String {
        WireFailure(error).wire.code.rawValue
    }
}

/// Metrics that count nothing: the default for tests, fuzzing and in-process use.
public struct NoMetrics: MetricsRecording {
    public init() {}
    public func signIn(provider: String, outcome: String) {}
    public func refresh(outcome: String) {}
    public func secondFactor(_ step: SecondFactorStep, outcome: String) {}
    public func delivery(_ channel: DeliveryChannel, sender: String, succeeded: Bool) {}
    public func storeTransaction(_ kind: StoreTransactionKind, seconds: Double, succeeded: Bool) {}
    public func storeTransactionRetried() {}
}
