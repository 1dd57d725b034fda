/// Wrong attempts under one key (a second factor, a client address), kept in the store as a
/// ``LimitCounter``: `burst` wrong attempts in a row lock the key for `lockout` seconds, each further
/// lockout in the window for twice as long as the one before, and `maximumPerWindow` wrong attempts
/// within `window` seconds lock it until that window is over. A success resets the streak (and, for a
/// factor, the whole counter: see `MFAService`).
///
/// So at most `maximumPerWindow` guesses per `window` are possible under one key, whatever the rate of
/// requests: docs/SECURITY.md turns that into the chance of guessing a code.
public struct FailureLockout: Sendable, Equatable {
    public var burst: Int
    /// Seconds of the first lockout.
    public var lockout: Int64
    public var maximumPerWindow: Int
    /// Seconds.
    public var window: Int64

    public init(burst: Int, lockout: Int64, maximumPerWindow: Int, window: Int64) {
        self.burst = burst
        self.lockout = lockout
        self.maximumPerWindow = maximumPerWindow
        self.window = window
    }

    /// Until when (milliseconds since 1970) the key is locked, or nil when it is open.
    func lockedUntil(_ counter: LimitCounter?, nowMillis: Int64) -> Int64? {
        guard let counter, counter.lockedUntilMillis > nowMillis else { return nil }
        return counter.lockedUntilMillis
    }

    /// The counter with one more wrong attempt, and whether that attempt started a lockout.
    func recordFailure(_ counter: LimitCounter?, key: String, nowMillis: Int64) -> (counter: LimitCounter, lockedNow: Bool) {
        let windowMillis = window.multipliedClamped(by: 1000)
        var counter = counter ?? LimitCounter(key: key, windowStartMillis: nowMillis, expiresAtMillis: nowMillis)
        if nowMillis >= counter.windowStartMillis.addingClamped(windowMillis) {
            counter = LimitCounter(key: key, windowStartMillis: nowMillis, expiresAtMillis: nowMillis)
        }
        let windowEnd = counter.windowStartMillis.addingClamped(windowMillis)
        counter.count += 1
        counter.streak += 1
        var lockedNow = false
        if counter.count >= maximumPerWindow {
            counter.lockedUntilMillis = max(counter.lockedUntilMillis, windowEnd)
            counter.streak = 0
            lockedNow = true
        } else if counter.streak >= burst {
            let doublings = Int64(min(counter.lockouts, 40))
            let seconds = lockout.multipliedClamped(by: Int64(1) << doublings)
            counter.lockedUntilMillis = nowMillis.addingClamped(seconds.multipliedClamped(by: 1000))
            counter.lockouts += 1
            counter.streak = 0
            lockedNow = true
        }
        counter.expiresAtMillis = max(windowEnd, counter.lockedUntilMillis)
        return (counter, lockedNow)
    }
}
