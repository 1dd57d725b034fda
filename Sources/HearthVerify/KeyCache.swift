import Dispatch
import Foundation
import JOSE
import Synchronization

/// The verifier's JWKS cache: keys by `kid`, kept for the JWKS response's max-age, refetched when they expire or
/// when a token names a `kid` the cache does not know.
///
/// Rules (the constants are on ``IDTokenVerifier``):
/// - Keys are used until `max-age` (default ``IDTokenVerifier/defaultKeyLifetime``, clamped to
///   ``IDTokenVerifier/keyLifetimeRange``), then the next verify refetches them.
/// - An unknown `kid` triggers a refetch at most once per ``IDTokenVerifier/unknownKeyRefetchInterval``.
/// - After a failed fetch the next attempt waits ``IDTokenVerifier/failedFetchRetryInterval``; meanwhile expired keys
///   keep being used (a down Hearth does not take the backend down with it).
/// - One fetch at a time: a verify that needs keys while a fetch is running waits for that fetch (when it has no
///   keys) or uses the keys it has (when they merely expired).
///
/// The state is a plain value behind a `Mutex`; decisions are made under the lock, and fetching and waiting happen
/// after it is released.
final class KeyCache: Sendable {
    /// What a verify should do next.
    enum Answer {
        /// Verify with these keys; `generation` identifies the fetch they came from, and `fresh` says this call
        /// fetched them or waited for them (so an unknown `kid` need not cause another fetch right away).
        case keys(JWTKeySet, generation: Int, fresh: Bool)
        /// Getting keys would mean fetching or waiting, and the caller asked not to block.
        case wouldBlock
        /// An unknown `kid` may not trigger a fetch now (rate limit or recent failure), and no newer keys exist.
        case noNewerKeys
    }

    /// A fetch in progress; waiters block on `done` until the fetching thread leaves it.
    final class Ticket: Sendable {
        let done = DispatchGroup()

        init() {
            done.enter()
        }
    }

    struct State {
        var keys: JWTKeySet?
        /// Counts finished fetches, successful or not.
        var generation = 0
        var expiresAt = Date.distantPast
        var lastUnknownKeyFetch: Date?
        var lastFailure: Date?
        var lastFailureReason = ""
        var inFlight: Ticket?
        /// Threads blocked on `inFlight` (observed by tests).
        var waiters = 0
        /// Fetches started (observed by tests and benchmarks).
        var fetches = 0

        enum Decision {
            case use(JWTKeySet, generation: Int)
            case fetch(Ticket)
            case wait(Ticket)
            case wouldBlock
            case unavailable(String)
            case noNewerKeys
        }

        private func recentlyFailed(_ now: Date) -> Bool {
            guard let lastFailure else { return false }
            return now < lastFailure + IDTokenVerifier.failedFetchRetryInterval
        }

        private mutating func startFetch() -> Decision {
            let ticket = Ticket()
            inFlight = ticket
            fetches += 1
            return .fetch(ticket)
        }

        /// Keys for an ordinary verify.
        mutating func keysForVerification(now: Date, mayBlock: Bool) -> Decision {
            if let keys {
                if now < expiresAt || inFlight != nil || recentlyFailed(now) { return .use(keys, generation: generation) }
                return mayBlock ? startFetch() : .wouldBlock
            }
            if let inFlight {
                guard mayBlock else { return .wouldBlock }
                waiters += 1
                return .wait(inFlight)
            }
            if recentlyFailed(now) { return .unavailable(lastFailureReason) }
            return mayBlock ? startFetch() : .wouldBlock
        }

        /// Keys to retry with after the keys of `seen` did not know a token's `kid`.
        mutating func keysAfterUnknownKeyID(seen: Int, now: Date, mayBlock: Bool) -> Decision {
            if generation != seen, let keys { return .use(keys, generation: generation) }
            if let inFlight {
                guard mayBlock else { return .wouldBlock }
                waiters += 1
                return .wait(inFlight)
            }
            if let last = lastUnknownKeyFetch, now < last + IDTokenVerifier.unknownKeyRefetchInterval { return .noNewerKeys }
            if recentlyFailed(now) { return .noNewerKeys }
            guard mayBlock else { return .wouldBlock }
            lastUnknownKeyFetch = now
            return startFetch()
        }

        /// Keys once a waited-for fetch finished.
        mutating func keysAfterWaiting() -> Decision {
            waiters -= 1
            if let keys { return .use(keys, generation: generation) }
            return .unavailable(lastFailureReason)
        }

        mutating func finishFetch(_ result: Result<(JWTKeySet, TimeInterval?), FetchFailure>, now: Date) {
            generation += 1
            inFlight = nil
            switch result {
            case .success(let (keys, maxAge)):
                self.keys = keys
                let range = IDTokenVerifier.keyLifetimeRange
                let lifetime = min(max(maxAge ?? IDTokenVerifier.defaultKeyLifetime, range.lowerBound), range.upperBound)
                expiresAt = now + lifetime
                lastFailure = nil
            case .failure(let failure):
                lastFailure = now
                lastFailureReason = failure.reason
            }
        }
    }

    struct FetchFailure: Error {
        var reason: String
    }

    private let state = Mutex(State())
    private let fetcher: any JWKSFetching
    private let url: URL
    private let clock: @Sendable () -> Date

    init(fetcher: any JWKSFetching, url: URL, clock: @escaping @Sendable () -> Date) {
        self.fetcher = fetcher
        self.url = url
        self.clock = clock
    }

    /// Keys for an ordinary verify: cached ones, or freshly fetched ones.
    ///
    /// - Throws: ``VerificationError/Code/keysUnavailable`` when there are no keys and fetching failed.
    func keys(mayBlock: Bool) throws(VerificationError) -> Answer {
        let now = clock()
        let decision = state.withLock { $0.keysForVerification(now: now, mayBlock: mayBlock) }
        return try settle(decision)
    }

    /// Newer keys after the keys of fetch `seen` did not know a token's `kid`: from a fetch that finished since,
    /// from one in flight, or from a new fetch if the rate limit allows.
    func keysAfterUnknownKeyID(seen generation: Int, mayBlock: Bool) throws(VerificationError) -> Answer {
        let now = clock()
        let decision = state.withLock { $0.keysAfterUnknownKeyID(seen: generation, now: now, mayBlock: mayBlock) }
        return try settle(decision)
    }

    private func settle(_ decision: State.Decision, fresh: Bool = false) throws(VerificationError) -> Answer {
        switch decision {
        case .use(let keys, let generation):
            return .keys(keys, generation: generation, fresh: fresh)
        case .wouldBlock:
            return .wouldBlock
        case .noNewerKeys:
            return .noNewerKeys
        case .unavailable(let reason):
            throw VerificationError(.keysUnavailable, reason: "no verification keys: \(reason)")
        case .wait(let ticket):
            ticket.done.wait()
            return try settle(state.withLock { $0.keysAfterWaiting() }, fresh: true)
        case .fetch(let ticket):
            let result: Result<(JWTKeySet, TimeInterval?), FetchFailure>
            do {
                let (jwks, maxAge) = try fetcher.fetchJWKS(from: url)
                result = .success((JWTKeySet(jwks: jwks), maxAge))
            } catch {
                result = .failure(FetchFailure(reason: "fetching the JWKS failed: \(error)"))
            }
            let now = clock()
            let after = state.withLock { state -> State.Decision in
                state.finishFetch(result, now: now)
                if let keys = state.keys { return .use(keys, generation: state.generation) }
                return .unavailable(state.lastFailureReason)
            }
            ticket.done.leave()
            return try settle(after, fresh: true)
        }
    }

    /// Threads waiting for the fetch in flight (for tests).
    var waiterCount: Int { state.withLock { $0.waiters } }

    /// Fetches started so far (for tests and benchmarks).
    var fetchCount: Int { state.withLock { $0.fetches } }
}
