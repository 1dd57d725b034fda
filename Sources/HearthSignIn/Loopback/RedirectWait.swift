import Foundation

extension RedirectInbox {
    /// Opens the browser at `url`, then waits for this inbox; the timeout (counted from when the browser was opened)
    /// and task cancellation end the wait. Shared by Google and Apple sign-in.
    func response(
        afterOpening url: URL, with opener: any BrowserOpener, headless: Bool, timeout: Duration
    ) async throws -> [String: String] {
        try await withTaskCancellationHandler {
            do {
                try await opener.open(url)
            } catch let error as SignInError {
                throw error
            } catch is CancellationError {
                throw SignInError.canceled
            } catch {
                throw SignInError(.unknown, "Cannot open the browser: \(SignInError.describe(error)).")
            }
            // The listener records the response before it answers the request, so a headless fetch that came
            // back without one did not end at the redirect URI.
            if headless, !isFinished {
                throw SignInError(.unknown, "Headless sign-in did not come back to the redirect URI.")
            }
            let timer = Task {
                try await Task.sleep(for: timeout)
                fail(Self.timeoutError(timeout, refusedStates: refusedStates))
            }
            defer { timer.cancel() }
            return try await wait()
        } onCancel: {
            fail(SignInError(.canceled, "The sign-in flow was canceled."))
        }
    }

    private static func timeoutError(_ timeout: Duration, refusedStates: Int) -> SignInError {
        let seconds = String(describing: timeout)  // "300.0 seconds"
        if refusedStates > 0 {
            return SignInError(
                .unknown,
                "State mismatch: \(refusedStates) authorization response(s) with a wrong or missing state were refused, "
                    + "and none for this request arrived within \(seconds).")
        }
        return SignInError(.canceled, "No sign-in response arrived within \(seconds).")
    }
}

extension SignInError {
    /// Names an error without its payload, which can hold URLs with codes or tokens.
    static func describe(_ error: any Error) -> String {
        if let error = error as? SignInError { return error.message }
        if let error = error as? URLError { return "URLError \(error.code.rawValue)" }
        return String(describing: type(of: error))
    }
}
