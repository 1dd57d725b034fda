import Foundation
import HearthCore
import HearthProtocol
import Synchronization
import Testing

/// Holds one of a gate's permits on another thread until ``release()``.
final class PermitHolder: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(_ gate: HashingGate) {
        Thread.detachNewThread { [entered, released, finished] in
            try? gate.run {
                entered.signal()
                released.wait()
            }
            finished.signal()
        }
        entered.wait()
    }

    func release() {
        released.signal()
        finished.wait()
    }
}

@Suite("Hashing gate")
struct HashingGateTests {
    static let busy = WireError(.tooManyAttemptsTryLater, "Too many password checks at once; try again later.")

    @Test("with one permit and a queue of one, a third concurrent caller is refused at once, and the waiter still runs")
    func saturation() throws {
        // A waiter would wait an hour: the third caller returning at all while the permit is held shows it never waited.
        let gate = HashingGate(concurrency: 1, queueLimit: 1, maximumWait: 3_600)
        let holder = PermitHolder(gate)
        let waiterRan = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if (try? gate.run { true }) == true { waiterRan.signal() }
        }
        while gate.occupancy < 2 { Thread.sleep(forTimeInterval: 0.001) }

        #expect(throws: Self.busy) { try gate.run { Issue.record("the third caller ran") } }
        #expect(gate.occupancy == 2)

        holder.release()
        #expect(waiterRan.wait(timeout: .now() + 60) == .success)
        #expect(try gate.run { 42 } == 42)
    }

    @Test("a waiter that gets no permit within the maximum wait is refused with the same error")
    func waiterTimesOut() {
        let gate = HashingGate(concurrency: 1, queueLimit: 1, maximumWait: 0.05)
        let holder = PermitHolder(gate)
        #expect(throws: Self.busy) { try gate.run { Issue.record("ran without a permit") } }
        holder.release()
        #expect(gate.occupancy == 0)
    }

    @Test("no more than `concurrency` callers run at once")
    func concurrencyBound() {
        let gate = HashingGate(concurrency: 2, queueLimit: 64, maximumWait: 600)
        let running = Mutex(0)
        let mostAtOnce = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            try? gate.run {
                let now = running.withLock { count in
                    count += 1
                    return count
                }
                mostAtOnce.withLock { $0 = max($0, now) }
                Thread.sleep(forTimeInterval: 0.002)
                running.withLock { $0 -= 1 }
            }
        }
        #expect(mostAtOnce.withLock { $0 } <= 2)
        #expect(gate.occupancy == 0)
    }

    @Test("work that throws gives its permit back")
    func throwingWorkReleases() throws {
        struct Failure: Error {}
        let gate = HashingGate(concurrency: 1, queueLimit: 0, maximumWait: 0)
        #expect(throws: Failure.self) { try gate.run { throw Failure() } }
        #expect(try gate.run { "ran" } == "ran")
    }

    @Test("defaults: one permit per active processor (at least one), a queue of twice that")
    func defaults() {
        let gate = HashingGate()
        #expect(gate.concurrency == max(1, ProcessInfo.processInfo.activeProcessorCount))
        #expect(gate.queueLimit == 2 * gate.concurrency)
        #expect(HashingGate(concurrency: 0).concurrency == 1)
    }
}
