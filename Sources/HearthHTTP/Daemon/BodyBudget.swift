import Synchronization

/// The memory all request bodies together may hold (``HTTPServer/Configuration/bodyBudgetBytes``).
///
/// Each request's first ``smallBodyBytes`` are free; beyond that a body reserves what its buffer
/// will hold before the buffer is allocated, and gives it back when the request ends. Shared by every
/// worker thread, so the count is one atomic.
final class BodyBudget: Sendable {
    /// Bytes that may be reserved at once.
    let limit: Int
    /// The part of each body that is not reserved.
    let smallBodyBytes: Int
    private let reserved = Atomic<Int>(0)
    /// Set by every reservation, cleared by ``takeBurstEnded()``.
    private let usedSinceLastCheck = Atomic<Bool>(false)

    init(limit: Int, smallBodyBytes: Int) {
        self.limit = max(0, limit)
        self.smallBodyBytes = max(0, smallBodyBytes)
    }

    /// Bytes reserved right now.
    var reservedBytes: Int { reserved.load(ordering: .relaxed) }

    /// Reserves `bytes` if they fit under the limit; otherwise reserves nothing and answers false.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        var current = reserved.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = reserved.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged {
                usedSinceLastCheck.store(true, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        reserved.subtract(bytes, ordering: .relaxed)
    }

    /// True once after bodies have been reserved and every reservation has been given back: the
    /// moment the memory they used can be returned to the system.
    func takeBurstEnded() -> Bool {
        guard reserved.load(ordering: .relaxed) == 0 else { return false }
        return usedSinceLastCheck.exchange(false, ordering: .relaxed)
    }
}

/// One request's body as it arrives, with its reservation in a ``BodyBudget``.
///
/// The buffer never grows past what is needed: with `Content-Length` it is allocated once at the
/// declared size (``expect(_:budget:)``), and a chunked body grows by doubling only up to the
/// body limit. Whatever the buffer may grow to is reserved first, so the budget counts memory
/// before it is allocated.
struct BodyBuffer {
    private(set) var bytes: [UInt8] = []
    /// The capacity the reservation covers.
    private var plannedCapacity = 0
    /// Bytes reserved in the budget for this body.
    private(set) var reservedBytes = 0

    /// Plans for a body of exactly `length` bytes; false (and nothing reserved) if the budget has no room.
    mutating func expect(_ length: Int, budget: BodyBudget) -> Bool {
        plan(capacity: length, budget: budget)
    }

    /// Appends a chunk, first reserving room for it; false (nothing appended) if the budget has no room.
    /// The caller has already checked that the body stays within `maxBytes`.
    mutating func append(_ chunk: UnsafeRawBufferPointer, maxBytes: Int, budget: BodyBudget) -> Bool {
        let needed = bytes.count + chunk.count
        if needed > plannedCapacity {
            let grown = max(needed, min(maxBytes, max(plannedCapacity * 2, 4096)))
            guard plan(capacity: grown, budget: budget) else { return false }
        }
        if bytes.capacity < plannedCapacity {
            bytes.reserveCapacity(plannedCapacity)
        }
        bytes.append(contentsOf: chunk)
        return true
    }

    /// Hands the bytes over (to the request passed to the handler). The reservation stays until
    /// ``release(to:)``: the handler still holds the memory.
    mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Drops the bytes and gives the reservation back.
    mutating func release(to budget: BodyBudget) {
        budget.release(reservedBytes)
        reservedBytes = 0
        plannedCapacity = 0
        bytes = []
    }

    private mutating func plan(capacity: Int, budget: BodyBudget) -> Bool {
        let needed = max(0, capacity - budget.smallBodyBytes)
        if needed > reservedBytes {
            guard budget.reserve(needed - reservedBytes) else { return false }
            reservedBytes = needed
        }
        plannedCapacity = capacity
        return true
    }
}
