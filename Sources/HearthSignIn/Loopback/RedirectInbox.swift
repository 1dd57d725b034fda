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

extension RedirectInbox {
    /// The listener's answer to an authorization response whose path and method were accepted: a wrong or missing
    /// `state` is refused (400) and the flow keeps waiting; otherwise the response is delivered and the page says
    /// how it ended (`error` tells a failed response from a good one).
    func answer(
        _ parameters: [String: String], expectedState: String, error: ([String: String]) -> SignInError?
    ) -> LoopbackReply {
        guard ConstantTime.equals(parameters["state"], expectedState) else {
            noteRefusedState()
            return LoopbackReply(
                status: 400, title: "Sign-in response refused",
                message: "This response does not belong to the sign-in in progress (state mismatch). "
                    + "Close this window and start again from the app.")
        }
        guard deliver(parameters) else {
            return LoopbackReply(
                status: 400, title: "Sign-in already finished",
                message: "This sign-in is no longer waiting for a response. Close this window.", finishesFlow: true)
        }
        if let error = error(parameters) {
            let message =
                error.code == .canceled
                ? "Sign-in was canceled. You can close this window."
                : "Sign-in failed: \(error.oauthError ?? error.message). You can close this window and try again."
            return LoopbackReply(status: 200, title: "Sign-in not completed", message: message, finishesFlow: true)
        }
        return LoopbackReply(
            status: 200, title: "Signed in — you can close this window",
            message: "Return to the app to continue.", finishesFlow: true)
    }
}
