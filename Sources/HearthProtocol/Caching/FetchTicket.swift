import Dispatch
import Synchronization

/// One fetch in flight: lookups that wait for it block on it (threads) or suspend on it (tasks) until the fetching
/// lookup calls ``finish()``.
final class FetchTicket: Sendable {
    private let done = DispatchGroup()
    private let suspended = Mutex<(finished: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init() {
        done.enter()
    }

    /// Releases every waiter, present and future. Called exactly once, by the lookup that fetched.
    func finish() {
        let waiting = suspended.withLock { state in
            state.finished = true
            defer { state.waiting = [] }
            return state.waiting
        }
        done.leave()
        for continuation in waiting { continuation.resume() }
    }

    /// Blocks the calling thread until ``finish()``.
    func wait() {
        done.wait()
    }

    /// Suspends the calling task until ``finish()``.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = suspended.withLock { state in
                if !state.finished { state.waiting.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}
