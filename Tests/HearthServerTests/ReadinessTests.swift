import Dispatch
import Foundation
import HearthCore
import HearthServer
import Synchronization
import Testing

@Suite("Readiness")
struct ReadinessTests {
    /// A store whose writes can be made to fail or to wait until released.
    final class ControlledStore: HearthStore {
        let base = InMemoryStore()
        let failWrites = Atomic<Bool>(false)
        let holdWrites = Atomic<Bool>(false)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        var scope: StoreScope { base.scope }
        func scoped(to scope: StoreScope) -> any HearthStore { base.scoped(to: scope) }
        func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }

        func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
            if failWrites.load(ordering: .relaxed) { throw StoreError(.unavailable, "database is locked") }
            if holdWrites.load(ordering: .relaxed) {
                entered.signal()
                release.wait()
            }
            return try base.write(isolation, body)
        }

        func close() { base.close() }
    }

    private func readiness(_ store: ControlledStore, time: ManualTimeSource) throws -> Readiness {
        let keys = SigningKeyRing(store: store, time: time)
        try keys.loadOrCreate()
        return Readiness(store: store, signingKeys: keys, time: time)
    }

    @Test("ready with a working store and loaded keys; not ready, with the store's error code, when writes fail")
    func storeWrites() throws {
        let store = ControlledStore()
        let time = ManualTimeSource()
        let readiness = try readiness(store, time: time)
        #expect(readiness.problem() == nil)
        store.failWrites.store(true, ordering: .relaxed)
        #expect(readiness.problem() == nil, "an answer is reused for a second")
        time.advance(by: 1)
        #expect(readiness.problem() == "store does not accept writes (unavailable)")
        store.failWrites.store(false, ordering: .relaxed)
        time.advance(by: 1)
        #expect(readiness.problem() == nil)
    }

    @Test("the check writes a heartbeat of this instance that expires within a minute")
    func heartbeat() throws {
        let store = ControlledStore()
        let time = ManualTimeSource()
        #expect(try readiness(store, time: time).problem() == nil)
        let now = time.nowMillis
        #expect(try store.write { try $0.deleteExpiredLimitCounters(before: now + 60_000, limit: 10) } == 0)
        #expect(try store.write { try $0.deleteExpiredLimitCounters(before: now + 60_001, limit: 10) } == 1)
    }

    @Test("shutting down is answered at once, even within the second an answer is reused")
    func shutdown() throws {
        let readiness = try readiness(ControlledStore(), time: ManualTimeSource())
        #expect(readiness.problem() == nil)
        readiness.beginShutdown()
        #expect(readiness.problem() == "shutting down")
    }

    @Test("while one check waits on the store, other probes get the previous answer instead of piling up")
    func probesDoNotPileUp() throws {
        let store = ControlledStore()
        let time = ManualTimeSource()
        let readiness = try readiness(store, time: time)
        #expect(readiness.problem() == nil)
        time.advance(by: 2)
        store.holdWrites.store(true, ordering: .relaxed)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = readiness.problem()
            finished.signal()
        }
        #expect(store.entered.wait(timeout: .now() + 30) == .success)
        #expect(readiness.problem() == nil, "answered from the previous check while the store holds the first one")
        store.release.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)
    }
}
