import Foundation
import Testing

/// The threads the end-to-end suites' blocking tests run on, instead of the shared cooperative pool.
///
/// The test process runs every suite at once on a cooperative pool as wide as the machine has cores (two here). The
/// end-to-end tests are mostly synchronous and block while a child process works, so on the pool they held both
/// threads for minutes and every async test's next step waited behind them: flows with a five-minute window (a recent
/// sign-in, a dev IdP's code) ran out (CI: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "invalid_grant"). Here they queue for
/// threads of their own, as many as the machine has cores, so they still run about as many at a time as before
/// while the pool stays free for everything else.
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched with `condition` locked.
    static let shared = BlockingTestExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "e2e-blocking-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The threads' ids, as they started.
    private(set) var threadIDs: [pthread_t] = []

    /// Whether the calling code runs on one of these threads.
    var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadIDs.contains { pthread_equal($0, pthread_self()) != 0 }
    }

    private func run() {
        condition.lock()
        threadIDs.append(pthread_self())
        condition.unlock()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test of the suite it marks on ``BlockingTestExecutor``'s threads (for suites whose tests block).
struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) {
            // A preference is consulted when the task is next scheduled: yield once so that it moves there now.
            await Task.yield()
            try await function()
        }
    }
}

extension Trait where Self == BlockingTrait {
    /// The suite's tests block (child processes, sockets, sleeps): they run on threads of their own.
    static var blocking: Self { BlockingTrait() }
}
