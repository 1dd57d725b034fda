import Dispatch
import Foundation
import Synchronization

/// Deletes, in the background, the sessions nobody can use any more, legacy refresh tokens that can no
/// longer tell anything, expired limit counters (`LimitCounter`) and expired dev IdP grants: sessions of
/// deleted accounts or revoked by `validSince` are revoked when first seen; revoked sessions are deleted
/// after the retention, and with them their tokens; legacy tokens rotated before the upgrade after the
/// reuse-detection period (see `StoreWriter.purgeSessions` and `purgeLegacyRefreshTokens`).
///
/// A pass walks every session, then every legacy refresh token, in key order, `batchSize` per write
/// transaction with a short pause between transactions, so the store's writer is never held for long
/// and other writes go first; then the purger waits `interval` before the next pass. `hearth serve` starts it and stops it
/// before closing the store.
public final class SessionPurger: Sendable {
    /// When and how much the purger works.
    public struct Schedule: Sendable, Equatable {
        /// Seconds between the end of one pass and the start of the next.
        public var interval: Int64
        /// Sessions or legacy refresh tokens looked at per write transaction.
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

    /// What one pass deleted.
    public struct Report: Sendable, Equatable {
        public var sessions = 0
        public var legacyRefreshTokens = 0
        public var limitCounters = 0

        public init(sessions: Int = 0, legacyRefreshTokens: Int = 0, limitCounters: Int = 0) {
            self.sessions = sessions
            self.legacyRefreshTokens = legacyRefreshTokens
            self.limitCounters = limitCounters
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

    /// Runs one whole pass now, without pauses. Returns what it deleted.
    @discardableResult
    public func purgePass() throws -> Report {
        try pass(pausing: false) ?? Report()
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

    /// One pass over every session, then every legacy refresh token; returns what it deleted, or nil if
    /// `stop()` was called during it. Between transactions it waits `pause` (when `pausing`).
    private func pass(pausing: Bool) throws -> Report? {
        let now = time.nowMillis
        _ = try store.write { try $0.deleteExpiredDevGrants(before: now / 1000) }
        var report = Report()
        while true {
            let deleted = try store.write { try $0.deleteExpiredLimitCounters(before: now, limit: schedule.batchSize) }
            report.limitCounters += deleted
            if deleted < schedule.batchSize { break }
            if pausing, wake.wait(timeout: .now() + .milliseconds(schedule.pause)) == .success { return nil }
        }
        let rotatedBefore = now - policy.reuseDetectionMillis
        let revokedBefore = now - policy.revokedRetentionMillis
        let batch = schedule.batchSize
        guard
            let sessions = try sweep(pausing: pausing, { cursor, writer in
                try writer.purgeSessions(after: cursor, limit: batch, revokedBefore: revokedBefore, atMillis: now)
            }),
            let legacyTokens = try sweep(pausing: pausing, { cursor, writer in
                try writer.purgeLegacyRefreshTokens(
                    after: cursor, limit: batch, rotatedBefore: rotatedBefore, revokedBefore: revokedBefore)
            })
        else { return nil }
        report.sessions = sessions
        report.legacyRefreshTokens = legacyTokens
        if report != Report() {
            log(
                "event=purge sessions_deleted=\(report.sessions) legacy_refresh_tokens_deleted=\(report.legacyRefreshTokens)"
                    + " limit_counters_deleted=\(report.limitCounters)")
        }
        return report
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
