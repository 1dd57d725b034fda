import Synchronization

/// A store that keeps everything in memory, for tests and throwaway servers.
///
/// `write` runs on a private copy of the state and publishes it only if the body returns, so a
/// throwing body changes nothing. Writers are serialised; readers see the last committed state.
/// Views made with `scoped(to:)` share the state; each acts in its own scope (see `StoreScope`).
public final class InMemoryStore: HearthStore {
    /// The state every view of this store shares.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared: Shared
    public let scope: StoreScope

    /// An empty store, in the project scope.
    public convenience init() { self.init(Shared(), scope: .project) }

    private init(_ shared: Shared, scope: StoreScope) {
        self.shared = shared
        self.scope = scope
    }

    public func scoped(to scope: StoreScope) -> any HearthStore { InMemoryStore(shared, scope: scope) }

    public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let snapshot = try shared.state.withLock { state in
            guard !state.closed else { throw StoreError(.closed) }
            return state
        }
        return try body(Transaction(snapshot, scope: scope))
    }

    /// One writer at a time, so every write is serializable, whatever `isolation` asks for.
    public func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        try shared.state.withLock { state in
            guard !state.closed else { throw StoreError(.closed) }
            let transaction = Transaction(state, scope: scope)
            let result = try body(transaction)
            state = transaction.state
            return result
        }
    }

    public func close() {
        shared.state.withLock { $0.closed = true }
    }

    struct State {
        var closed = false
        /// The records of each scope (one without any may be missing).
        var scopes: [StoreScope: ScopedRecords] = [:]
        var signingKeys: [SigningKeyRecord] = []
        var devAccounts: [DevIdPAccount] = []
        var devGrants: [String: DevIdPGrant] = [:]
        /// Oldest first (by `createdAt`, then insertion order).
        var serviceAccounts: [ServiceAccountRecord] = []
        var providerTokenRevocations: [String: ProviderTokenRevocation] = [:]
        /// By id (project-wide).
        var tenants: [String: Tenant] = [:]
    }

    /// What one scope holds.
    struct ScopedRecords {
        var accounts: [String: Account] = [:]
        var accountOrder: [String] = []
        /// Refresh-token sessions by id. This store never issued legacy tokens (see
        /// `StoreReader.refreshSession(legacyTokenHash:)`), so it has none.
        var refreshSessions: [String: RefreshSession] = [:]
        var mfaPendingSignIns: [String: MFAPendingSignIn] = [:]
        var verificationSessions: [String: VerificationSession] = [:]
        var limitCounters: [String: LimitCounter] = [:]
        var oobCodes: [String: OOBCodeRecord] = [:]
        /// Provider configurations by kind, then id.
        var providerConfigs: [ProviderConfigRecord.Kind: [String: ProviderConfigRecord]] = [:]
        /// The expiry of each recorded SAML assertion, by `<provider id> <assertion id>`.
        var samlAssertions: [String: Int64] = [:]
        /// Audit events by id, ascending (byte order).
        var auditEvents: [AuditEvent] = []
        /// What the config API set for the scope.
        var projectConfig: ProjectConfigRecord?
    }

    /// One read or write transaction over a private copy of the state.
    final class Transaction: StoreWriter {
        var state: State
        let scope: StoreScope

        init(_ state: State, scope: StoreScope) {
            self.state = state
            self.scope = scope
        }

        /// The records of the transaction's scope.
        var records: ScopedRecords {
            get { state.scopes[scope] ?? ScopedRecords() }
            _modify { yield &state.scopes[scope, default: ScopedRecords()] }
        }

        /// Whether any scope has a record under `key` in `table`: random ids and hashes are unique across scopes, as
        /// in the SQL stores.
        private func isTaken<Value>(_ key: String, in table: KeyPath<ScopedRecords, [String: Value]>) -> Bool {
            state.scopes.values.contains { $0[keyPath: table][key] != nil }
        }

        func scopes() throws -> [StoreScope] {
            StoreScope.ordered(
                Set(state.scopes.filter { !$0.value.accounts.isEmpty }.keys).union([.project]))
        }

        // MARK: Reading

        func account(localID: String) throws -> Account? { records.accounts[localID] }

        func account(email: String) throws -> Account? {
            let wanted = email.lowercased()
            return records.accounts.values.first { $0.email == wanted }
        }

        func account(providerID: String, rawID: String) throws -> Account? {
            records.accounts.values.first { account in
                account.providers.contains { $0.providerID == providerID && $0.rawID == rawID }
            }
        }

        func account(phoneNumber: String) throws -> Account? {
            records.accounts.values.filter { $0.phoneNumber == phoneNumber }.min { Self.sortsBefore($0.localID, $1.localID) }
        }

        func accounts(after localID: String?, limit: Int) throws -> [Account] {
            precondition(limit >= 1, "a page needs a limit of at least 1")
            let following = records.accounts.values.filter { account in
                localID.map { Self.sortsBefore($0, account.localID) } ?? true
            }
            return Array(following.sorted { Self.sortsBefore($0.localID, $1.localID) }.prefix(limit))
        }

        /// Byte order of UTF-8, as SQLite compares text (Swift's `<` on strings compares by Unicode
        /// canonical equivalence, which would order some ids differently).
        private static func sortsBefore(_ lhs: String, _ rhs: String) -> Bool {
            lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }

        func accountCount() throws -> Int { records.accounts.count }

        func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String] {
            precondition(limit >= 1, "a page needs a limit of at least 1")
            let stale = records.accounts.values.filter { account in
                account.isAnonymous && account.createdAtMillis < millis
                    && (localID.map { Self.sortsBefore($0, account.localID) } ?? true)
            }
            return Array(stale.map(\.localID).sorted(by: Self.sortsBefore).prefix(limit))
        }

        func signingKeys() throws -> [SigningKeyRecord] { state.signingKeys }

        func devAccounts() throws -> [DevIdPAccount] { state.devAccounts }

        func devAccount(subject: String) throws -> DevIdPAccount? {
            state.devAccounts.first { $0.subject == subject }
        }

        func devAccount(email: String) throws -> DevIdPAccount? {
            let wanted = email.lowercased()
            return state.devAccounts.first { $0.email == wanted }
        }

        func devGrant(hash: String) throws -> DevIdPGrant? { state.devGrants[hash] }

        func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? { records.mfaPendingSignIns[hash] }

        func verificationSession(hash: String) throws -> VerificationSession? { records.verificationSessions[hash] }

        func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession] {
            records.verificationSessions.values
                .filter { $0.phoneNumber == phoneNumber && $0.createdAtMillis >= millis }
                .sorted { ($0.createdAtMillis, $0.sessionHash) < ($1.createdAtMillis, $1.sessionHash) }
        }

        func limitCounter(key: String) throws -> LimitCounter? { records.limitCounters[key] }

        func oobCode(hash: String) throws -> OOBCodeRecord? { records.oobCodes[hash] }

        func serviceAccounts() throws -> [ServiceAccountRecord] { state.serviceAccounts }

        func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
            state.serviceAccounts.first { $0.keyID == keyID }
        }

        func serviceAccount(email: String) throws -> ServiceAccountRecord? {
            let wanted = email.lowercased()
            return state.serviceAccounts.first { $0.email == wanted && $0.revokedAt == nil }
        }

        func tenant(id: String) throws -> Tenant? { state.tenants[id] }

        func tenants(after id: String?, limit: Int) throws -> [Tenant] {
            let sorted = state.tenants.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            let after = id.map { cursor in sorted.filter { cursor.utf8.lexicographicallyPrecedes($0.id.utf8) } }
            return Array((after ?? sorted).prefix(max(1, limit)))
        }

        func providerConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> ProviderConfigRecord? {
            records.providerConfigs[kind]?[id]
        }

        func providerConfigs(kind: ProviderConfigRecord.Kind, after id: String?, limit: Int) throws
            -> [ProviderConfigRecord]
        {
            let sorted = (records.providerConfigs[kind] ?? [:]).values.sorted {
                $0.id.utf8.lexicographicallyPrecedes($1.id.utf8)
            }
            let after = id.map { cursor in sorted.filter { cursor.utf8.lexicographicallyPrecedes($0.id.utf8) } }
            return Array((after ?? sorted).prefix(max(1, limit)))
        }

        func projectConfig() throws -> ProjectConfigRecord? { records.projectConfig }

        // MARK: Accounts

        func insertAccount(_ account: Account) throws {
            guard records.accounts[account.localID] == nil else { throw StoreError(.duplicateLocalID) }
            let stored = normalized(account)
            try checkUniqueness(of: stored)
            records.accounts[stored.localID] = stored
            records.accountOrder.append(stored.localID)
        }

        func updateAccount(_ account: Account) throws {
            guard records.accounts[account.localID] != nil else { throw StoreError(.notFound) }
            let stored = normalized(account)
            try checkUniqueness(of: stored)
            records.accounts[stored.localID] = stored
        }

        func recordRefresh(localID: String, atMillis: Int64) throws {
            records.accounts[localID]?.lastRefreshAtMillis = atMillis
        }

        func deleteAccount(localID: String) throws -> Bool {
            guard records.accounts.removeValue(forKey: localID) != nil else { return false }
            records.accountOrder.removeAll { $0 == localID }
            records.mfaPendingSignIns = records.mfaPendingSignIns.filter { $0.value.localID != localID }
            // Verification sessions stay (they throttle SMS) until deleteExpiredMFAState.
            return true
        }

        func deleteAllAccounts() throws -> Int {
            let count = records.accounts.count
            records.accounts = [:]
            records.accountOrder = []
            records.mfaPendingSignIns = [:]
            return count
        }

        private func normalized(_ account: Account) -> Account {
            var account = account
            account.email = account.email?.lowercased()
            return account
        }

        private func checkUniqueness(of account: Account) throws {
            for other in records.accounts.values where other.localID != account.localID {
                if let email = account.email, other.email == email { throw StoreError(.duplicateEmail) }
                for identity in account.providers
                where other.providers.contains(where: { $0.providerID == identity.providerID && $0.rawID == identity.rawID }) {
                    throw StoreError(.duplicateIdentity)
                }
            }
            var seen = Set<[String]>()
            for identity in account.providers where !seen.insert([identity.providerID, identity.rawID]).inserted {
                throw StoreError(.duplicateIdentity)
            }
            var enrollmentIDs = Set<String>()
            for enrollment in account.mfaEnrollments where !enrollmentIDs.insert(enrollment.enrollmentID).inserted {
                throw StoreError(.duplicateEnrollment)
            }
            for other in records.accounts.values where other.localID != account.localID {
                if other.mfaEnrollments.contains(where: { enrollmentIDs.contains($0.enrollmentID) }) {
                    throw StoreError(.duplicateEnrollment)
                }
            }
        }

        // MARK: Signing keys

        func insertSigningKey(_ key: SigningKeyRecord) throws {
            guard !state.signingKeys.contains(where: { $0.keyID == key.keyID }) else {
                throw StoreError(.duplicateKeyID)
            }
            // Keep oldest first (by createdAt, then insertion order), whatever order keys arrive in.
            let index = state.signingKeys.lastIndex { $0.createdAt <= key.createdAt }.map { $0 + 1 } ?? 0
            state.signingKeys.insert(key, at: index)
        }

        func retireSigningKey(keyID: String, at seconds: Int64) throws {
            guard let index = state.signingKeys.firstIndex(where: { $0.keyID == keyID }) else {
                throw StoreError(.notFound)
            }
            state.signingKeys[index].retiredAt = seconds
        }

        func deleteSigningKey(keyID: String) throws -> Bool {
            let before = state.signingKeys.count
            state.signingKeys.removeAll { $0.keyID == keyID }
            return state.signingKeys.count != before
        }

        // MARK: Dev IdP

        func insertDevAccount(_ account: DevIdPAccount) throws {
            var account = account
            account.email = account.email.lowercased()
            if state.devAccounts.contains(where: { $0.subject == account.subject }) { throw StoreError(.duplicateLocalID) }
            if state.devAccounts.contains(where: { $0.email == account.email }) { throw StoreError(.duplicateEmail) }
            // Keep oldest first (by createdAtMillis, then insertion order), whatever order accounts arrive in.
            let index = state.devAccounts.lastIndex { $0.createdAtMillis <= account.createdAtMillis }.map { $0 + 1 } ?? 0
            state.devAccounts.insert(account, at: index)
        }

        // MARK: MFA

        func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
            guard !isTaken(pending.credentialHash, in: \.mfaPendingSignIns) else { throw StoreError(.duplicateToken) }
            guard records.accounts[pending.localID] != nil else { throw StoreError(.notFound) }
            records.mfaPendingSignIns[pending.credentialHash] = pending
        }

        func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
            guard records.mfaPendingSignIns[pending.credentialHash] != nil else { throw StoreError(.notFound) }
            // Like insert: never attach a record to an account that does not exist (a later account
            // with that id would inherit it).
            guard records.accounts[pending.localID] != nil else { throw StoreError(.notFound) }
            records.mfaPendingSignIns[pending.credentialHash] = pending
        }

        func deleteMFAPendingSignIn(hash: String) throws -> Bool {
            records.mfaPendingSignIns.removeValue(forKey: hash) != nil
        }

        func insertVerificationSession(_ session: VerificationSession) throws {
            guard !isTaken(session.sessionHash, in: \.verificationSessions) else { throw StoreError(.duplicateToken) }
            guard records.accounts[session.localID] != nil else { throw StoreError(.notFound) }
            records.verificationSessions[session.sessionHash] = session
        }

        func updateVerificationSession(_ session: VerificationSession) throws {
            guard let stored = records.verificationSessions[session.sessionHash] else { throw StoreError(.notFound) }
            // The session keeps its account (which may be gone: sessions outlive accounts).
            var session = session
            session.localID = stored.localID
            records.verificationSessions[session.sessionHash] = session
        }

        func deleteVerificationSession(hash: String) throws -> Bool {
            records.verificationSessions.removeValue(forKey: hash) != nil
        }

        func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int {
            var deleted = 0
            for scope in state.scopes.keys {
                var records = state.scopes[scope]!
                let before = records.mfaPendingSignIns.count + records.verificationSessions.count
                records.mfaPendingSignIns = records.mfaPendingSignIns.filter { $0.value.expiresAt >= seconds }
                records.verificationSessions = records.verificationSessions.filter {
                    $0.value.expiresAt >= seconds || $0.value.createdAtMillis >= keepSinceMillis
                }
                deleted += before - records.mfaPendingSignIns.count - records.verificationSessions.count
                state.scopes[scope] = records
            }
            return deleted
        }

        // MARK: Provider configurations

        func insertProviderConfig(_ config: ProviderConfigRecord) throws {
            guard records.providerConfigs[config.kind]?[config.id] == nil else {
                throw StoreError(.duplicateProviderConfig)
            }
            records.providerConfigs[config.kind, default: [:]][config.id] = config
        }

        func updateProviderConfig(_ config: ProviderConfigRecord) throws {
            guard records.providerConfigs[config.kind]?[config.id] != nil else { throw StoreError(.notFound) }
            records.providerConfigs[config.kind]?[config.id] = config
        }

        func deleteProviderConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> Bool {
            records.providerConfigs[kind]?.removeValue(forKey: id) != nil
        }

        func putProjectConfig(_ config: ProjectConfigRecord) throws {
            records.projectConfig = config
        }

        // MARK: Tenants

        func insertTenant(_ tenant: Tenant) throws {
            guard state.tenants[tenant.id] == nil else { throw StoreError(.duplicateTenant) }
            state.tenants[tenant.id] = tenant
        }

        func updateTenant(_ tenant: Tenant) throws {
            guard state.tenants[tenant.id] != nil else { throw StoreError(.notFound) }
            state.tenants[tenant.id] = tenant
        }

        func deleteTenant(id: String) throws -> Bool {
            state.tenants.removeValue(forKey: id) != nil
        }

        func deleteScopeState(limit: Int) throws -> Int {
            guard !scope.isProject else { return 0 }
            var left = max(1, limit)
            func drop<Value>(_ table: WritableKeyPath<ScopedRecords, [String: Value]>) {
                for key in records[keyPath: table].keys.sorted().prefix(left) {
                    records[keyPath: table][key] = nil
                    left -= 1
                }
            }
            drop(\.refreshSessions)
            drop(\.oobCodes)
            drop(\.verificationSessions)
            drop(\.limitCounters)
            for kind in ProviderConfigRecord.Kind.allCases {
                for id in (records.providerConfigs[kind] ?? [:]).keys.sorted().prefix(left) {
                    records.providerConfigs[kind]?[id] = nil
                    left -= 1
                }
            }
            drop(\.samlAssertions)
            return max(1, limit) - left
        }

        // MARK: SAML assertions

        func insertSAMLAssertion(providerID: String, assertionID: String, expiresAtMillis: Int64) throws -> Bool {
            let key = "\(providerID) \(assertionID)"
            guard records.samlAssertions[key] == nil else { return false }
            records.samlAssertions[key] = expiresAtMillis
            return true
        }

        func deleteExpiredSAMLAssertions(before millis: Int64, limit: Int) throws -> Int {
            var expired: [(scope: StoreScope, key: String, expires: Int64)] = []
            for (scope, scoped) in state.scopes {
                for (key, expires) in scoped.samlAssertions where expires < millis {
                    expired.append((scope, key, expires))
                }
            }
            let chosen = expired.sorted { $0.expires < $1.expires }.prefix(max(0, limit))
            for entry in chosen { state.scopes[entry.scope]?.samlAssertions[entry.key] = nil }
            return chosen.count
        }

        // MARK: Service accounts

        func insertServiceAccount(_ account: ServiceAccountRecord) throws {
            var account = account
            account.email = account.email.lowercased()
            if state.serviceAccounts.contains(where: { $0.keyID == account.keyID }) { throw StoreError(.duplicateKeyID) }
            if account.revokedAt == nil, try serviceAccount(email: account.email) != nil {
                throw StoreError(.duplicateEmail)
            }
            let index = state.serviceAccounts.lastIndex { $0.createdAt <= account.createdAt }.map { $0 + 1 } ?? 0
            state.serviceAccounts.insert(account, at: index)
        }

        func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool {
            guard let index = state.serviceAccounts.firstIndex(where: { $0.keyID == keyID && $0.revokedAt == nil })
            else { return false }
            state.serviceAccounts[index].revokedAt = seconds
            return true
        }

        // MARK: Provider-token revocations

        func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation] {
            precondition(limit >= 1, "a page needs a limit of at least 1")
            let due = state.providerTokenRevocations.values.filter { $0.nextAttemptAtMillis <= millis }
            return Array(
                due.sorted { a, b in
                    a.nextAttemptAtMillis != b.nextAttemptAtMillis
                        ? a.nextAttemptAtMillis < b.nextAttemptAtMillis : Self.sortsBefore(a.id, b.id)
                }.prefix(limit))
        }

        func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation? { state.providerTokenRevocations[id] }

        func enqueueProviderTokenRevocation(_ revocation: ProviderTokenRevocation) throws {
            guard state.providerTokenRevocations[revocation.id] == nil else { throw StoreError(.duplicateToken) }
            state.providerTokenRevocations[revocation.id] = revocation
        }

        func recordFailedProviderTokenRevocation(id: String, atMillis millis: Int64, error: String) throws
            -> ProviderTokenRevocation?
        {
            guard let stored = state.providerTokenRevocations[id] else { return nil }
            let failed = stored.failed(atMillis: millis, error: error)
            state.providerTokenRevocations[id] = failed
            return failed
        }

        func deleteProviderTokenRevocation(id: String) throws -> Bool {
            state.providerTokenRevocations.removeValue(forKey: id) != nil
        }

        // MARK: Audit log

        func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
            precondition(query.limit >= 1, "a page needs a limit of at least 1")
            var page: [AuditEvent] = []
            for event in records.auditEvents.reversed() where page.count < query.limit {
                if let before = query.beforeID, !Self.precedes(event.id, before) { continue }
                if let localID = query.localID, event.localID != localID { continue }
                if let kind = query.kind, event.kind != kind { continue }
                if let since = query.sinceMillis, event.atMillis < since { continue }
                page.append(event)
            }
            return page
        }

        func auditEventCounts(kind: AuditEventKind, sinceMillis: Int64) throws -> [AuditDayCount] {
            var counts: [Int64: [String?: Int]] = [:]
            for event in records.auditEvents where event.kind == kind && event.atMillis >= sinceMillis {
                counts[event.atMillis / AuditDayCount.millisPerDay, default: [:]][event.provider, default: 0] += 1
            }
            return AuditDayCount.ordered(
                counts.flatMap { day, providers in
                    providers.map { AuditDayCount(day: day, provider: $0.key, count: $0.value) }
                })
        }

        func insertAuditEvent(_ event: AuditEvent) throws {
            guard !state.scopes.values.contains(where: { $0.auditEvents.contains { $0.id == event.id } }) else {
                throw StoreError(.duplicateToken)
            }
            let index = records.auditEvents.lastIndex { Self.precedes($0.id, event.id) }.map { $0 + 1 } ?? 0
            records.auditEvents.insert(event, at: index)
        }

        func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int {
            precondition(limit >= 1, "a purge step needs a limit of at least 1")
            let expired = state.scopes.flatMap { scope, records in
                records.auditEvents.filter { $0.atMillis < millis }.map { (scope: scope, event: $0) }
            }.sorted { ($0.event.atMillis, $0.event.id) < ($1.event.atMillis, $1.event.id) }.prefix(limit)
            for (scope, event) in expired { state.scopes[scope]?.auditEvents.removeAll { $0.id == event.id } }
            return expired.count
        }

        // MARK: Limits

        func saveLimitCounter(_ counter: LimitCounter) throws {
            records.limitCounters[counter.key] = counter
        }

        func deleteLimitCounter(key: String) throws -> Bool {
            records.limitCounters.removeValue(forKey: key) != nil
        }

        func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int {
            deleteExpired(\.limitCounters, expiry: \.expiresAtMillis, before: millis, limit: limit)
        }

        /// Deletes at most `limit` values of `table`, in every scope, whose `expiry` is before `millis`, the oldest
        /// first.
        private func deleteExpired<Value>(
            _ table: WritableKeyPath<ScopedRecords, [String: Value]>, expiry: KeyPath<Value, Int64>,
            before millis: Int64, limit: Int
        ) -> Int {
            let expired = state.scopes.flatMap { scope, records in
                records[keyPath: table].filter { $0.value[keyPath: expiry] < millis }
                    .map { (scope: scope, key: $0.key, expiry: $0.value[keyPath: expiry]) }
            }.sorted { $0.expiry < $1.expiry }.prefix(max(0, limit))
            for (scope, key, _) in expired { state.scopes[scope]?[keyPath: table][key] = nil }
            return expired.count
        }

        // MARK: Email action codes

        func insertOOBCode(_ code: OOBCodeRecord) throws {
            guard !isTaken(code.codeHash, in: \.oobCodes) else { throw StoreError(.duplicateToken) }
            var code = code
            code.email = code.email.lowercased()
            code.newEmail = code.newEmail?.lowercased()
            records.oobCodes[code.codeHash] = code
        }

        func deleteOOBCode(hash: String) throws -> Bool {
            records.oobCodes.removeValue(forKey: hash) != nil
        }

        func deleteOOBCodes(localID: String, keeping kept: OOBCodeRecord.Kind?) throws -> Int {
            let voided = records.oobCodes.filter { $0.value.localID == localID && $0.value.kind != kept }.keys
            for hash in voided { records.oobCodes[hash] = nil }
            return voided.count
        }

        func deleteExpiredOOBCodes(before millis: Int64, limit: Int) throws -> Int {
            deleteExpired(\.oobCodes, expiry: \.expiresAtMillis, before: millis, limit: limit)
        }

        // MARK: Dev IdP grants

        func insertDevGrant(_ grant: DevIdPGrant) throws {
            guard state.devGrants[grant.tokenHash] == nil else { throw StoreError(.duplicateToken) }
            state.devGrants[grant.tokenHash] = grant
        }

        func deleteDevGrant(hash: String) throws -> Bool {
            state.devGrants.removeValue(forKey: hash) != nil
        }

        func deleteDevGrants(subject: String, clientID: String) throws -> Int {
            let before = state.devGrants.count
            state.devGrants = state.devGrants.filter { $0.value.subject != subject || $0.value.clientID != clientID }
            return before - state.devGrants.count
        }

        func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
            let before = state.devGrants.count
            state.devGrants = state.devGrants.filter { $0.value.expiresAt >= seconds }
            return before - state.devGrants.count
        }

        // MARK: Sessions (refresh-token rotation)

        func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String] {
            let live = records.refreshSessions.filter { $0.value.localID == localID && $0.value.revokedAtMillis == nil }
            let newestFirst = live.sorted { a, b in
                a.value.startedAtMillis != b.value.startedAtMillis
                    ? a.value.startedAtMillis > b.value.startedAtMillis : Self.precedes(b.key, a.key)
            }
            return newestFirst.dropFirst(max(0, count)).map(\.key)
        }

        func refreshSession(id: String) throws -> RefreshSession? { records.refreshSessions[id] }

        func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession] {
            precondition(limit >= 1, "a page needs a limit of at least 1")
            let following = records.refreshSessions.values.filter { session in
                sessionID.map { Self.sortsBefore($0, session.sessionID) } ?? true
            }
            return Array(following.sorted { Self.sortsBefore($0.sessionID, $1.sessionID) }.prefix(limit))
        }

        func refreshSession(legacyTokenHash: String) throws -> RefreshSession? { nil }

        func insertRefreshSession(_ session: RefreshSession) throws {
            guard !isTaken(session.sessionID, in: \.refreshSessions) else { throw StoreError(.duplicateToken) }
            // Sessions start for existing accounts (they may outlive them: see deleteAccount).
            guard records.accounts[session.localID] != nil else { throw StoreError(.notFound) }
            records.refreshSessions[session.sessionID] = session
        }

        func rotateRefreshSession(
            id: String, replacing currentHash: String, with newHash: String, atMillis millis: Int64,
            sealedSuccessor: [UInt8]
        ) throws {
            guard var session = records.refreshSessions[id], session.currentTokenHash == currentHash,
                session.revokedAtMillis == nil, records.accounts[session.localID] != nil
            else { throw StoreError(.notFound) }
            session.replaced = ReplacedRefreshToken(
                tokenHash: currentHash, replacedAtMillis: millis, sealedSuccessor: sealedSuccessor)
            session.currentTokenHash = newHash
            records.refreshSessions[id] = session
        }

        func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Bool {
            guard records.refreshSessions[sessionID]?.revokedAtMillis == nil, records.refreshSessions[sessionID] != nil
            else { return false }
            records.refreshSessions[sessionID]?.revokedAtMillis = millis
            return true
        }

        func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
            throws -> RefreshTokenPurgeStep
        {
            purgeStep([String](), after: cursor, limit: limit) { _ in false }  // it has none (see State)
        }

        func purgeSessions(after cursor: String?, limit: Int, revokedBefore: Int64, atMillis millis: Int64) throws
            -> RefreshTokenPurgeStep
        {
            // Session ids are unique across scopes, so each names one scope's session.
            var scopeOfSession: [String: StoreScope] = [:]
            for (scope, records) in state.scopes {
                for id in records.refreshSessions.keys { scopeOfSession[id] = scope }
            }
            return purgeStep(scopeOfSession.keys, after: cursor, limit: limit) { id in
                let scope = scopeOfSession[id]!
                guard var records = state.scopes[scope], let session = records.refreshSessions[id] else { return false }
                defer { state.scopes[scope] = records }
                if session.revokedAtMillis == nil,
                    records.accounts[session.localID].map({ session.startedAtMillis < $0.validSinceMillis }) ?? true
                {
                    records.refreshSessions[id]?.revokedAtMillis = millis
                }
                guard let revoked = records.refreshSessions[id]?.revokedAtMillis, revoked < revokedBefore else { return false }
                records.refreshSessions.removeValue(forKey: id)
                return true
            }
        }

        /// One purge step over the first `limit` of `keys` after `cursor` (in byte order of their UTF-8, as
        /// SQLite's BINARY collation): `purge` each, which says whether it deleted it.
        private func purgeStep(
            _ keys: some Collection<String>, after cursor: String?, limit: Int, _ purge: (String) -> Bool
        ) -> RefreshTokenPurgeStep {
            precondition(limit >= 1, "a purge step needs a limit of at least 1")
            let start = cursor ?? ""
            let page = Array(keys.filter { Self.precedes(start, $0) }.sorted(by: Self.precedes).prefix(limit))
            let deleted = page.filter(purge).count
            return RefreshTokenPurgeStep(deleted: deleted, next: page.count == limit ? page.last : nil)
        }

        private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
    }
}
