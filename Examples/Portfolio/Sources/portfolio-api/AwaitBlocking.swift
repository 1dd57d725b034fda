import Dispatch
import Synchronization

/// Runs async work from a synchronous request handler and waits for it.
///
/// Only for threads the HTTP server owns (never a Swift concurrency thread): the handler's thread blocks while the
/// work runs on the cooperative pool.
func awaitBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    guard let outcome = result.withLock({ $0 }) else { preconditionFailure("the task signals only after storing its result") }
    return try outcome.get()
}
