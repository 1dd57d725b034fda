import HearthProtocol
import Synchronization

/// Admits at most a fixed number of outbound checks at once, in all and per client address, and refuses the rest
/// at once (fail fast) instead of queueing them on HTTP worker threads.
final class OutboundCallLimiter: Sendable {
    private let total: Int
    private let perClient: Int
    private let running = Mutex<(total: Int, byClient: [String: Int])>((0, [:]))

    init(total: Int, perClient: Int) {
        self.total = max(1, total)
        self.perClient = max(1, perClient)
    }

    /// Runs `body` if a slot is free for `client` (nil: an unknown address, bound only by the total).
    ///
    /// - Throws: `TOO_MANY_ATTEMPTS_TRY_LATER` when no slot is free; whatever `body` throws.
    func run<T>(client: String?, _ body: () throws -> T) throws -> T {
        guard admit(client) else {
            throw WireError(
                .tooManyAttemptsTryLater, "Too many sign-ins are waiting for the identity provider; try again shortly.")
        }
        defer { release(client) }
        return try body()
    }

    /// Checks running now (for tests).
    var runningCount: Int { running.withLock { $0.total } }

    private func admit(_ client: String?) -> Bool {
        running.withLock { running in
            guard running.total < total else { return false }
            if let client {
                let current = running.byClient[client, default: 0]
                guard current < perClient else { return false }
                running.byClient[client] = current + 1
            }
            running.total += 1
            return true
        }
    }

    private func release(_ client: String?) {
        running.withLock { running in
            running.total -= 1
            if let client {
                let remaining = running.byClient[client, default: 1] - 1
                running.byClient[client] = remaining > 0 ? remaining : nil
            }
        }
    }
}
