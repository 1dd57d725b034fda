import Dispatch
import Foundation
import Synchronization

/// Deletes, in the background, the sessions and refresh tokens nobody can use any more, expired limit
/// counters (`LimitCounter`) and expired dev IdP grants: sessions of deleted accounts or revoked by `validSince` are revoked when first seen;
/// revoked sessions are deleted after the retention, and with them their tokens; rotated tokens after
/// the reuse-detection period (see `StoreWriter.purgeSessions` and `purgeRefreshTokens`).
///
/// A pass walks every session, then every refresh token, in key order, `batchSize` per write
/// transaction with a short pause between transactions, so the store's writer is never held for long
/// and other writes go first; then the purger waits `interval` before the next pass. `hearth serve` starts it and stops it
/// before closing the store.
public final class SessionPurger: Sendable {
    /// When and how much the purger works.
    public struct Schedule: Sendable, Equatable {
        /// Seconds between the end of one pass and the start of the next.
        public var interval: Int64
        /// Sessions or refresh tokens looked at per write transaction.
        public var batchSize: Int
        /// Milliseconds between the transactions of one pass.
        public var pause: Int

        /// `interval` and `batchSize` must be at least 1.
        public init(interval: Int64 = 60, batchSize: Int = 500, pause: Int = 20) {
            self.interval = interval
            self.batchSize = batchSize
            self.pause = pause
        }
    }

    private let store: any HearthStore
    private let time: any TimeSource
    private let policy: SessionPolicy
    private let schedule: Schedule
    private let log: @Sendable (String) -> Void
    private let running = Atomic(false)
    private let stopping = Atomic(false)
    /// Signalled once by `stop()`, ending any wait of the background thread.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by the background thread when it has finished.
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameter log: receives one line per pass that deleted something, and per failed pass
    ///   (`event=purge …`); never a token.
    public init(
        store: any HearthStore, time: any TimeSource, policy: SessionPolicy, schedule: Schedule = Schedule(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.time = time
        self.policy = policy
        self.schedule = schedule
        self.log = log
    }

    /// Runs one whole pass now, without pauses. Returns how many refresh tokens it deleted.
    @discardableResult
    public func purgePass() throws -> Int {
        try pass(pausing: false)
    }

    /// Starts the background thread: a pass at once, then one every `interval`. Calling it again does nothing.
    public func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let thread = Thread { [self] in
            while true {
                do {
                    _ = try pass(pausing: true)
                } catch {
                    log("event=purge-failed error=\"\(error)\"")
                }
                // `stop()` sets `stopping` before it signals, and a pause may have taken the signal.
                if stopping.load(ordering: .acquiring) { break }
                if wake.wait(timeout: .now() + .seconds(Int(schedule.interval))) == .success { break }
            }
            finished.signal()
        }
        thread.name = "hearth-purge"
        thread.start()
    }

    /// Stops the background thread, waiting for the transaction in progress (if any) to end.
    public func stop() {
        guard running.load(ordering: .acquiring),
            !stopping.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        wake.signal()
        finished.wait()
    }

    /// One pass over every session, then every refresh token; returns how many tokens it deleted.
    /// Between transactions it waits `pause` (when `pausing`) and ends early if `stop()` was called.
    private func pass(pausing: Bool) throws -> Int {
        let now = time.nowMillis
        _ = try store.write { try $0.deleteExpiredDevGrants(before: now / 1000) }
        var counters = 0
        while true {
            let deleted = try store.write { try $0.deleteExpiredLimitCounters(before: now, limit: schedule.batchSize) }
            counters += deleted
            if deleted < schedule.batchSize { break }
            if pausing, wake.wait(timeout: .now() + .milliseconds(schedule.pause)) == .success { return 0 }
        }
        let rotatedBefore = now - policy.reuseDetectionMillis
        let revokedBefore = now - policy.revokedRetentionMillis
        let batch = schedule.batchSize
        guard
            let sessions = try sweep(pausing: pausing, { cursor, writer in
                try writer.purgeSessions(after: cursor, limit: batch, revokedBefore: revokedBefore, atMillis: now)
            }),
            let tokens = try sweep(pausing: pausing, { cursor, writer in
                try writer.purgeRefreshTokens(
                    after: cursor, limit: batch, rotatedBefore: rotatedBefore, revokedBefore: revokedBefore)
            })
        else { return 0 }
        if sessions > 0 || tokens > 0 || counters > 0 {
            log("event=purge sessions_deleted=\(sessions) refresh_tokens_deleted=\(tokens) limit_counters_deleted=\(counters)")
        }
        return tokens
    }

    /// Runs `step` in one write transaction after another until it reaches the end; returns how many it
    /// deleted, or nil if `stop()` was called during a pause.
    private func sweep(
        pausing: Bool, _ step: @escaping (String?, any StoreWriter) throws -> RefreshTokenPurgeStep
    ) throws -> Int? {
        var cursor: String?
        var deleted = 0
        repeat {
            let done = try store.write { writer in try step(cursor, writer) }
            deleted += done.deleted
            cursor = done.next
            if cursor != nil, pausing, wake.wait(timeout: .now() + .milliseconds(schedule.pause)) == .success {
                return nil
            }
        } while cursor != nil
        return deleted
    }
}
