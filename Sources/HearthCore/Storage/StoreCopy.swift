/// Copies what a store keeps for good into an empty store of any kind (`hearth db copy`, from SQLite to PostgreSQL and
/// back): every account with its identities and second factors, signing key, dev IdP account, service account, tenant, provider configuration, live
/// refresh session of an account that exists, queued provider-token revocation and audit event. Short-lived state
/// (pending sign-ins, verification sessions, action codes, dev IdP grants, limit counters) is left behind, as are
/// revoked sessions.
///
/// Every scope (`StoreReader.scopes()`) is copied into the same scope of the target. The project-wide records and the
/// project's own are read in one read transaction of the source, and each tenant's in one of its own, so each is a
/// consistent snapshot (SQLite's WAL readers and PostgreSQL's `REPEATABLE READ` see the database as it was when they
/// started) even while servers keep writing to it: what they write after the snapshot is not in the copy. Records go through the stores' own reads and
/// writes, so each store's sealer opens and seals the secrets in them; pages of at most `pageSize` records are written
/// to the target one transaction each. At the end the target's counts must equal the snapshot's.
public struct StoreCopy {
    /// How many records of each kind were copied (or are in a store).
    public struct Counts: Sendable, Equatable, CustomStringConvertible {
        public var accounts = 0
        public var signingKeys = 0
        public var devAccounts = 0
        public var serviceAccounts = 0
        public var refreshSessions = 0
        public var providerTokenRevocations = 0
        public var tenants = 0
        public var providerConfigs = 0
        public var auditEvents = 0

        public init() {}

        public var description: String {
            "accounts=\(accounts) signing_keys=\(signingKeys) dev_accounts=\(devAccounts) "
                + "service_accounts=\(serviceAccounts) refresh_sessions=\(refreshSessions) "
                + "provider_token_revocations=\(providerTokenRevocations) tenants=\(tenants) "
                + "provider_configs=\(providerConfigs) audit_events=\(auditEvents)"
        }
    }

    /// What a finished copy verified: the snapshot's counts, which the target now holds exactly, and when the
    /// snapshot was taken.
    public struct Report: Sendable, Equatable {
        public var counts: Counts
        /// A time just after the project's snapshot began (milliseconds since 1970): nothing written to the source
        /// after it is in the copy (a tenant's snapshot begins later).
        public var snapshotAtMillis: Int64
    }

    /// Why a copy was refused or failed; nothing in it comes from stored data.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The target holds data already (`what` names the first kind found): a copy never merges.
        case targetNotEmpty(what: String)
        /// After copying, the target holds other counts than the source's snapshot.
        case countsDiffer(snapshot: Counts, target: Counts)

        public var description: String {
            switch self {
            case .targetNotEmpty(let what):
                "the target database already holds \(what); copy only into a new, empty database"
            case .countsDiffer(let snapshot, let target):
                "the target's counts (\(target)) differ from those of the source's snapshot (\(snapshot))"
            }
        }
    }

    private let source: any HearthStore
    private let target: any HearthStore
    private let pageSize: Int
    private let time: any TimeSource

    public init(from source: any HearthStore, to target: any HearthStore, pageSize: Int = 500, time: any TimeSource = SystemTimeSource()) {
        self.source = source
        self.target = target
        self.pageSize = max(1, pageSize)
        self.time = time
    }

    /// Copies one snapshot of the source, then checks that the target holds exactly the snapshot's counts.
    /// - Parameter progress: told the counts copied so far after each page.
    @discardableResult
    public func run(progress: (Counts) -> Void = { _ in }) throws -> Report {
        try checkTargetIsEmpty()
        var expected = Counts()
        var copied = Counts()
        let (tenants, takenAt) = try source.read { snapshot in
            // Counting first starts the snapshot; the time is read after, so nothing written after it is in the copy.
            expected = try projectWideCounts(in: snapshot)
            try addScopedCounts(in: snapshot, to: &expected)
            let takenAt = time.nowMillis
            try copyScoped(snapshot, into: target, &copied, progress) { try copyProjectWide(snapshot, &$0, progress) }
            return (try Self.tenantScopes(snapshot), takenAt)
        }
        for scope in tenants {
            try source.scoped(to: scope).read { snapshot in
                try addScopedCounts(in: snapshot, to: &expected)
                try copyScoped(snapshot, into: target.scoped(to: scope), &copied, progress) { _ in }
            }
        }
        let found = try counts(of: target)
        guard copied == expected, found == expected else { throw Failure.countsDiffer(snapshot: expected, target: found) }
        return Report(counts: expected, snapshotAtMillis: takenAt)
    }

    /// The counts of what `store` holds of the kinds a copy takes (live sessions of accounts that exist), in every
    /// scope; the project-wide records and the project's read in one transaction, each tenant's in one of its own.
    public func counts(of store: any HearthStore) throws -> Counts {
        var counts = Counts()
        let tenants = try store.read { reader in
            counts = try projectWideCounts(in: reader)
            try addScopedCounts(in: reader, to: &counts)
            return try Self.tenantScopes(reader)
        }
        for scope in tenants {
            try store.scoped(to: scope).read { try addScopedCounts(in: $0, to: &counts) }
        }
        return counts
    }

    /// The tenants' scopes to copy: those that hold an account and those of tenant records (whose provider
    /// configurations may be all they hold), in order.
    private static func tenantScopes(_ reader: any StoreReader) throws -> [StoreScope] {
        var scopes = Set(try reader.scopes().filter { !$0.isProject })
        var cursor: String?
        repeat {
            let page = try reader.tenants(after: cursor, limit: 500)
            scopes.formUnion(page.map(\.scope))
            cursor = page.count == 500 ? page.last?.id : nil
        } while cursor != nil
        return StoreScope.ordered(scopes)
    }

    /// Every provider configuration of the reader's scope, of every kind.
    private func forEachProviderConfigPage(
        of reader: any StoreReader, _ body: ([ProviderConfigRecord]) throws -> Void
    ) throws {
        for kind in ProviderConfigRecord.Kind.allCases {
            try forEachPage(of: reader, { try $0.providerConfigs(kind: kind, after: $1, limit: $2) }, key: \.id, body)
        }
    }

    /// The counts of the project-wide records (the scoped ones left at 0).
    private func projectWideCounts(in reader: any StoreReader) throws -> Counts {
        var counts = Counts()
        counts.signingKeys = try reader.signingKeys().count
        counts.devAccounts = try reader.devAccounts().count
        counts.serviceAccounts = try reader.serviceAccounts().count
        counts.providerTokenRevocations = try Self.allRevocations(reader).count
        try forEachPage(of: reader, { try $0.tenants(after: $1, limit: $2) }, key: \.id) { counts.tenants += $0.count }
        return counts
    }

    /// Adds the counts of the records of the reader's scope to `counts`.
    private func addScopedCounts(in reader: any StoreReader, to counts: inout Counts) throws {
        counts.accounts += try reader.accountCount()
        try forEachPage(of: reader, { try $0.refreshSessions(after: $1, limit: $2) }, key: \.sessionID) { page in
            counts.refreshSessions += try Self.copiedSessions(page, in: reader).count
        }
        try forEachPage(of: reader, Self.auditEventPage, key: \.id) { counts.auditEvents += $0.count }
        try forEachProviderConfigPage(of: reader) { counts.providerConfigs += $0.count }
    }

    /// Copies the records of the snapshot's scope into `scopedTarget` (the target's view of that scope), running
    /// `afterAccounts` once its accounts are copied.
    private func copyScoped(
        _ snapshot: any StoreReader, into scopedTarget: any HearthStore, _ copied: inout Counts,
        _ progress: (Counts) -> Void, afterAccounts: (inout Counts) throws -> Void
    ) throws {
        let scoped = StoreCopy(from: source, to: scopedTarget, pageSize: pageSize, time: time)
        try scoped.copyPages(of: snapshot, { try $0.accounts(after: $1, limit: $2) }, key: \.localID, count: \.accounts, &copied, progress) {
            try $0.insertAccount($1)
        }
        try afterAccounts(&copied)
        try forEachPage(of: snapshot, { try $0.refreshSessions(after: $1, limit: $2) }, key: \.sessionID) { page in
            let sessions = try Self.copiedSessions(page, in: snapshot)
            try scoped.write(sessions) { try $0.insertRefreshSession($1) }
            copied.refreshSessions += sessions.count
            progress(copied)
        }
        try scoped.copyPages(of: snapshot, Self.auditEventPage, key: \.id, count: \.auditEvents, &copied, progress) {
            try $0.insertAuditEvent($1)
        }
        try forEachProviderConfigPage(of: snapshot) { page in
            try scoped.write(page) { try $0.insertProviderConfig($1) }
            copied.providerConfigs += page.count
            progress(copied)
        }
        if let config = try snapshot.projectConfig() { try scopedTarget.write { try $0.putProjectConfig(config) } }
    }

    /// Copies the project-wide records `snapshot` holds.
    private func copyProjectWide(_ snapshot: any StoreReader, _ copied: inout Counts, _ progress: (Counts) -> Void) throws {
        let keys = try snapshot.signingKeys()
        try write(keys) { try $0.insertSigningKey($1) }
        copied.signingKeys = keys.count
        let devAccounts = try snapshot.devAccounts()
        try write(devAccounts) { try $0.insertDevAccount($1) }
        copied.devAccounts = devAccounts.count
        let serviceAccounts = try snapshot.serviceAccounts()
        try write(serviceAccounts) { writer, account in
            // Inserted live and revoked after, in creation order: a name revoked and created again fits.
            var live = account
            live.revokedAt = nil
            try writer.insertServiceAccount(live)
            if let revokedAt = account.revokedAt { try writer.revokeServiceAccount(keyID: account.keyID, at: revokedAt) }
        }
        copied.serviceAccounts = serviceAccounts.count
        let revocations = try Self.allRevocations(snapshot)
        try write(revocations) { try $0.enqueueProviderTokenRevocation($1) }
        copied.providerTokenRevocations = revocations.count
        try copyPages(of: snapshot, { try $0.tenants(after: $1, limit: $2) }, key: \.id, count: \.tenants, &copied, progress) {
            try $0.insertTenant($1)
        }
        progress(copied)
    }

    private func checkTargetIsEmpty() throws {
        let found: String? = try target.read { reader in
            if try reader.accountCount() > 0 || reader.scopes() != [.project] { return "accounts" }
            if try !reader.signingKeys().isEmpty { return "signing keys" }
            if try !reader.devAccounts().isEmpty { return "dev IdP accounts" }
            if try !reader.serviceAccounts().isEmpty { return "service accounts" }
            if try !reader.refreshSessions(after: nil, limit: 1).isEmpty { return "refresh sessions" }
            if try !Self.allRevocations(reader).isEmpty { return "provider-token revocations" }
            if try !reader.tenants(after: nil, limit: 1).isEmpty { return "tenants" }
            if try !reader.auditEvents(AuditQuery(limit: 1)).isEmpty { return "audit events" }
            for kind in ProviderConfigRecord.Kind.allCases
            where try !reader.providerConfigs(kind: kind, after: nil, limit: 1).isEmpty {
                return "provider configurations"
            }
            return nil
        }
        if let found { throw Failure.targetNotEmpty(what: found) }
    }

    /// Copies the records `fetch` pages through, a page per target transaction, counting them at `count`.
    private func copyPages<Record>(
        of snapshot: any StoreReader, _ fetch: (any StoreReader, String?, Int) throws -> [Record],
        key: KeyPath<Record, String>, count: WritableKeyPath<Counts, Int>, _ copied: inout Counts,
        _ progress: (Counts) -> Void, _ insert: (any StoreWriter, Record) throws -> Void
    ) throws {
        try forEachPage(of: snapshot, fetch, key: key) { page in
            try write(page, insert)
            copied[keyPath: count] += page.count
            progress(copied)
        }
    }

    /// The sessions of `page` a copy takes: live ones of accounts that exist (a deleted account's sessions answer
    /// nothing but USER_NOT_FOUND until the purge ends them).
    private static func copiedSessions(_ page: [RefreshSession], in reader: any StoreReader) throws -> [RefreshSession] {
        try page.filter { session in
            try session.revokedAtMillis == nil && reader.account(localID: session.localID) != nil
        }
    }

    /// The page of audit events after `cursor` (the last id of the previous page), newest first.
    private static func auditEventPage(_ reader: any StoreReader, _ cursor: String?, _ limit: Int) throws -> [AuditEvent] {
        try reader.auditEvents(AuditQuery(beforeID: cursor, limit: limit))
    }

    /// Reads `reader` a page at a time (`fetch(reader, after, limit)`) until a short page.
    private func forEachPage<Record>(
        of reader: any StoreReader, _ fetch: (any StoreReader, String?, Int) throws -> [Record],
        key: KeyPath<Record, String>, _ body: ([Record]) throws -> Void
    ) throws {
        var cursor: String?
        while true {
            let page = try fetch(reader, cursor, pageSize)
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
