import Dispatch
import Foundation
import Synchronization

/// The background work of `hearth serve`. Each pass, in this order:
/// 1. deletes anonymous accounts that were never upgraded and are older than `anonymousAccountLifetimeDays`
///    (their sessions are then revoked by step 5, their provider tokens queued for revocation);
/// 2. deletes expired pending MFA sign-ins and verification sessions (those still throttling SMS stay);
/// 3. deletes expired dev IdP grants;
/// 4. deletes expired limit counters (`LimitCounter`), expired email action codes (`OOBCodeRecord`), the recorded ids
///    of expired SAML assertions (`StoreWriter.insertSAMLAssertion`) and audit events
///    older than the audit log's retention (`AuditLog.retentionDays`), oldest first;
/// 5. walks every session: sessions of deleted accounts or revoked by `validSince` are revoked when first
///    seen, revoked sessions are deleted after the retention, and with them their tokens;
/// 6. walks every legacy refresh token, deleting those that can no longer tell anything (see
///    `StoreWriter.purgeSessions` and `purgeLegacyRefreshTokens`);
/// 7. revokes the provider tokens that are due (`ProviderTokenRevocation`) through the `ProviderTokenRevoking`
///    registered for their provider: revoked ones leave the queue, failed ones are tried again after the backoff;
/// 8. finishes the purge of tenants deleted before their records were (`TenantPurge`: a crash, or more records
///    than the deletion purges before it answers).
///
/// Steps that go through many rows work `batchSize` per write transaction with a short pause between
/// transactions, so the store's writer is never held for long and other writes go first; then the task waits
/// `interval` before the next pass. `wake()` runs step 7 at once (after a deletion queued revocations).
/// `hearth serve` starts it and stops it before closing the store.
public final class MaintenanceTask: Sendable {
    /// When and how much the task works.
    public struct Schedule: Sendable, Equatable {
        /// Seconds between the end of one pass and the start of the next.
        public var interval: Int64
        /// Rows looked at (or revocations tried) per write transaction.
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

    /// What one pass did.
    public struct Report: Sendable, Equatable {
        public var sessions = 0
        public var legacyRefreshTokens = 0
        public var limitCounters = 0
        public var anonymousAccounts = 0
        /// Expired pending MFA sign-ins and verification sessions.
        public var mfaState = 0
        public var devGrants = 0
        /// Provider tokens revoked (and so removed from the queue).
        public var revokedProviderTokens = 0
        /// Failed revocation attempts (kept for a later attempt, or dropped when the provider refused for good).
        public var failedRevocations = 0
        /// Expired email action codes.
        public var oobCodes = 0
        /// Audit events older than the retention.
        public var auditEvents = 0
        /// Recorded ids of expired SAML assertions.
        public var samlAssertions = 0
        /// Records (accounts, sessions, codes, counters) of deleted tenants.
        public var deletedTenantRecords = 0

        public init(
            sessions: Int = 0, legacyRefreshTokens: Int = 0, limitCounters: Int = 0, anonymousAccounts: Int = 0,
            mfaState: Int = 0, devGrants: Int = 0, revokedProviderTokens: Int = 0, failedRevocations: Int = 0,
            oobCodes: Int = 0, auditEvents: Int = 0, deletedTenantRecords: Int = 0, samlAssertions: Int = 0
        ) {
            self.samlAssertions = samlAssertions
            self.sessions = sessions
            self.legacyRefreshTokens = legacyRefreshTokens
            self.limitCounters = limitCounters
            self.anonymousAccounts = anonymousAccounts
            self.mfaState = mfaState
            self.devGrants = devGrants
            self.revokedProviderTokens = revokedProviderTokens
            self.failedRevocations = failedRevocations
            self.oobCodes = oobCodes
            self.auditEvents = auditEvents
            self.deletedTenantRecords = deletedTenantRecords
        }
    }

    let store: any HearthStore
    let time: any TimeSource
    private let policy: SessionPolicy
    let schedule: Schedule
    private let anonymousAccountLifetimeDays: Int
    private let auditRetentionDays: Int
    let revokers: [String: any ProviderTokenRevoking]
    let log: @Sendable (String) -> Void
    private let running = Atomic(false)
    private let stopping = Atomic(false)
    /// Set by `wake()`; the background thread then runs the revocations.
    private let revocationsRequested = Atomic(false)
    /// Signalled by `stop()` and `wake()`, ending any wait of the background thread.
    private let signal = DispatchSemaphore(value: 0)
    /// Signalled by the background thread when it has finished.
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - anonymousAccountLifetimeDays: anonymous accounts created this many days ago or more are deleted; 0
    ///     keeps them forever.
    ///   - audit: how long audit events are kept (whether new ones are written does not matter here).
    ///   - revokers: who revokes the tokens of each provider ID (`apple.com`); a revocation for a provider
    ///     without one stays queued, counted as a failed attempt.
    ///   - log: receives one line per pass that did something, per failed pass (`event=maintenance …`) and per
    ///     failed revocation; never a token.
    public init(
        store: any HearthStore, time: any TimeSource, policy: SessionPolicy, schedule: Schedule = Schedule(),
        anonymousAccountLifetimeDays: Int = 30, audit: AuditLog = AuditLog(),
        revokers: [String: any ProviderTokenRevoking] = [:], log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.time = time
        self.policy = policy
        self.schedule = schedule
        self.anonymousAccountLifetimeDays = max(0, anonymousAccountLifetimeDays)
        self.auditRetentionDays = max(0, audit.retentionDays)
        self.revokers = revokers
        self.log = log
    }

    /// Runs one whole pass now, without pauses. Returns what it did.
    @discardableResult
    public func runPass() throws -> Report {
        try pass(pausing: false) ?? Report()
    }

    /// Starts the background thread: a pass at once, then one every `interval`, and the revocations whenever
    /// `wake()` asks. Calling it again does nothing.
    public func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let thread = Thread { [self] in
            var nextPass = DispatchTime.now()
            while !stopping.load(ordering: .acquiring) {
                if DispatchTime.now() >= nextPass {
                    revocationsRequested.store(false, ordering: .releasing)
                    logFailure { _ = try pass(pausing: true) }
                    nextPass = .now() + .seconds(Int(schedule.interval))
                } else if revocationsRequested.exchange(false, ordering: .acquiringAndReleasing) {
                    logFailure { _ = try revokeDueTokens(atMillis: time.nowMillis, pausing: true) }
                }
                // `stop()` and `wake()` set their flag before they signal, and a pause may have taken the signal.
                if stopping.load(ordering: .acquiring) || revocationsRequested.load(ordering: .acquiring) { continue }
                _ = signal.wait(timeout: nextPass)
            }
            finished.signal()
        }
        thread.name = "hearth-maintenance"
        thread.start()
    }

    /// Asks the background thread to revoke the provider tokens that are due now rather than at the next pass
    /// (call it after a deletion queued revocations). Returns at once; does nothing before `start()`.
    public func wake() {
        revocationsRequested.store(true, ordering: .releasing)
        signal.signal()
    }

    /// Stops the background thread, waiting for the transaction (or revocation call) in progress to end.
    public func stop() {
        guard running.load(ordering: .acquiring),
            !stopping.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        signal.signal()
        finished.wait()
    }

    private func logFailure(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            log("event=maintenance-failed error=\"\(error)\"")
        }
    }

    /// Waits `pause` (when `pausing`) between two transactions; returns whether `stop()` was called.
    func pause(_ pausing: Bool) -> Bool {
        guard pausing else { return stopping.load(ordering: .acquiring) }
        _ = signal.wait(timeout: .now() + .milliseconds(schedule.pause))
        return stopping.load(ordering: .acquiring)
    }

    /// One pass (see the type's steps); returns what it did, or nil if `stop()` was called during it.
    private func pass(pausing: Bool) throws -> Report? {
        let now = time.nowMillis
        var report = Report()
        guard let anonymous = try deleteStaleAnonymousAccounts(atMillis: now, pausing: pausing) else { return nil }
        report.anonymousAccounts = anonymous
        report.mfaState = try store.write {
            try $0.deleteExpiredMFAState(before: now / 1000, keepSinceMillis: now - MFAService.smsThrottleWindowMillis)
        }
        report.devGrants = try store.write { try $0.deleteExpiredDevGrants(before: now / 1000) }
        guard
            let limitCounters = try purgeInBatches(pausing: pausing, {
                try $0.deleteExpiredLimitCounters(before: now, limit: $1)
            }),
            let oobCodes = try purgeInBatches(pausing: pausing, { try $0.deleteExpiredOOBCodes(before: now, limit: $1) }),
            let samlAssertions = try purgeInBatches(pausing: pausing, {
                try $0.deleteExpiredSAMLAssertions(before: now, limit: $1)
            }),
            let auditEvents = try purgeInBatches(pausing: pausing, {
                try $0.deleteAuditEvents(before: Self.daysBefore(now, auditRetentionDays), limit: $1)
            })
        else { return nil }
        report.limitCounters = limitCounters
        report.oobCodes = oobCodes
        report.samlAssertions = samlAssertions
        report.auditEvents = auditEvents
        let rotatedBefore = now - policy.reuseDetectionMillis
        let revokedBefore = now - policy.revokedRetentionMillis
        let batch = schedule.batchSize
        guard
            let sessions = try sweep(store, pausing: pausing, { cursor, writer in
                try writer.purgeSessions(after: cursor, limit: batch, revokedBefore: revokedBefore, atMillis: now)
            }),
            let legacyTokens = try sweep(store, pausing: pausing, { cursor, writer in
                try writer.purgeLegacyRefreshTokens(
                    after: cursor, limit: batch, rotatedBefore: rotatedBefore, revokedBefore: revokedBefore)
            }),
            let revocations = try revokeDueTokens(atMillis: now, pausing: pausing),
            let deletedTenantRecords = try purgeDeletedTenants(pausing: pausing)
        else { return nil }
        report.deletedTenantRecords = deletedTenantRecords
        report.sessions = sessions
        report.legacyRefreshTokens = legacyTokens
        report.revokedProviderTokens = revocations.revoked
        report.failedRevocations = revocations.failed
        if report != Report() {
            log(
                "event=maintenance sessions_deleted=\(report.sessions) legacy_refresh_tokens_deleted=\(report.legacyRefreshTokens)"
                    + " limit_counters_deleted=\(report.limitCounters) anonymous_accounts_deleted=\(report.anonymousAccounts)"
                    + " mfa_state_deleted=\(report.mfaState) dev_grants_deleted=\(report.devGrants)"
                    + " provider_tokens_revoked=\(report.revokedProviderTokens)"
                    + " provider_token_revocations_failed=\(report.failedRevocations)"
                    + " oob_codes_deleted=\(report.oobCodes) saml_assertions_deleted=\(report.samlAssertions)"
                    + " audit_events_deleted=\(report.auditEvents)"
                    + " tenant_records_purged=\(report.deletedTenantRecords)")
        }
        return report
    }

    /// Deletes, a page per write transaction, the anonymous accounts created before the lifetime, in every scope
    /// (`StoreReader.scopes()`); returns how many, or nil if `stop()` was called during a pause. Each page is found and
    /// deleted in one transaction, so an account upgraded meanwhile is never deleted.
    private func deleteStaleAnonymousAccounts(atMillis now: Int64, pausing: Bool) throws -> Int? {
        guard anonymousAccountLifetimeDays > 0 else { return 0 }
        let createdBefore = Self.daysBefore(now, anonymousAccountLifetimeDays)
        let batch = schedule.batchSize
        var total = 0
        for scope in try store.read({ try $0.scopes() }) {
            let scoped = scope == store.scope ? store : store.scoped(to: scope)
            let deleted = try sweep(scoped, pausing: pausing) { cursor, writer in
                let page = try writer.anonymousAccountIDs(createdBefore: createdBefore, after: cursor, limit: batch)
                var deleted = 0
                for localID in page where try writer.deleteAccount(localID: localID, queueingRevocationsAtMillis: now) {
                    deleted += 1
                }
                return RefreshTokenPurgeStep(deleted: deleted, next: page.count == batch ? page.last : nil)
            }
            guard let deleted else { return nil }
            total += deleted
        }
        return total
    }

    /// Purges the scopes of deleted tenants (step 8); returns how many records it deleted, or nil if `stop()` was
    /// called during a pause.
    private func purgeDeletedTenants(pausing: Bool) throws -> Int? {
        let purge = TenantPurge(store: store, time: time, batchSize: schedule.batchSize)
        var total = 0
        for scope in try purge.orphanedScopes() {
            let (deleted, finished) = try purge.purge(scope) { pause(pausing) }
            total += deleted
            if !finished { return nil }
        }
        return total
    }

    /// The time `days` days before `millis` (`Int64.min` when that is before any time).
    private static func daysBefore(_ millis: Int64, _ days: Int) -> Int64 {
        let (span, overflow) = Int64(days).multipliedReportingOverflow(by: 86_400_000)
        let (time, underflow) = millis.subtractingReportingOverflow(span)
        return overflow || underflow ? .min : time
    }

    /// Runs `purge` (given the batch size) in one write transaction after another until one deletes less than a
    /// batch; returns how many it deleted, or nil if `stop()` was called during a pause.
    private func purgeInBatches(pausing: Bool, _ purge: (any StoreWriter, Int) throws -> Int) throws -> Int? {
        var total = 0
        while true {
            let deleted = try store.write { try purge($0, schedule.batchSize) }
            total += deleted
            if deleted < schedule.batchSize { return total }
            if pause(pausing) { return nil }
        }
    }

    /// Runs `step` in one write transaction of `target` after another until it reaches the end; returns how many it
    /// deleted, or nil if `stop()` was called during a pause.
    private func sweep(
        _ target: any HearthStore, pausing: Bool, _ step: @escaping (String?, any StoreWriter) throws -> RefreshTokenPurgeStep
    ) throws -> Int? {
        var cursor: String?
        var deleted = 0
        repeat {
            let done = try target.write { writer in try step(cursor, writer) }
            deleted += done.deleted
            cursor = done.next
            if cursor != nil, pause(pausing) { return nil }
        } while cursor != nil
        return deleted
    }
}
