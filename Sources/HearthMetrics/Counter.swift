import Synchronization

/// A value that only goes up (requests served, sign-ins failed). Lock-free: one atomic add per call.
public final class Counter: Sendable {
    private let value = Atomic<UInt64>(0)

    init() {}

    /// Adds `amount` (default 1).
    public func increment(by amount: UInt64 = 1) {
        value.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The current count.
    public var count: UInt64 { value.load(ordering: .relaxed) }
}
