import HearthProtocol

/// How often a signed-in user may ask to give its account another email address (`accounts:update` with `email`,
/// linking an email and password, `sendOobCode` `VERIFY_AND_CHANGE_EMAIL`): per account and per client address, counted
/// in the store before the address is looked up. Each of these calls tells whether the address is registered (or,
/// under enumeration protection, is answered alike either way); the quotas bound how many addresses one guest account,
/// free for anyone with the API key, or one client can probe.
public struct EmailChangeLimits: Sendable, Equatable {
    public var perAccount: WindowQuota
    public var perClient: WindowQuota

    public init(
        perAccount: WindowQuota = WindowQuota(limit: 10, window: 3_600),
        perClient: WindowQuota = WindowQuota(limit: 30, window: 3_600)
    ) {
        self.perAccount = perAccount
        self.perClient = perClient
    }

    /// Charges one attempt of `localID` from the ledger's caller in its write; the refusal to answer (after committing,
    /// so that the attempt stays counted) when either quota is used up.
    func charge(localID: String, _ ledger: inout LimitLedger) throws -> WireError? {
        var quotas = [(LimitKeys.emailChangesOfAccount(localID), perAccount)]
        if let client = ledger.caller.client { quotas.append((LimitKeys.emailChangesFromClient(client), perClient)) }
        guard try ledger.charge(quotas) else {
            return WireError(.tooManyAttemptsTryLater, "Too many changes of email asked for; try again later.")
        }
        return nil
    }

    /// Charges one attempt in a write of its own (for the calls that look the address up before their own write).
    func charge(
        localID: String, by caller: Caller, store: any HearthStore, atMillis nowMillis: Int64,
        report: (SecurityEvent) -> Void
    ) throws {
        try store.transaction(atMillis: nowMillis, report: report, audit: nil, caller: caller) {
            _, ledger -> WriteOutcome<Void> in
            try charge(localID: localID, &ledger).map { .commitThenFail($0) } ?? .commit(())
        }
    }
}
