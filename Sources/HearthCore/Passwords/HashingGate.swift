public import Foundation
import HearthProtocol
import Synchronization

/// The bounded pool slow password work runs in (DESIGN decision 3): at most `concurrency` hashes at once,
/// on the gate's own threads, and at most `queueLimit` callers waiting for one. A caller beyond both is
/// refused at once, and a waiter gives up after `maximumWait`; both get `TOO_MANY_ATTEMPTS_TRY_LATER`, so a
/// burst of sign-ins cannot tie up the HTTP worker threads that refreshes, lookups and JWKS need.
///
/// The hashing threads run at a lower scheduling priority (nice 10 on Linux): when hashes and other requests
/// want the same cores, the other requests go first, so a flood of password sign-ins slows sign-ins, not
/// token refreshes; on an idle machine hashing still has every core.
public final class HashingGate: Sendable {
    public let concurrency: Int
    public let queueLimit: Int
    public let maximumWait: TimeInterval
    private let threads: HashingThreads
    /// Callers whose work is running or waiting for a thread.
    private let admitted = Mutex(0)

    static let busy = WireError(.tooManyAttemptsTryLater, "Too many password checks at once; try again later.")

    /// - Parameters:
    ///   - concurrency: hashes at once (threads); nil means the machine's active processor count (at least 1).
    ///   - queueLimit: callers that may wait for a thread; nil means twice `concurrency`.
    ///   - maximumWait: seconds a waiter waits for a thread before it is refused.
    public init(concurrency: Int? = nil, queueLimit: Int? = nil, maximumWait: TimeInterval = 5) {
        let concurrency = max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        self.concurrency = concurrency
        self.queueLimit = max(0, queueLimit ?? 2 * concurrency)
        self.maximumWait = max(0, maximumWait)
        threads = HashingThreads(count: concurrency)
    }

    deinit { threads.stop() }

    /// Runs `work` on one of the gate's threads and waits for it, or throws `TOO_MANY_ATTEMPTS_TRY_LATER` when
    /// the gate and its queue are full or no thread frees up within `maximumWait` (then `work` never runs).
    public func run<Value>(_ work: () throws -> Value) throws -> Value {
        guard admit() else { throw Self.busy }
        defer { admitted.withLock { $0 -= 1 } }
        var outcome: Result<Value, any Error>?
        let ran = threads.perform({ outcome = Result { try work() } }, maximumWait: maximumWait)
        guard ran, let outcome else { throw Self.busy }
        return try outcome.get()
    }

    /// Whether a caller arriving now would be refused at once: every thread busy and the queue full. A
    /// caller may answer `TOO_MANY_ATTEMPTS_TRY_LATER` on that alone, before doing any other work.
    public var isFull: Bool { admitted.withLock { $0 >= concurrency + queueLimit } }

    /// Callers running or waiting right now.
    public var occupancy: Int { admitted.withLock { $0 } }

    private func admit() -> Bool {
        admitted.withLock { count in
            guard count < concurrency + queueLimit else { return false }
            count += 1
            return true
        }
    }
}

/// The threads a ``HashingGate`` runs work on, at a lower scheduling priority, taking jobs first come, first
/// served. A job that has not started by its caller's deadline is withdrawn and never runs.
final class HashingThreads: @unchecked Sendable {
    private final class Job {
        enum State { case queued, running, done }
        /// Dropped (under the lock) before the job counts as done or withdrawn: the caller's closure must not
        /// outlive `perform`.
        var work: (() -> Void)?
        var state = State.queued
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// Guards `pending` and `stopping` and every job's `state`; signalled when any of them changes.
    private let condition = NSCondition()
    private var pending: [Job] = []
    private var stopping = false
    private let count: Int
    /// Threads running a job.
    private var running = 0

    init(count: Int) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in
                Self.lowerPriority()
                work()
            }
            thread.name = "hearth-hash-\(index)"
            thread.start()
        }
    }

    /// Ends the threads once the jobs already queued are done.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `work` on a thread and returns true once it is done; returns false, without running it, when every
    /// thread was still busy `maximumWait` seconds later. (With a thread idle, the job is about to be taken.)
    func perform(_ work: () -> Void, maximumWait: TimeInterval) -> Bool {
        // `work` does not escape: a job is either withdrawn before this returns or finished by then.
        withoutActuallyEscaping(work) { work in
            let job = Job(work)
            let deadline = Date().addingTimeInterval(maximumWait)
            condition.lock()
            defer { condition.unlock() }
            pending.append(job)
            condition.broadcast()
            while job.state == .queued {
                if Date() < deadline {
                    condition.wait(until: deadline)
                } else if running == count {
                    pending.removeAll { $0 === job }
                    job.work = nil
                    return false
                } else {
                    condition.wait()
                }
            }
            while job.state != .done { condition.wait() }
            return true
        }
    }

    private func work() {
        while true {
            condition.lock()
            while pending.isEmpty && !stopping { condition.wait() }
            guard !pending.isEmpty else {
                condition.unlock()
                return
            }
            let job = pending.removeFirst()
            job.state = .running
            running += 1
            condition.broadcast()
            condition.unlock()
            Self.run(job)
            condition.lock()
            job.work = nil
            job.state = .done
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Runs a job's work; its own frame, so that no reference to the closure is left once it returns. (`work`
    /// changes only under the lock, and not while the job runs.)
    private static func run(_ job: Job) {
        job.work?()
    }

    /// Nice 10 for the calling thread (Linux schedules threads one by one), so that hashing yields the cores to
    /// the HTTP threads when both want them. Where that is not possible, the thread keeps its priority.
    private static func lowerPriority() {
        #if os(Linux)
        // PRIO_PROCESS (0) with who 0: on Linux the nice value is per thread, and 0 names the calling one.
        _ = setpriority(__priority_which_t(0), 0, 10)
        #else
        Thread.current.qualityOfService = .utility
        #endif
    }
}
