import Foundation

/// A task executor with one thread of its own.
///
/// The test process runs every suite at once on a cooperative pool as wide as the machine has cores (two here), and
/// many end-to-end tests block their pool thread while a child process works. A test whose steps must follow each
/// other within a deadline (a dev IdP's authorization code lives five minutes) runs under
/// `withTaskExecutorPreference(DedicatedThreadExecutor.shared)`, so its continuations never queue behind them.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched with `condition` locked.
    static let shared = DedicatedThreadExecutor(name: "hearth-tests-dedicated")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
