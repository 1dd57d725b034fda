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
    ///   - client: the caller's address, when the request came over HTTP.
    ///   - detail: a short fact; never a secret (token, password, code, claim value, submitted email).
    func record(
        _ kind: AuditEventKind, localID: String? = nil, provider: String? = nil, client: String? = nil,
        actor: AuditActor = .user, detail: String = "", in writer: any StoreWriter
    ) throws {
        guard log.isEnabled else { return }
        let millis = time.nowMillis
        try writer.insertAuditEvent(
            AuditEvent(
                id: AuditEvent.newID(atMillis: millis), atMillis: millis, kind: kind, localID: localID,
                provider: provider, clientAddress: client, actor: actor, detail: detail))
    }

    /// Records, in one small write of its own, a refusal whose path wrote nothing (a bad IdP token, an unknown
    /// email). A store failure here is dropped: the refusal being answered matters more than its record.
    func recordRefusal(
        _ kind: AuditEventKind, localID: String? = nil, provider: String? = nil, client: String?,
        code: ErrorCode, in store: any HearthStore
    ) {
        guard log.isEnabled else { return }
        _ = try? store.write { writer in
            try record(
                kind, localID: localID, provider: provider, client: client, detail: Self.detail(of: code), in: writer)
        }
    }

    /// The detail of a sign-in that stopped at the second factor.
    static let mfaRequired = "mfa_required"

    /// `code=<wire code>`, the detail of refusals.
    static func detail(of code: ErrorCode) -> String { "code=\(code.rawValue)" }

    /// The events of a change to an account, compared field by field (``AccountChanges``): by its user, `unlink`,
    /// `link`, factors, `password_changed`, `email_changed` and `sessions_revoked`; by an administrator (any other
    /// actor), `account_updated` with the fields, `account_disabled` / `account_enabled` and `claims_changed` too.
    func recordChanges(
        from old: Account, to new: Account, client: String? = nil, actor: AuditActor = .user,
        in writer: any StoreWriter
    ) throws {
        let changes = AccountChanges(from: old, to: new)
        for change in actor == .user ? changes.events : changes.administratorEvents {
            try record(
                change.kind, localID: new.localID, provider: change.provider, client: client, actor: actor,
                detail: change.detail, in: writer)
        }
    }
}
