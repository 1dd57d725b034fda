/// Reads and changes ``LimitCounter``s inside one write body, and collects the ``SecurityEvent``s to
/// report once that body's transaction has committed.
struct LimitLedger {
    let writer: any StoreWriter
    let nowMillis: Int64
    private(set) var events: [SecurityEvent] = []

    init(writer: any StoreWriter, nowMillis: Int64) {
        self.writer = writer
        self.nowMillis = nowMillis
    }

    /// Until when `key` is locked under `policy`, or nil when it is open.
    func lockedUntil(_ key: String, _ policy: FailureLockout) throws -> Int64? {
        policy.lockedUntil(try writer.limitCounter(key: key), nowMillis: nowMillis)
    }

    /// Counts one wrong attempt under `key`; reports a lockout when it starts one.
    mutating func recordFailure(_ key: String, _ policy: FailureLockout) throws {
        let (counter, lockedNow) = policy.recordFailure(try writer.limitCounter(key: key), key: key, nowMillis: nowMillis)
        try writer.saveLimitCounter(counter)
        if lockedNow { events.append(.lockout(key: key, untilMillis: counter.lockedUntilMillis)) }
    }

    /// Forgets the failures under `key` (after a success).
    func reset(_ key: String) throws {
        try writer.deleteLimitCounter(key: key)
    }

    /// Runs `body` as one write transaction at `nowMillis` with a ledger; reports the ledger's events once the
    /// transaction has committed.
    static func transaction<Value>(
        store: any HearthStore, nowMillis: Int64, report: (SecurityEvent) -> Void,
        _ body: (any StoreWriter, inout LimitLedger) throws -> WriteOutcome<Value>
    ) throws -> Value {
        var events: [SecurityEvent] = []
        let outcome = try store.write { writer -> WriteOutcome<Value> in
            var ledger = LimitLedger(writer: writer, nowMillis: nowMillis)
            let outcome = try body(writer, &ledger)
            events = ledger.events
            return outcome
        }
        events.forEach(report)
        switch outcome {
        case .commit(let value): return value
        case .commitThenFail(let error): throw error
        }
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
}
