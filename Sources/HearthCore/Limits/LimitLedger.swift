/// Reads and changes ``LimitCounter``s inside one write body, and collects the ``SecurityEvent``s to
/// report once that body's transaction has committed. A lockout is also recorded in the audit log, in that
/// transaction.
struct LimitLedger {
    let writer: any StoreWriter
    let nowMillis: Int64
    /// Records lockouts; nil records none.
    let audit: AuditRecorder?
    /// Whose request the ledger counts for: its address is recorded with lockouts (the system's doing).
    let caller: Caller
    private(set) var events: [SecurityEvent] = []

    init(writer: any StoreWriter, nowMillis: Int64, audit: AuditRecorder?, caller: Caller) {
        self.writer = writer
        self.nowMillis = nowMillis
        self.audit = audit
        self.caller = caller
    }

    /// Until when `key` is locked under `policy`, or nil when it is open.
    func lockedUntil(_ key: String, _ policy: FailureLockout) throws -> Int64? {
        policy.lockedUntil(try writer.limitCounter(key: key), nowMillis: nowMillis)
    }

    /// Counts one wrong attempt under `key`; reports (and records) a lockout when it starts one.
    /// - Parameter localID: the account the key is about, if any (a second factor's).
    mutating func recordFailure(_ key: String, _ policy: FailureLockout, localID: String? = nil) throws {
        let (counter, lockedNow) = policy.recordFailure(try writer.limitCounter(key: key), key: key, nowMillis: nowMillis)
        try writer.saveLimitCounter(counter)
        guard lockedNow else { return }
        events.append(.lockout(key: key, untilMillis: counter.lockedUntilMillis))
        // Lockout keys name no email: an email's counter is keyed by its hash (`LimitKeys.passwordFailures`).
        try audit?.record(
            .lockout, localID: localID, by: caller.triggeringSystem,
            detail: "key=\(key) until_ms=\(counter.lockedUntilMillis)", in: writer)
    }

    /// Forgets the failures under `key` (after a success).
    func reset(_ key: String) throws {
        try writer.deleteLimitCounter(key: key)
    }

    /// Charges one event to every quota, or to none: false (nothing saved, the exhausted quota
    /// reported) when any of them is used up.
    mutating func charge(_ quotas: [(key: String, quota: WindowQuota)]) throws -> Bool {
        var charged: [LimitCounter] = []
        for (key, quota) in quotas {
            guard let counter = quota.charge(try writer.limitCounter(key: key), key: key, nowMillis: nowMillis) else {
                events.append(.quotaExhausted(key: key))
                return false
            }
            charged.append(counter)
        }
        for counter in charged { try writer.saveLimitCounter(counter) }
        return true
    }
}

/// The keys of the counters Hearth keeps (see ``LimitCounter``).
enum LimitKeys {
    /// Wrong codes for one second factor of one account, across pending credentials.
    static func factorFailures(localID: String, enrollmentID: String) -> String {
        "mfa-failure:factor:\(localID):\(enrollmentID)"
    }
    /// Wrong codes from one client address, across accounts.
    static func clientFailures(_ client: String) -> String { "mfa-failure:client:\(client)" }
    static func smsFromAccount(_ localID: String) -> String { "sms:account:\(localID)" }
    static func smsFromClient(_ client: String) -> String { "sms:client:\(client)" }
    static let smsForProject = "sms:project"
    /// Emails asked for one address, and by one client address (email actions).
    static func emailsToAddress(_ email: String) -> String { "email:address:\(email)" }
    static func emailsFromClient(_ client: String) -> String { "email:client:\(client)" }
    /// Changes of email asked for one account, and by one client address (``EmailChangeLimits``).
    static func emailChangesOfAccount(_ localID: String) -> String { "email-change:account:\(localID)" }
    static func emailChangesFromClient(_ client: String) -> String { "email-change:client:\(client)" }
}
