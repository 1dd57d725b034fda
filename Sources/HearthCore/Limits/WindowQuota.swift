/// At most `limit` events per `window` seconds under one key, in fixed windows that start at the
/// first event. Kept in the store as a ``LimitCounter`` (SMS sent per account, per client, per project).
public struct WindowQuota: Sendable, Equatable {
    public var limit: Int
    /// Seconds.
    public var window: Int64

    public init(limit: Int, window: Int64) {
        self.limit = limit
        self.window = window
    }

    /// The counter with one more event, or nil when the quota of the current window is used up.
    func charge(_ counter: LimitCounter?, key: String, nowMillis: Int64) -> LimitCounter? {
        var counter = current(counter, key: key, nowMillis: nowMillis)
        guard counter.count < limit else { return nil }
        counter.count += 1
        return counter
    }

    /// `counter`, or a fresh one when there is none or its window is over.
    private func current(_ counter: LimitCounter?, key: String, nowMillis: Int64) -> LimitCounter {
        let windowMillis = window.multipliedClamped(by: 1000)
        if let counter, nowMillis < counter.windowStartMillis.addingClamped(windowMillis) { return counter }
        return LimitCounter(
            key: key, windowStartMillis: nowMillis, expiresAtMillis: nowMillis.addingClamped(windowMillis))
    }
}

extension Int64 {
    /// `self + other`, saturating at the bounds instead of trapping.
    func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self * other`, saturating at the bounds instead of trapping.
    func multipliedClamped(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
