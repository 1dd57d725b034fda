public import Foundation
import Synchronization

/// Why a ``KeySetCache`` has no keys to give: it has never fetched any, and the last fetch failed (or fetching is
/// paused after failures). The reason is the fetch error's description, so it names no token.
public struct KeySetUnavailable: Error, Sendable, CustomStringConvertible {
    /// What went wrong with the last fetch.
    public let reason: String

    public var description: String { reason }
}

/// The one cache of verification keys that every verifier in Hearth uses: the server's Google verification
/// (`RemoteGoogleIssuer`), HearthVerify and HearthSignIn. It knows nothing about HTTP: callers pass the fetch as a
/// closure that returns the keys and their freshness lifetime (``CacheControl/freshnessLifetime(cacheControl:age:)``).
///
/// Rules (the numbers are the ``KeySetCachePolicy``):
/// - Keys are used for the response's lifetime, clamped to ``KeySetCachePolicy/lifetimeRange``
///   (``KeySetCachePolicy/defaultLifetime`` when it gives none), then the next lookup fetches them again.
/// - One fetch at a time (single flight). A lookup that needs keys while a fetch runs waits for it when there are no
///   keys or it is looking for an unknown key ID; with merely expired keys it uses them and does not wait.
/// - An unknown key ID causes a fetch at most once per ``KeySetCachePolicy/unknownKeyRefetchInterval``.
/// - After a failed fetch nothing is fetched for the ``KeySetCachePolicy/failureBackoff`` (doubling while failures
///   continue): the last good keys stay in use, and without any keys lookups fail at once (a negative cache).
///
/// Decisions are made under a lock on a plain value; fetching and waiting happen outside it. Blocking callers use
/// `keys(fetch:)`; async callers (HearthSignIn) the `async` overloads, which wait without blocking a thread.
///
/// ```swift
/// let cache = KeySetCache<JWTKeySet>()
/// let keys = try cache.keys { try fetchJWKS() }.keys
/// ```
public final class KeySetCache<Keys: Sendable>: Sendable {
    /// What a fetch returns: the keys, and their freshness lifetime in seconds (nil when the response gives none).
    public typealias Fetched = (keys: Keys, lifetime: TimeInterval?)

    /// Keys for a lookup.
    public struct Lookup: Sendable {
        /// The keys to verify with.
        public let keys: Keys
        /// Whether this lookup fetched them or waited for a fetch: then an unknown key ID should not fetch again.
        public let justFetched: Bool
    }

    /// The lifetimes, refetch interval and backoff this cache follows.
    public let policy: KeySetCachePolicy
    private let clock: @Sendable () -> Date
    private let state: Mutex<State>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - policy: lifetimes, the unknown-key refetch interval and the failure backoff.
    ///   - clock: the current time.
    public init(policy: KeySetCachePolicy = KeySetCachePolicy(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.policy = policy
        self.clock = clock
        state = Mutex(State(policy: policy))
    }

    // MARK: Blocking lookups

    /// Cached keys, or keys fetched now with `fetch` (or by the lookup that is already fetching).
    ///
    /// - Throws: ``KeySetUnavailable`` when there are no keys and fetching failed or is paused after failures.
    public func keys(fetch: () throws -> Fetched) throws(KeySetUnavailable) -> Lookup {
        try resolve(decide { $0.forLookup(now: $1, mayBlock: true) }, fetch: fetch)
    }

    /// Keys to try again with after the keys of an earlier lookup did not know a token's key ID: the result of a
    /// fetch in flight, of a new fetch if the policy allows one now, or else the current keys (possibly the same).
    ///
    /// - Throws: ``KeySetUnavailable`` as `keys(fetch:)`.
    public func keysAfterUnknownKeyID(fetch: () throws -> Fetched) throws(KeySetUnavailable) -> Keys {
        try resolve(decide { $0.afterUnknownKeyID(now: $1, mayBlock: true) }, fetch: fetch).keys
    }

    /// `keys(fetch:)` without blocking: nil when the lookup would have to fetch or wait.
    public func keysWithoutWaiting() throws(KeySetUnavailable) -> Lookup? {
        try settledWithoutWaiting(decide { $0.forLookup(now: $1, mayBlock: false) })
    }

    /// `keysAfterUnknownKeyID(fetch:)` without blocking: nil when it would have to fetch or wait.
    public func keysAfterUnknownKeyIDWithoutWaiting() throws(KeySetUnavailable) -> Keys? {
        try settledWithoutWaiting(decide { $0.afterUnknownKeyID(now: $1, mayBlock: false) })?.keys
    }

    // MARK: Async lookups

    /// `keys(fetch:)` for async callers: waiting for another lookup's fetch suspends instead of blocking.
    public func keys(fetch: () async throws -> Fetched) async throws(KeySetUnavailable) -> Lookup {
        try await resolve(decide { $0.forLookup(now: $1, mayBlock: true) }, fetch: fetch)
    }

    /// `keysAfterUnknownKeyID(fetch:)` for async callers.
    public func keysAfterUnknownKeyID(fetch: () async throws -> Fetched) async throws(KeySetUnavailable) -> Keys {
        try await resolve(decide { $0.afterUnknownKeyID(now: $1, mayBlock: true) }, fetch: fetch).keys
    }

    // MARK: Observation

    /// Fetches started so far (for tests, benchmarks and metrics).
    public var fetchCount: Int { state.withLock { $0.fetches } }

    /// Lookups waiting for the fetch in flight right now (for tests).
    public var waiterCount: Int { state.withLock { $0.waiters } }

    // MARK: Internals

    private func decide(_ rule: (inout State, Date) -> Decision) -> Decision {
        let now = clock()
        return state.withLock { rule(&$0, now) }
    }

    private func settledWithoutWaiting(_ decision: Decision) throws(KeySetUnavailable) -> Lookup? {
        switch decision {
        case .use(let keys): return Lookup(keys: keys, justFetched: false)
        case .unavailable(let reason): throw KeySetUnavailable(reason: reason)
        case .wouldBlock, .wait, .fetch: return nil
        }
    }

    private func resolve(_ decision: Decision, fetch: () throws -> Fetched) throws(KeySetUnavailable) -> Lookup {
        switch decision {
        case .wait(let ticket):
            ticket.wait()
            return try afterWaiting()
        case .fetch(let ticket):
            let result: Result<Fetched, any Error>
            do { result = .success(try fetch()) } catch { result = .failure(error) }
            return try finish(ticket, with: result)
        case .use, .unavailable, .wouldBlock:
            return try settled(decision)
        }
    }

    private func resolve(_ decision: Decision, fetch: () async throws -> Fetched) async throws(KeySetUnavailable)
        -> Lookup
    {
        switch decision {
        case .wait(let ticket):
            await ticket.wait()
            return try afterWaiting()
        case .fetch(let ticket):
            let result: Result<Fetched, any Error>
            do { result = .success(try await fetch()) } catch { result = .failure(error) }
            return try finish(ticket, with: result)
        case .use, .unavailable, .wouldBlock:
            return try settled(decision)
        }
    }

    private func settled(_ decision: Decision) throws(KeySetUnavailable) -> Lookup {
        guard let lookup = try settledWithoutWaiting(decision) else {
            preconditionFailure("a lookup that may block never answers wouldBlock")
        }
        return lookup
    }

    private func afterWaiting() throws(KeySetUnavailable) -> Lookup {
        let keys = state.withLock { state in
            state.waiters -= 1
            return state.keys
        }
        return try fresh(keys)
    }

    private func finish(_ ticket: FetchTicket, with result: Result<Fetched, any Error>) throws(KeySetUnavailable) -> Lookup {
        let now = clock()
        let keys = state.withLock { state in
            state.finishFetch(result, now: now)
            return state.keys
        }
        ticket.finish()
        return try fresh(keys)
    }

    private func fresh(_ keys: Keys?) throws(KeySetUnavailable) -> Lookup {
        guard let keys else { throw KeySetUnavailable(reason: state.withLock { $0.failureReason }) }
        return Lookup(keys: keys, justFetched: true)
    }

    /// What a lookup does next.
    enum Decision {
        case use(Keys)
        case fetch(FetchTicket)
        case wait(FetchTicket)
        case unavailable(String)
        case wouldBlock
    }

    /// The cache's state; every decision is a mutating method, made under the lock.
    struct State {
        let policy: KeySetCachePolicy
        var keys: Keys?
        var freshUntil = Date.distantPast
        var lastUnknownKeyFetch: Date?
        var consecutiveFailures = 0
        var pausedUntil = Date.distantPast
        var failureReason = "the keys have not been fetched yet"
        var inFlight: FetchTicket?
        var waiters = 0
        var fetches = 0

        mutating func forLookup(now: Date, mayBlock: Bool) -> Decision {
            if let keys {
                if now < freshUntil || inFlight != nil || now < pausedUntil { return .use(keys) }
                return mayBlock ? startFetch() : .wouldBlock
            }
            if let inFlight { return wait(for: inFlight, mayBlock: mayBlock) }
            if now < pausedUntil { return .unavailable(failureReason) }
            return mayBlock ? startFetch() : .wouldBlock
        }

        mutating func afterUnknownKeyID(now: Date, mayBlock: Bool) -> Decision {
            if let inFlight { return wait(for: inFlight, mayBlock: mayBlock) }
            let refetchedRecently = lastUnknownKeyFetch.map { now < $0 + policy.unknownKeyRefetchInterval } ?? false
            if refetchedRecently || now < pausedUntil { return keys.map(Decision.use) ?? .unavailable(failureReason) }
            guard mayBlock else { return .wouldBlock }
            lastUnknownKeyFetch = now
            return startFetch()
        }

        mutating func finishFetch(_ result: Result<Fetched, any Error>, now: Date) {
            inFlight = nil
            switch result {
            case .success(let fetched):
                keys = fetched.keys
                freshUntil = now + policy.lifetime(fetched.lifetime)
                consecutiveFailures = 0
                pausedUntil = .distantPast
            case .failure(let error):
                consecutiveFailures += 1
                pausedUntil = now + policy.backoff(afterFailures: consecutiveFailures)
                failureReason = String(describing: error)
            }
        }

        private mutating func wait(for ticket: FetchTicket, mayBlock: Bool) -> Decision {
            guard mayBlock else { return .wouldBlock }
            waiters += 1
            return .wait(ticket)
        }

        private mutating func startFetch() -> Decision {
            let ticket = FetchTicket()
            inFlight = ticket
            fetches += 1
            return .fetch(ticket)
        }
    }
}
