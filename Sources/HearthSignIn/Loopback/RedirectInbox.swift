/// Where the authorization response of one pending flow lands, from the loopback listener or from
/// ``GoogleSignIn/handle(_:)``, and where the flow waits for it. The first outcome wins (a response, a timeout, a
/// cancellation); later ones are refused.
final class RedirectInbox: Sendable {
    private enum State {
        case waiting(CheckedContinuation<[String: String], any Error>?)
        case finished(Result<[String: String], SignInError>)
    }

    private let state = Locked<State>(.waiting(nil))
    private let refusedCount = Locked(0)

    /// Delivers a response. Returns false when the flow already has an outcome.
    @discardableResult
    func deliver(_ parameters: [String: String]) -> Bool {
        finish(.success(parameters))
    }

    /// Ends the wait with `error`. Returns false when the flow already has an outcome.
    @discardableResult
    func fail(_ error: SignInError) -> Bool {
        finish(.failure(error))
    }

    /// Whether the flow has an outcome.
    var isFinished: Bool {
        state.withLock { if case .finished = $0 { true } else { false } }
    }

    /// Counts a response that was refused for a wrong or missing `state`.
    func noteRefusedState() {
        refusedCount.withLock { $0 += 1 }
    }

    var refusedStates: Int { refusedCount.current }

    /// The response's parameters, once delivered.
    func wait() async throws -> [String: String] {
        try await withCheckedThrowingContinuation { continuation in
            let finished: Result<[String: String], SignInError>? = state.withLock { state in
                switch state {
                case .finished(let result):
                    return result
                case .waiting(let existing):
                    precondition(existing == nil, "RedirectInbox.wait() called twice")
                    state = .waiting(continuation)
                    return nil
                }
            }
            if let finished { continuation.resume(with: finished) }
        }
    }

    private func finish(_ result: Result<[String: String], SignInError>) -> Bool {
        let outcome: (accepted: Bool, waiter: CheckedContinuation<[String: String], any Error>?) = state.withLock { state in
            guard case .waiting(let continuation) = state else { return (false, nil) }
            state = .finished(result)
            return (true, continuation)
        }
        outcome.waiter?.resume(with: result)
        return outcome.accepted
    }
}
