import Dispatch
import Foundation
import HearthProtocol
import Synchronization
import Testing

/// A key server the tests script: which keys it answers with (or that it fails), and how many fetches it saw.
final class ScriptedKeyServer: Sendable {
    struct Down: Error, CustomStringConvertible {
        var description: String { "the key server is down (scripted)" }
    }

    private let state = Mutex<(keys: Set<String>, lifetime: TimeInterval?, failing: Bool, fetches: Int)>((["k1"], nil, false, 0))
    private let hook = Mutex<(@Sendable (Int) -> Void)?>(nil)

    var fetches: Int { state.withLock { $0.fetches } }
    func serve(_ keys: Set<String>, lifetime: TimeInterval? = nil) { state.withLock { $0 = (keys, lifetime, false, $0.fetches) } }
    func fail() { state.withLock { $0.failing = true } }
    /// Runs inside every fetch with its number (from 1).
    func onFetch(_ body: @escaping @Sendable (Int) -> Void) { hook.withLock { $0 = body } }

    func fetch() throws -> KeySetCache<Set<String>>.Fetched {
        let (number, keys, lifetime, failing) = state.withLock { state in
            state.fetches += 1
            return (state.fetches, state.keys, state.lifetime, state.failing)
        }
        hook.withLock { $0 }?(number)
        if failing { throw Down() }
        return (keys, lifetime)
    }

    func fetchAsync() async throws -> KeySetCache<Set<String>>.Fetched {
        await Task.yield()
        return try fetch()
    }
}

final class TestTime: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    var clock: @Sendable () -> Date { { self.now } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

@Suite("KeySetCache")
struct KeySetCacheTests {
    let time = TestTime()
    let server = ScriptedKeyServer()

    func cache(_ policy: KeySetCachePolicy = KeySetCachePolicy()) -> KeySetCache<Set<String>> {
        KeySetCache(policy: policy, clock: time.clock)
    }

    /// A cache that fetched `k1` once, over a server that now fails.
    func cacheWhoseServerFails() throws -> KeySetCache<Set<String>> {
        let cache = cache()
        _ = try cache.keys(fetch: server.fetch)
        server.fail()
        return cache
    }

    @Test("keys live for the response's lifetime, clamped; nil uses the default")
    func lifetimes() throws {
        for (lifetime, expected) in [(nil, 300.0), (0, 30), (120, 120), (1e9, 86_400)] as [(TimeInterval?, TimeInterval)] {
            let server = ScriptedKeyServer()
            server.serve(["k1"], lifetime: lifetime)
            let cache = KeySetCache<Set<String>>(clock: time.clock)
            #expect(try cache.keys(fetch: server.fetch).justFetched)
            time.advance(expected - 1)
            #expect(try cache.keys(fetch: server.fetch).justFetched == false)
            #expect(server.fetches == 1)
            time.advance(1)
            _ = try cache.keys(fetch: server.fetch)
            #expect(server.fetches == 2, "\(String(describing: lifetime))")
        }
    }

    @Test("without keys, a failure is remembered (negative cache) and retried after a doubling pause")
    func negativeCache() throws {
        let cache = cache()
        server.fail()
        for _ in 0..<10 {
            #expect(throws: KeySetUnavailable.self) { try cache.keys(fetch: server.fetch) }
            #expect(throws: KeySetUnavailable.self) { try cache.keysAfterUnknownKeyID(fetch: server.fetch) }
        }
        #expect(server.fetches == 1)
        do {
            _ = try cache.keys(fetch: server.fetch)
        } catch {
            #expect(error.reason == "the key server is down (scripted)")
        }
        time.advance(5)
        #expect(throws: KeySetUnavailable.self) { try cache.keys(fetch: server.fetch) }
        #expect(server.fetches == 2)
        time.advance(5)
        #expect(throws: KeySetUnavailable.self) { try cache.keys(fetch: server.fetch) }
        #expect(server.fetches == 2)
        server.serve(["k1"])
        time.advance(5)
        #expect(try cache.keys(fetch: server.fetch).keys == ["k1"])
        #expect(server.fetches == 3)
    }

    @Test("while fetching fails, the last good keys are served and nothing is fetched during the pause")
    func staleWhileFailing() throws {
        let cache = try cacheWhoseServerFails()
        time.advance(300)
        #expect(try cache.keys(fetch: server.fetch).keys == ["k1"])
        for _ in 0..<100 {
            #expect(try cache.keys(fetch: server.fetch).keys == ["k1"])
            #expect(try cache.keysAfterUnknownKeyID(fetch: server.fetch) == ["k1"])
        }
        #expect(server.fetches == 2)
    }

    @Test("an unknown key ID fetches at most once per interval; the rest get the current keys")
    func unknownKeyInterval() throws {
        let cache = cache()
        _ = try cache.keys(fetch: server.fetch)
        server.serve(["k1", "k2"])
        #expect(try cache.keysAfterUnknownKeyID(fetch: server.fetch) == ["k1", "k2"])
        server.serve(["k1", "k2", "k3"])
        for _ in 0..<100 { #expect(try cache.keysAfterUnknownKeyID(fetch: server.fetch) == ["k1", "k2"]) }
        #expect(server.fetches == 2)
        time.advance(30)
        #expect(try cache.keysAfterUnknownKeyID(fetch: server.fetch) == ["k1", "k2", "k3"])
        #expect(server.fetches == 3)
    }

    @Test("lookups without waiting never fetch: nil when they would have to")
    func withoutWaiting() throws {
        let cache = cache()
        #expect(try cache.keysWithoutWaiting() == nil)
        #expect(try cache.keysAfterUnknownKeyIDWithoutWaiting() == nil)
        #expect(server.fetches == 0)
        _ = try cache.keys(fetch: server.fetch)
        #expect(try cache.keysWithoutWaiting()?.keys == ["k1"])
        #expect(try cache.keysAfterUnknownKeyIDWithoutWaiting() == nil)
        time.advance(300)
        #expect(try cache.keysWithoutWaiting() == nil)
        #expect(server.fetches == 1)
    }

    @Test("500 concurrent unknown-key lookups while the server fails share one fetch (threads)")
    func stormWhileFailing() throws {
        let cache = try cacheWhoseServerFails()
        let threads = 50
        server.onFetch { number in
            guard number == 2 else { return }
            for _ in 0..<3_000 where cache.waiterCount < threads - 1 { usleep(5_000) }
        }
        let answers = Mutex<[Set<String>]>([])
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                for _ in 0..<10 {
                    let keys = try? cache.keysAfterUnknownKeyID(fetch: server.fetch)
                    answers.withLock { $0.append(keys ?? []) }
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(answers.withLock { $0 } == Array(repeating: ["k1"], count: 500))
        #expect(server.fetches == 2)
        #expect(cache.waiterCount == 0)
    }

    @Test("concurrent async lookups on a cold cache share one fetch and suspend instead of blocking")
    func asyncSingleFlight() async throws {
        let cache = cache()
        let tasks = 20
        server.onFetch { number in
            guard number == 1 else { return }
            for _ in 0..<3_000 where cache.waiterCount < tasks - 1 { usleep(5_000) }
        }
        let results = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for _ in 0..<tasks {
                group.addTask { try await cache.keys(fetch: server.fetchAsync).keys }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: ["k1"], count: tasks))
        #expect(server.fetches == 1)
        #expect(cache.waiterCount == 0)
    }

    @Test("async unknown-key lookups after a failure get the stale keys without fetching")
    func asyncUnknownKeyWhileFailing() async throws {
        let cache = cache()
        _ = try await cache.keys(fetch: server.fetchAsync)
        server.fail()
        #expect(try await cache.keysAfterUnknownKeyID(fetch: server.fetchAsync) == ["k1"])
        for _ in 0..<20 { #expect(try await cache.keysAfterUnknownKeyID(fetch: server.fetchAsync) == ["k1"]) }
        #expect(server.fetches == 2)
    }
}
