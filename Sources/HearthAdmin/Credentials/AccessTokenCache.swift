import Foundation

/// An access token and the moment it stops being valid.
struct AccessToken: Sendable, Equatable {
    var value: String
    var expiresAt: Date
}

/// Keeps one access token until ``refreshMargin`` before it expires, and makes concurrent callers share one fetch.
///
/// While a fetch is in flight, every caller awaits that same fetch; a failed fetch is not cached, so the next caller
/// tries again.
actor AccessTokenCache {
    /// How long before its expiry a token is replaced (google-auth refreshes 3 min 45 s before; a little earlier
    /// here so a slow request does not arrive with an expired token).
    static let refreshMargin: TimeInterval = 300

    private var cached: AccessToken?
    private var inFlight: Task<AccessToken, any Error>?
    /// How many callers are awaiting a fetch right now (tests wait for it to prove they share one).
    private(set) var waiting = 0

    /// The cached token if it is fresh at `now`, else the result of `fetch` (shared with concurrent callers).
    func token(
        now: Date, fetch: @escaping @Sendable () async throws(HearthAdminError) -> AccessToken
    ) async throws(HearthAdminError) -> String {
        if let cached, cached.expiresAt.timeIntervalSince(now) > Self.refreshMargin {
            return cached.value
        }
        let task: Task<AccessToken, any Error>
        if let running = inFlight {
            task = running
        } else {
            task = Task { try await fetch() }
            inFlight = task
        }
        waiting += 1
        defer { waiting -= 1 }
        do {
            let token = try await task.value
            if inFlight == task {
                inFlight = nil
                cached = token
            }
            return token.value
        } catch {
            if inFlight == task { inFlight = nil }
            throw error as? HearthAdminError
                ?? HearthAdminError(.invalidCredential, message: "getting an access token failed (\(type(of: error)))")
        }
    }

    /// Forgets `value` if it is the cached token (Hearth refused it), so the next call fetches a new one.
    func discard(_ value: String) {
        if cached?.value == value { cached = nil }
    }
}
