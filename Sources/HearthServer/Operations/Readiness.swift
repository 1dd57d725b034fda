import Foundation
public import HearthCore
import HearthCrypto
import Synchronization

/// Whether this instance should get traffic (`GET /readyz`): the store answers a read and a write, the
/// session signing keys are loaded, and the server is not shutting down.
///
/// The write saves a heartbeat limit counter of this instance (`readiness:<random id>`, expiring after a
/// minute, purged by the maintenance task), so a store that accepts connections but no writes (a read-only
/// replica, a lock held elsewhere) is not ready. A check's answer is reused for a second, and while one
/// check runs other probes get the previous answer, so probes cannot pile up on a slow store.
public final class Readiness: Sendable {
    private let store: any HearthStore
    private let signingKeys: SigningKeyRing
    private let time: any TimeSource
    private let heartbeatKey = "readiness:" + SecureRandom.token(byteCount: 12)
    private let shuttingDown = Atomic<Bool>(false)
    private let state = Mutex(State())

    private struct State {
        var last: (checkedAtMillis: Int64, problem: String?)?
        var checking = false
    }

    public init(store: any HearthStore, signingKeys: SigningKeyRing, time: any TimeSource = SystemTimeSource()) {
        self.store = store
        self.signingKeys = signingKeys
        self.time = time
    }

    /// From now on the instance is not ready (called on SIGTERM, before in-flight requests drain).
    public func beginShutdown() {
        shuttingDown.store(true, ordering: .releasing)
    }

    /// nil when ready, else why not (a short sentence without secrets or request values).
    public func problem() -> String? {
        if shuttingDown.load(ordering: .acquiring) { return "shutting down" }
        let now = time.nowMillis
        let cached = state.withLock { state -> String?? in
            if let last = state.last, state.checking || now - last.checkedAtMillis < 1_000 { return .some(last.problem) }
            state.checking = true
            return .none
        }
        if let cached { return cached }
        let problem = check(now: now)
        state.withLock { $0 = State(last: (now, problem), checking: false) }
        return problem
    }

    private func check(now: Int64) -> String? {
        do {
            _ = try store.read { try $0.limitCounter(key: heartbeatKey) }
        } catch {
            return "store does not answer reads (\(Self.describe(error)))"
        }
        do {
            try store.write { writer in
                try writer.saveLimitCounter(LimitCounter(key: heartbeatKey, windowStartMillis: now, expiresAtMillis: now + 60_000))
            }
        } catch {
            return "store does not accept writes (\(Self.describe(error)))"
        }
        do {
            _ = try signingKeys.current()
        } catch {
            return "signing keys are not loaded (\(Self.describe(error)))"
        }
        return nil
    }

    /// A store error's code, else the error's type: never its values.
    private static func describe(_ error: any Error) -> String {
        (error as? StoreError).map { "\($0.code)" } ?? "\(type(of: error))"
    }
}
