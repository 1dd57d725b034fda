import Foundation
@testable import HearthVerify
import HearthCrypto
import HearthProtocol
import JOSE
import OutboundTesting
import Synchronization
import Testing

@Suite("IDTokenVerifier: JWKS cache")
struct KeyCacheTests {
    let clock = ManualClock()

    func code(_ verifier: IDTokenVerifier, _ token: String) -> VerificationError.Code? {
        do {
            _ = try verifier.verify(token)
            return nil
        } catch {
            return error.code
        }
    }

    /// A token signed by `key` with `kid`, valid at the clock's current time.
    func token(_ key: RSAPrivateKeyFixture = .a, kid: String = "key-a") -> String {
        Fixtures.token(claims: Fixtures.claims(now: clock.now), kid: kid, key: key.key)
    }

    @Test("keys are fetched once and reused while fresh")
    func fetchOnce() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        for _ in 0..<20 { _ = try verifier.verify(token()) }
        clock.advance(by: 299)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 1)
        // Copies share the cache.
        let copy = verifier
        _ = try copy.verify(token())
        #expect(fetcher.count == 1)
    }

    @Test("an unknown kid causes one refetch, then unknownKeyID; no more refetches until the interval passes")
    func unknownKeyID() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 1)

        let stranger = token(.b, kid: "key-b")
        #expect(code(verifier, stranger) == .unknownKeyID)
        #expect(fetcher.count == 2)
        #expect(code(verifier, stranger) == .unknownKeyID)
        #expect(fetcher.count == 2)

        clock.advance(by: IDTokenVerifier.unknownKeyRefetchInterval - 1)
        #expect(code(verifier, token(.b, kid: "key-b")) == .unknownKeyID)
        #expect(fetcher.count == 2)
        clock.advance(by: 1)
        #expect(code(verifier, token(.b, kid: "key-b")) == .unknownKeyID)
        #expect(fetcher.count == 3)
    }

    @Test("a key that appears in the JWKS after rotation is found by the refetch")
    func rotation() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        let old = token()
        _ = try verifier.verify(old)

        fetcher.serve(Fixtures.jwks([(Fixtures.keyB, "key-b"), (Fixtures.keyA, "key-a")]))
        clock.advance(by: 5)
        let rotated = token(.b, kid: "key-b")
        #expect(try verifier.verify(rotated).uid == "uid-123")
        #expect(try verifier.verify(old).uid == "uid-123")
        #expect(fetcher.count == 2)
    }

    @Test("many tokens with unknown kids cause a bounded number of fetches")
    func refetchRateLimit() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        for index in 0..<200 {
            #expect(code(verifier, token(.b, kid: "attacker-\(index)")) == .unknownKeyID)
            if index % 20 == 0 { clock.advance(by: 1) }  // 10 s in all: still inside one interval
        }
        #expect(fetcher.count == 2)
        // Genuine tokens are unaffected.
        _ = try verifier.verify(token())
        #expect(fetcher.count == 2)
    }

    @Test("keys expire after the response's max-age and are replaced, removed keys included")
    func maxAgeExpiry() throws {
        let fetcher = FakeOutboundHTTP.jwks(maxAge: 100)
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        clock.advance(by: 99)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 1)

        // key-a is withdrawn; once the cached set expires, its tokens stop verifying.
        fetcher.serve(Fixtures.jwks([(Fixtures.keyB, "key-b")]), maxAge: 100)
        clock.advance(by: 1)
        #expect(code(verifier, token()) == .unknownKeyID)
        #expect(fetcher.count == 2)
        #expect(try verifier.verify(token(.b, kid: "key-b")).uid == "uid-123")
        #expect(fetcher.count == 2)
    }

    @Test(
        "the cache lifetime is max-age, 300 s without one, and clamped to 30 s…1 day",
        arguments: [(nil, 300.0), (100, 100), (0, 30), (5, 30), (10_000_000, 86_400)] as [(TimeInterval?, TimeInterval)])
    func lifetime(maxAge: TimeInterval?, expected: TimeInterval) throws {
        let fetcher = FakeOutboundHTTP.jwks(maxAge: maxAge)
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        clock.advance(by: expected - 1)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 1)
        clock.advance(by: 1)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 2)
    }

    @Test("when a refetch fails, the stale keys keep working and retries are spaced out")
    func staleKeysOnFailure() throws {
        let fetcher = FakeOutboundHTTP.jwks(maxAge: 300)
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        fetcher.set(.unreachable)
        clock.advance(by: 301)
        #expect(try verifier.verify(token()).uid == "uid-123")
        #expect(fetcher.count == 2)
        for _ in 0..<10 { _ = try verifier.verify(token()) }
        #expect(fetcher.count == 2)
        // An unknown kid does not get around the back-off either.
        #expect(code(verifier, token(.b, kid: "key-b")) == .unknownKeyID)
        #expect(fetcher.count == 2)

        clock.advance(by: IDTokenVerifier.failedFetchRetryInterval)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 3)

        // The second failure doubles the pause.
        fetcher.serve(Fixtures.jwks([(Fixtures.keyA, "key-a")]), maxAge: 300)
        clock.advance(by: 2 * IDTokenVerifier.failedFetchRetryInterval - 1)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 3)
        clock.advance(by: 1)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 4)
        clock.advance(by: 200)
        _ = try verifier.verify(token())
        #expect(fetcher.count == 4)
    }

    @Test("while fetching keeps failing, the pause doubles up to the maximum, and a success resets it")
    func backoffDoublesAndResets() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        fetcher.set(.unreachable)
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        var pause = IDTokenVerifier.failedFetchRetryInterval
        for fetches in 1...8 {
            #expect(code(verifier, token()) == .keysUnavailable)
            #expect(fetcher.count == fetches)
            clock.advance(by: pause - 1)
            #expect(code(verifier, token()) == .keysUnavailable)
            #expect(fetcher.count == fetches)
            clock.advance(by: 1)
            pause = min(2 * pause, IDTokenVerifier.maximumFailedFetchRetryInterval)
        }
        #expect(pause == IDTokenVerifier.maximumFailedFetchRetryInterval)
        fetcher.serve()
        #expect(try verifier.verify(token()).uid == "uid-123")
        fetcher.set(.unreachable)
        clock.advance(by: 300)
        _ = try verifier.verify(token())
        let failedOnce = fetcher.count
        clock.advance(by: IDTokenVerifier.failedFetchRetryInterval)
        _ = try verifier.verify(token())
        #expect(fetcher.count == failedOnce + 1)
    }

    @Test("500 concurrent verifications with unknown kids while the JWKS endpoint fails make one fetch")
    func unknownKeyIDStormWhileFailing() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        fetcher.set(.unreachable)
        let threads = 50
        // Hold the failing fetch until every other thread waits for it (bounded, so a bug cannot hang).
        fetcher.onSend { number in
            guard number == 2 else { return }
            for _ in 0..<2_000 where verifier.cache.waiterCount < threads - 1 { usleep(5_000) }
        }
        let attackers = (0..<500).map { token(.b, kid: "attacker-\($0)") }
        let codes = Mutex<[VerificationError.Code?]>([])
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                for index in stride(from: thread, to: attackers.count, by: threads) {
                    let outcome = code(verifier, attackers[index])
                    codes.withLock { $0.append(outcome) }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(codes.withLock { $0 } == Array(repeating: .unknownKeyID, count: 500))
        #expect(fetcher.count == 2)
        // The last good keys still verify genuine tokens.
        #expect(try verifier.verify(token()).uid == "uid-123")
    }

    @Test("with no keys at all, a failed fetch is keysUnavailable until a retry succeeds")
    func keysUnavailable() throws {
        let fetcher = FakeOutboundHTTP.jwks()
        fetcher.set(.unreachable)
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        #expect(code(verifier, token()) == .keysUnavailable)
        #expect(code(verifier, token()) == .keysUnavailable)
        #expect(fetcher.count == 1)
        do {
            _ = try verifier.verify(token())
        } catch {
            #expect(error.httpStatus == 503)
            #expect(error.reason.contains("fetching the JWKS from 127.0.0.1 failed: URLError -1001"))
        }

        fetcher.serve()
        clock.advance(by: IDTokenVerifier.failedFetchRetryInterval)
        #expect(try verifier.verify(token()).uid == "uid-123")
        #expect(fetcher.count == 2)
    }

    @Test("concurrent verifies on a cold cache share one fetch")
    func concurrentVerifiesShareOneFetch() throws {
        let threads = 8
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        let sawAllWaiters = Mutex(false)
        // Hold the first fetch until every other thread is blocked waiting for it (bounded, so a bug cannot hang).
        fetcher.onSend { number in
            guard number == 1 else { return }
            for _ in 0..<2_000 {
                if verifier.cache.waiterCount == threads - 1 {
                    sawAllWaiters.withLock { $0 = true }
                    return
                }
                usleep(5_000)
            }
        }
        let token = token()
        let results = Mutex<[VerificationError.Code?]>([])
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                let outcome = code(verifier, token)
                results.withLock { $0.append(outcome) }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        #expect(sawAllWaiters.withLock { $0 })
        #expect(fetcher.count == 1)
        #expect(results.withLock { $0 } == Array(repeating: nil, count: threads))
        #expect(verifier.cache.waiterCount == 0)
    }

    @Test("concurrent async verifies on a cold cache share one fetch")
    func concurrentAsyncVerifies() async throws {
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        fetcher.onSend { number in
            guard number == 1 else { return }
            for _ in 0..<400 where verifier.cache.waiterCount == 0 { usleep(5_000) }
        }
        let token = token()
        let uids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try await verifier.verify(token).uid }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(uids == Array(repeating: "uid-123", count: 8))
        #expect(fetcher.count == 1)
    }

    @Test("concurrent tokens with a new kid share one refetch")
    func concurrentRotation() throws {
        let threads = 6
        let fetcher = FakeOutboundHTTP.jwks()
        let verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
        _ = try verifier.verify(token())
        fetcher.serve(Fixtures.jwks([(Fixtures.keyA, "key-a"), (Fixtures.keyB, "key-b")]))
        fetcher.onSend { number in
            guard number == 2 else { return }
            for _ in 0..<2_000 where verifier.cache.waiterCount < threads - 1 { usleep(5_000) }
        }
        let rotated = token(.b, kid: "key-b")
        let failures = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                if code(verifier, rotated) != nil { failures.withLock { $0 += 1 } }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(fetcher.count == 2)
    }
}

/// The test keys by name (a `Sendable` stand-in for passing keys into helpers).
enum RSAPrivateKeyFixture {
    case a, b

    var key: RSAPrivateKey {
        switch self {
        case .a: Fixtures.keyA
        case .b: Fixtures.keyB
        }
    }
}
