import Synchronization

/// Observations counted into fixed buckets (latencies), with their count and sum. One uncontended
/// lock per observation keeps a scrape's buckets, count and sum consistent with each other.
public final class Histogram: Sendable {
    /// The buckets' upper bounds, ascending; `+Inf` is implied.
    public let upperBounds: [Double]
    private let state: Mutex<Snapshot>

    /// What a scrape reads: per-bucket (not cumulative) counts, the last one for `+Inf`.
    public struct Snapshot: Sendable, Equatable {
        public var bucketCounts: [UInt64]
        public var count: UInt64
        public var sum: Double
    }

    init(upperBounds: [Double]) {
        self.upperBounds = upperBounds
        state = Mutex(Snapshot(bucketCounts: Array(repeating: 0, count: upperBounds.count + 1), count: 0, sum: 0))
    }

    /// Records one observation (in the histogram's unit, seconds for latencies).
    public func observe(_ value: Double) {
        var index = upperBounds.count
        for (position, bound) in upperBounds.enumerated() where value <= bound {
            index = position
            break
        }
        state.withLock { snapshot in
            snapshot.bucketCounts[index] += 1
            snapshot.count += 1
            snapshot.sum += value
        }
    }

    /// The counts so far.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Bounds from 1 ms to 10 s, for request and transaction latencies in seconds.
    public static let latencyBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
}
