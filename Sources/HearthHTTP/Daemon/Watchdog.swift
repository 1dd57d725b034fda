import Foundation
import Synchronization

/// A background thread that enforces what libmicrohttpd cannot: the whole-request deadline, idle
/// eviction while busy (both through ``ConnectionTracker``), and returning memory after a burst.
///
/// It wakes a few times per shortest limit (every 50–500 ms), so limits are enforced to within that.
final class Watchdog: Sendable {
    private let tracker: ConnectionTracker
    private let budget: BodyBudget
    private let configuration: HTTPServer.Configuration
    private let stopRequested = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    init(tracker: ConnectionTracker, budget: BodyBudget, configuration: HTTPServer.Configuration) {
        self.tracker = tracker
        self.budget = budget
        self.configuration = configuration
    }

    /// Time between two looks: a quarter of the shortest of the request and busy-idle timeouts,
    /// within 50–500 ms.
    var tickMilliseconds: Int {
        let limits = [configuration.requestTimeout, configuration.busyIdleTimeout].filter { $0 > 0 }
        let shortest = limits.min() ?? 2
        return min(500, max(50, shortest * 1000 / 4))
    }

    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "hearth-http-watchdog"
        thread.start()
    }

    /// Stops the thread and waits for it to finish its current look.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        stopRequested.signal()
        finished.wait()
    }

    private func run() {
        let tick = DispatchTimeInterval.milliseconds(tickMilliseconds)
        var trim = MemoryTrimSchedule(interval: UInt64(max(0, configuration.memoryTrimInterval)) * 1_000_000_000)
        var wasBusy = false
        while stopRequested.wait(timeout: .now() + tick) == .timedOut {
            let open = tracker.sweep(now: monotonicNanoseconds())
            // Connection buffers of a flood, like bodies, stay in the allocator after they are freed.
            let busy = open >= configuration.busyThreshold
            if budget.takeBurstEnded() || (wasBusy && !busy) {
                trim.burstEnded()
            }
            wasBusy = busy
            trim.trimIfDue(now: monotonicNanoseconds())
        }
    }
}
