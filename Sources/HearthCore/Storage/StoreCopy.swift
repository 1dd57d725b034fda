/// Copies what a store keeps for good into an empty store of any kind (`hearth db copy`, from SQLite to PostgreSQL and
/// back): every account with its identities and second factors, signing key, dev IdP account, service account, live
/// refresh session, queued provider-token revocation and audit event. Short-lived state (pending sign-ins, verification sessions,
/// action codes, dev IdP grants, limit counters) is left behind, as are revoked sessions.
///
/// Records go through the stores' own reads and writes, so each store's sealer opens and seals the secrets in them.
/// Pages of at most `pageSize` records are written one transaction each. The source must not change meanwhile (stop
/// the servers that use it); the counts are checked at the end.
public struct StoreCopy {
    /// How many records of each kind were copied (or are in a store).
    public struct Counts: Sendable, Equatable, CustomStringConvertible {
        public var accounts = 0
        public var signingKeys = 0
        public var devAccounts = 0
        public var serviceAccounts = 0
        public var refreshSessions = 0
        public var providerTokenRevocations = 0
        public var auditEvents = 0

        public init() {}

        public var description: String {
            "accounts=\(accounts) signing_keys=\(signingKeys) dev_accounts=\(devAccounts) "
                + "service_accounts=\(serviceAccounts) refresh_sessions=\(refreshSessions) "
                + "provider_token_revocations=\(providerTokenRevocations) audit_events=\(auditEvents)"
        }
    }

    /// Why a copy was refused or failed; nothing in it comes from stored data.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The target holds data already (`what` names the first kind found): a copy never merges.
        case targetNotEmpty(what: String)
        /// After copying, the target holds other counts than were copied.
        case countsDiffer(copied: Counts, target: Counts)

        public var description: String {
            switch self {
            case .targetNotEmpty(let what):
                "the target database already holds \(what); copy only into a new, empty database"
            case .countsDiffer(let copied, let target):
                "the target's counts (\(target)) differ from those copied (\(copied))"
            }
        }
    }

    private let source: any HearthStore
    private let target: any HearthStore
    private let pageSize: Int

    public init(from source: any HearthStore, to target: any HearthStore, pageSize: Int = 500) {
        self.source = source
        self.target = target
        self.pageSize = max(1, pageSize)
    }

    /// Copies everything, then checks the target's counts against what was copied.
    /// - Parameter progress: told the counts after each page.
    @discardableResult
    public func run(progress: (Counts) -> Void = { _ in }) throws -> Counts {
        try checkTargetIsEmpty()
        var copied = Counts()
        try copyAccounts(&copied, progress)
        let keys = try source.read { try $0.signingKeys() }
        try write(keys) { try $0.insertSigningKey($1) }
        copied.signingKeys = keys.count
        let devAccounts = try source.read { try $0.devAccounts() }
        try write(devAccounts) { try $0.insertDevAccount($1) }
        copied.devAccounts = devAccounts.count
        let serviceAccounts = try source.read { try $0.serviceAccounts() }
        try write(serviceAccounts) { writer, account in
            // Inserted live and revoked after, in creation order: a name revoked and created again fits.
            var live = account
            live.revokedAt = nil
            try writer.insertServiceAccount(live)
            if let revokedAt = account.revokedAt { try writer.revokeServiceAccount(keyID: account.keyID, at: revokedAt) }
        }
        copied.serviceAccounts = serviceAccounts.count
        progress(copied)
        try copySessions(&copied, progress)
        let revocations = try source.read { try Self.allRevocations($0) }
        try write(revocations) { try $0.enqueueProviderTokenRevocation($1) }
        copied.providerTokenRevocations = revocations.count
        progress(copied)
        try copyAuditEvents(&copied, progress)
        let found = try counts(of: target)
        guard found == copied else { throw Failure.countsDiffer(copied: copied, target: found) }
        return copied
    }

    /// The counts of what `store` holds of the kinds a copy takes (live sessions only).
    public func counts(of store: any HearthStore) throws -> Counts {
        var counts = Counts()
        try store.read { reader in
            counts.accounts = try reader.accountCount()
            counts.signingKeys = try reader.signingKeys().count
            counts.devAccounts = try reader.devAccounts().count
            counts.serviceAccounts = try reader.serviceAccounts().count
            counts.providerTokenRevocations = try Self.allRevocations(reader).count
        }
        try forEachPage(of: store, { try $0.refreshSessions(after: $1, limit: $2) }, key: \.sessionID) { page in
            counts.refreshSessions += page.filter { $0.revokedAtMillis == nil }.count
        }
        try forEachPage(of: store, Self.auditEventPage, key: \.id) { counts.auditEvents += $0.count }
        return counts
    }

    private func checkTargetIsEmpty() throws {
        let found: String? = try target.read { reader in
            if try reader.accountCount() > 0 { return "accounts" }
            if try !reader.signingKeys().isEmpty { return "signing keys" }
            if try !reader.devAccounts().isEmpty { return "dev IdP accounts" }
            if try !reader.serviceAccounts().isEmpty { return "service accounts" }
            if try !reader.refreshSessions(after: nil, limit: 1).isEmpty { return "refresh sessions" }
            if try !Self.allRevocations(reader).isEmpty { return "provider-token revocations" }
            if try !reader.auditEvents(AuditQuery(limit: 1)).isEmpty { return "audit events" }
            return nil
        }
        if let found { throw Failure.targetNotEmpty(what: found) }
    }

    private func copyAccounts(_ copied: inout Counts, _ progress: (Counts) -> Void) throws {
        var count = 0
        try forEachPage(of: source, { try $0.accounts(after: $1, limit: $2) }, key: \.localID) { page in
            try target.write { writer in
                for account in page { try writer.insertAccount(account) }
            }
            count += page.count
            copied.accounts = count
            progress(copied)
        }
    }

    /// Live sessions of accounts that exist (a deleted account's sessions answer nothing but USER_NOT_FOUND until
    /// the purge ends them).
    private func copySessions(_ copied: inout Counts, _ progress: (Counts) -> Void) throws {
        var count = 0
        try forEachPage(of: source, { try $0.refreshSessions(after: $1, limit: $2) }, key: \.sessionID) { page in
            let inserted = try target.write { writer -> Int in
                var inserted = 0
                for session in page where session.revokedAtMillis == nil {
                    guard try writer.account(localID: session.localID) != nil else { continue }
                    try writer.insertRefreshSession(session)
                    inserted += 1
                }
                return inserted
            }
            count += inserted
            copied.refreshSessions = count
            progress(copied)
        }
    }

    /// Every audit event, newest first, a page per transaction.
    private func copyAuditEvents(_ copied: inout Counts, _ progress: (Counts) -> Void) throws {
        try forEachPage(of: source, Self.auditEventPage, key: \.id) { page in
            try target.write { writer in
                for event in page { try writer.insertAuditEvent(event) }
            }
            copied.auditEvents += page.count
            progress(copied)
        }
    }

    /// The page of audit events after `cursor` (the last id of the previous page), newest first.
    private static func auditEventPage(_ reader: any StoreReader, _ cursor: String?, _ limit: Int) throws -> [AuditEvent] {
        try reader.auditEvents(AuditQuery(beforeID: cursor, limit: limit))
    }

    /// Reads `store` a page at a time (`fetch(reader, after, limit)`), each page in its own read, until a short page.
    private func forEachPage<Record>(
        of store: any HearthStore, _ fetch: (any StoreReader, String?, Int) throws -> [Record],
        key: KeyPath<Record, String>, _ body: ([Record]) throws -> Void
    ) throws {
        var cursor: String?
        while true {
            let page = try store.read { try fetch($0, cursor, pageSize) }
            if !page.isEmpty { try body(page) }
            guard page.count == pageSize, let last = page.last else { return }
            cursor = last[keyPath: key]
        }
    }

    /// Writes `records` to the target in transactions of at most `pageSize`.
    private func write<Record>(_ records: [Record], _ insert: (any StoreWriter, Record) throws -> Void) throws {
        var start = records.startIndex
        while start < records.endIndex {
            let page = records[start..<min(start + pageSize, records.endIndex)]
            try target.write { writer in
                for record in page { try insert(writer, record) }
            }
            start = page.endIndex
        }
    }

    /// The whole revocation queue: the store lists it by due time only, so it is read at once (it holds the tokens
    /// of deleted accounts that the provider has not yet confirmed revoked, a short list).
    private static func allRevocations(_ reader: any StoreReader) throws -> [ProviderTokenRevocation] {
        try reader.dueProviderTokenRevocations(atMillis: .max, limit: Int(Int32.max))
    }
}
