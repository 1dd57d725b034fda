/// Makes concurrent `getIDToken()` calls share one refresh (FirebaseAuth's `TokenRefreshCoalescer`).
///
/// While a refresh is in flight, every caller awaits that same task, forced or not; when none is,
/// a caller whose cached token is still fresh gets it without a request.
actor TokenRefreshCoalescer {
    private var inFlight: Task<String, any Error>?
    private var waiting = 0
    private var waitingObserver: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - forcing: refresh even if the cached token is fresh (unless a refresh is already running).
    ///   - cachedToken: the current token if it is fresh enough, else nil. Read inside the actor, so
    ///     a caller arriving just after a refresh sees its result.
    ///   - refresh: performs the request and stores the new tokens; returns the new ID token.
    func token(
        forcing: Bool, cachedToken: @Sendable () -> String?,
        refresh: @escaping @Sendable () async throws -> String
    ) async throws -> String {
        if let task = inFlight {
            return try await wait(for: task)
        }
        if !forcing, let token = cachedToken() {
            return token
        }
        let task = Task { try await refresh() }
        inFlight = task
        defer {
            if inFlight == task { inFlight = nil }
        }
        return try await wait(for: task)
    }

    private func wait(for task: Task<String, any Error>) async throws -> String {
        waiting += 1
        waitingObserver?(waiting)
        defer { waiting -= 1 }
        return try await task.value
    }

    /// Test hook: called with the number of callers awaiting a refresh each time one starts waiting.
    func observeWaiting(_ observer: @escaping @Sendable (Int) -> Void) {
        waitingObserver = observer
    }
}
