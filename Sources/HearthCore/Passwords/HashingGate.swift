public import Foundation
import HearthProtocol
import Synchronization

/// The bounded semaphore slow password work runs under (DESIGN decision 3): at most `concurrency`
/// hashes at once and at most `queueLimit` callers waiting for one. A caller beyond both is refused at
/// once, and a waiter gives up after `maximumWait`; both get `TOO_MANY_ATTEMPTS_TRY_LATER`, so a burst of
/// sign-ins cannot tie up the HTTP worker threads that refreshes, lookups and JWKS need.
public final class HashingGate: Sendable {
    public let concurrency: Int
    public let queueLimit: Int
    public let maximumWait: TimeInterval
    private let permits: DispatchSemaphore
    /// Callers holding a permit or waiting for one.
    private let admitted = Mutex(0)

    static let busy = WireError(.tooManyAttemptsTryLater, "Too many password checks at once; try again later.")

    /// - Parameters:
    ///   - concurrency: hashes at once; nil means the machine's active processor count (at least 1).
    ///   - queueLimit: callers that may wait for a permit; nil means twice `concurrency`.
    ///   - maximumWait: seconds a waiter waits for a permit before it is refused.
    public init(concurrency: Int? = nil, queueLimit: Int? = nil, maximumWait: TimeInterval = 5) {
        let concurrency = max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        self.concurrency = concurrency
        self.queueLimit = max(0, queueLimit ?? 2 * concurrency)
        self.maximumWait = max(0, maximumWait)
        permits = DispatchSemaphore(value: concurrency)
    }

    /// Runs `work` under a permit, or throws `TOO_MANY_ATTEMPTS_TRY_LATER` when the gate and its queue are
    /// full or no permit frees up within `maximumWait`.
    public func run<Result>(_ work: () throws -> Result) throws -> Result {
        let capacity = concurrency + queueLimit
        let entered = admitted.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard entered else { throw Self.busy }
        defer { admitted.withLock { $0 -= 1 } }
        guard permits.wait(timeout: .now() + maximumWait) == .success else { throw Self.busy }
        defer { permits.signal() }
        return try work()
    }

    /// Callers holding a permit or waiting for one right now.
    public var occupancy: Int { admitted.withLock { $0 } }

    /// Whether a caller arriving now would be refused at once: every permit held and the queue full. A caller
    /// may answer `TOO_MANY_ATTEMPTS_TRY_LATER` on that alone, before doing any other work.
    public var isFull: Bool { admitted.withLock { $0 >= concurrency + queueLimit } }
}
