import HearthProtocol

/// Writes ``AuditEvent``s for a service, under its ``AuditLog`` settings and clock.
///
/// Events are inserted through the writer of the transaction whose change they record, so they commit and roll
/// back with it; a write body that runs again inserts its event again, and only the last run's is kept. With the
/// log disabled nothing is written.
struct AuditRecorder: Sendable {
    let log: AuditLog
    let time: any TimeSource

    init(_ log: AuditLog, time: any TimeSource) {
        self.log = log
        self.time = time
    }

    /// Inserts one event through `writer`, inside the write body of the change it records.
    /// - Parameters:
    ///   - localID: the account concerned; nil for events about no known account.
    ///   - provider: the provider or factor involved.
    ///   - caller: who acted (the event's actor) and from where (its client address).
    ///   - detail: a short fact; never a secret (token, password, code, claim value, submitted email).
    func record(
        _ kind: AuditEventKind, localID: String? = nil, provider: String? = nil, by caller: Caller,
        detail: String = "", in writer: any StoreWriter
    ) throws {
        guard log.isEnabled else { return }
        let millis = time.nowMillis
        try writer.insertAuditEvent(
            AuditEvent(
                id: AuditEvent.newID(atMillis: millis), atMillis: millis, kind: kind, localID: localID,
                provider: provider, clientAddress: caller.client, actor: caller.actor, detail: detail))
    }

    /// Records, in one small write of its own, a refusal whose path wrote nothing (a bad IdP token, an unknown
    /// email). A store failure here is dropped: the refusal being answered matters more than its record.
    func recordRefusal(
        _ kind: AuditEventKind, localID: String? = nil, provider: String? = nil, by caller: Caller,
        code: ErrorCode, in store: any HearthStore
    ) {
        guard log.isEnabled else { return }
        _ = try? store.write { writer in
            try record(
                kind, localID: localID, provider: provider, by: caller, detail: Self.detail(of: code), in: writer)
        }
    }

    /// The detail of a sign-in that stopped at the second factor.
    static let mfaRequired = "mfa_required"

    /// `code=<wire code>`, the detail of refusals.
    static func detail(of code: ErrorCode) -> String { "code=\(code.rawValue)" }

    /// The events of a change to an account, compared field by field (``AccountChanges``): by its user, `unlink`,
    /// `link`, factors, `password_changed`, `email_changed` and `sessions_revoked`; by an administrator
    /// (``Caller/isAdministrator``), `account_updated` with the fields, `account_disabled` / `account_enabled` and
    /// `claims_changed` too.
    func recordChanges(from old: Account, to new: Account, by caller: Caller, in writer: any StoreWriter) throws {
        let changes = AccountChanges(from: old, to: new)
        for change in caller.isAdministrator ? changes.administratorEvents : changes.events {
            try record(
                change.kind, localID: new.localID, provider: change.provider, by: caller, detail: change.detail,
                in: writer)
        }
    }
}
