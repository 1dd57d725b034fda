import Synchronization

/// Counts exchanges with the server (a statement, or a pipeline of them sent together, and its answers), across
/// the connections that share it: what a deployment pays in network latency per operation.
public final class PostgresRoundTripCounter: Sendable {
    private let total = Atomic<Int>(0)

    public init() {}

    /// Round trips counted so far.
    public var value: Int { total.load(ordering: .relaxed) }

    func count() { total.add(1, ordering: .relaxed) }
}
