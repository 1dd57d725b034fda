import Synchronization

/// Observations counted into fixed buckets (latencies), with their count and sum. Lock-free: an observation is
/// two atomic updates (its bucket, and the sum as a ``Gauge`` adds), so threads answering requests on the same route
/// never wait for each other. The count is the buckets' total, so a scrape's `_count` always equals its `+Inf`
/// bucket; the sum may lag the buckets by the observations in progress during the scrape.
public final class Histogram: Sendable {
    /// The buckets' upper bounds, ascending; `+Inf` is implied.
    public let upperBounds: [Double]
    /// Per-bucket (not cumulative) counts, the last one for `+Inf`; one cell each, so no array is shared mutably.
    private let buckets: [Cell]
    /// The observations' sum, added to as a gauge is.
    private let sum = Gauge()

    /// What a scrape reads: per-bucket (not cumulative) counts, the last one for `+Inf`.
    public struct Snapshot: Sendable, Equatable {
        public var bucketCounts: [UInt64]
        public var count: UInt64
        public var sum: Double
    }

    init(upperBounds: [Double]) {
        self.upperBounds = upperBounds
        buckets = (0...upperBounds.count).map { _ in Cell() }
    }

    /// Records one observation (in the histogram's unit, seconds for latencies).
    public func observe(_ value: Double) {
        var index = upperBounds.count
        for (position, bound) in upperBounds.enumerated() where value <= bound {
            index = position
            break
        }
        buckets[index].count.wrappingAdd(1, ordering: .relaxed)
        sum.add(value)
    }

    /// The counts so far.
    public var snapshot: Snapshot {
        let counts = buckets.map { $0.count.load(ordering: .relaxed) }
        return Snapshot(bucketCounts: counts, count: counts.reduce(0, &+), sum: sum.value)
    }

    /// Bounds from 1 ms to 10 s, for request and transaction latencies in seconds.
    public static let latencyBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// One bucket's count.
    private final class Cell: Sendable {
        let count = Atomic<UInt64>(0)
    }
}
