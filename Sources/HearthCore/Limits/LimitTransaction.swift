extension HearthStore {
    /// Runs `body` as one write transaction with a ``LimitLedger`` at `nowMillis`, and hands the ledger's
    /// events to `report` once the transaction has committed (a body that throws reports nothing).
    /// - Parameters:
    ///   - audit: records the ledger's lockouts in the transaction; nil records none.
    ///   - caller: whose request it is; its address is recorded with them.
    func transaction<Value>(
        atMillis nowMillis: Int64, report: (SecurityEvent) -> Void, audit: AuditRecorder?,
        caller: Caller, _ body: (any StoreWriter, inout LimitLedger) throws -> WriteOutcome<Value>
    ) throws -> Value {
        var events: [SecurityEvent] = []
        let outcome = try write { writer -> WriteOutcome<Value> in
            var ledger = LimitLedger(writer: writer, nowMillis: nowMillis, audit: audit, caller: caller)
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
}
