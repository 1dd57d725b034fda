public import Foundation

/// When a ``KeySetCache`` keeps keys and when it fetches them again.
public struct KeySetCachePolicy: Sendable, Equatable {
    /// Seconds keys are used when the response gives no freshness lifetime (no `max-age`).
    public var defaultLifetime: TimeInterval
    /// Bounds on a response's freshness lifetime. The floor also applies to `no-cache` and `no-store` (so a key
    /// server cannot make every verification fetch); the ceiling keeps a withdrawn key from being trusted for long.
    public var lifetimeRange: ClosedRange<TimeInterval>
    /// The shortest time between two fetches caused by unknown key IDs, so tokens with made-up `kid`s cannot make
    /// the cache hammer the key server.
    public var unknownKeyRefetchInterval: TimeInterval
    /// How long fetching pauses after a failed fetch: the lower bound after one failure, doubling with each further
    /// consecutive failure up to the upper bound. Meanwhile the last good keys stay in use.
    public var failureBackoff: ClosedRange<TimeInterval>

    public init(
        defaultLifetime: TimeInterval = 300, lifetimeRange: ClosedRange<TimeInterval> = 30...86_400,
        unknownKeyRefetchInterval: TimeInterval = 30, failureBackoff: ClosedRange<TimeInterval> = 5...60
    ) {
        self.defaultLifetime = defaultLifetime
        self.lifetimeRange = lifetimeRange
        self.unknownKeyRefetchInterval = unknownKeyRefetchInterval
        self.failureBackoff = failureBackoff
    }

    /// How long keys from a response with this freshness lifetime are used.
    func lifetime(_ freshness: TimeInterval?) -> TimeInterval {
        min(max(freshness ?? defaultLifetime, lifetimeRange.lowerBound), lifetimeRange.upperBound)
    }

    /// The pause after `failures` consecutive failed fetches (at least 1).
    func backoff(afterFailures failures: Int) -> TimeInterval {
        let doublings = Double(min(max(failures - 1, 0), 32))
        return min(failureBackoff.lowerBound * pow(2, doublings), failureBackoff.upperBound)
    }
}
