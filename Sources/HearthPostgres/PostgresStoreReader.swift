import HearthCore
import HearthSQLShared
import Postgres

/// The `StoreReader` handed to `PostgresStore.read` (and, as `PostgresStoreWriter`, to `write`): queries on one
/// connection inside one transaction. Valid only inside the closure that received it.
class PostgresStoreReader: SQLStoreReading {
    final let connection: PostgresConnection
    /// Seals and opens the secret columns (signing keys, TOTP secrets, provider tokens).
    final let sealer: any SecretSealer
    /// Cleared when the closure returns; using the reader afterwards is a programming error.
    final var isOpen = true
    /// The first error that broke the transaction (a lost race, a lost connection, or any failed statement outside
    /// a savepoint): the store retries or fails the whole call by it, even if the body caught the error.
    final var failure: PostgresError?
    /// How many savepoints are open: a statement that fails inside one does not break the transaction.
    final var savepointDepth = 0
    /// A writer's accounts as its transaction stored them (nil in a reader: nothing changes under it).
    final var snapshots: AccountSnapshots?
    /// A `.rowLocks` writer's: the accounts and refresh sessions it reads are locked (`FOR UPDATE`) until the commit.
    final var locksRows = false
    final let dialect = SQLDialect.postgres

    init(connection: PostgresConnection, sealer: any SecretSealer) {
        self.connection = connection
        self.sealer = sealer
    }

    /// Runs one store operation: PostgreSQL errors become `StoreError`s here and never go further (the store
    /// learns of them through `failure`).
    @discardableResult
    final func run<T>(_ operation: StaticString, _ body: () throws -> T) throws -> T {
        precondition(isOpen, "a StoreReader or StoreWriter was used after its read/write closure returned")
        do {
            return try body()
        } catch {
            throw translatePostgresError(error, operation: "\(operation)")
        }
    }

    /// Runs a query, noting an error that breaks the transaction in `failure`.
    final func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> [PostgresRow] {
        try noting { try connection.query(sql, parameters) }
    }

    /// Runs a statement and returns how many rows it changed, noting an error that breaks the transaction.
    @discardableResult
    final func update(_ sql: String, _ parameters: [PostgresValue]) throws -> Int {
        try noting { try connection.update(sql, parameters) }
    }

    private func noting<T>(_ statement: () throws -> T) throws -> T {
        if let failure { throw failure }
        do {
            return try statement()
        } catch let error as PostgresError {
            if savepointDepth == 0 || error.isSerializationFailure || error.isConnectionFailure {
                failure = failure ?? error
            }
            throw error
        }
    }

    /// The rows of `sql`, each decoded by `decode`; a value that cannot be decoded is `.corrupt`.
    final func rows<T>(_ sql: String, _ parameters: [PostgresValue] = [], _ decode: (PostgresRow) throws -> T) throws
        -> [T]
    {
        try query(sql, parameters).map { row in try decoding { try decode(row) } }
    }

    /// The first row of `sql`, decoded; `nil` when there is none.
    final func firstRow<T>(_ sql: String, _ parameters: [PostgresValue] = [], _ decode: (PostgresRow) throws -> T)
        throws -> T?
    {
        try query(sql, parameters).first.map { row in try decoding { try decode(row) } }
    }

    final func exists(_ sql: String, _ key: String) throws -> Bool {
        try !query(sql, [.text(key)]).isEmpty
    }

    final func query<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (PostgresRow) throws -> T) throws
        -> [T]
    {
        try rows(statement.postgres.sql, Self.values(statement, binds), decode)
    }

    final func queryFirst<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (PostgresRow) throws -> T)
        throws -> T?
    {
        try firstRow(statement.postgres.sql, Self.values(statement, binds), decode)
    }

    final func execute(_ statement: SQLStatement, _ binds: SQLBinds) throws -> Int {
        try update(statement.postgres.sql, Self.values(statement, binds))
    }

    /// In a savepoint: a statement that fails outside one breaks the whole transaction.
    final func execute(
        _ statement: SQLStatement, _ binds: SQLBinds, violation: (SQLConstraintViolation) throws -> StoreError.Code?
    ) throws -> Int {
        do {
            return try savepoint { try execute(statement, binds) }
        } catch let error as PostgresError {
            guard let broken = error.violation, let code = try violation(broken) else { throw error }
            throw StoreError(code)
        }
    }

    /// Runs `body` in a savepoint: if it throws, what it did is undone and the transaction goes on. The savepoint
    /// statements travel with the statements around them (`sendWithNextStatement`): no round trip of their own.
    final func savepoint<T>(_ body: () throws -> T) throws -> T {
        try connection.sendWithNextStatement("SAVEPOINT hearth_operation")
        savepointDepth += 1
        do {
            let value = try body()
            savepointDepth -= 1
            try connection.sendWithNextStatement("RELEASE SAVEPOINT hearth_operation")
            return value
        } catch {
            savepointDepth -= 1
            if failure == nil {
                try connection.sendWithNextStatement("ROLLBACK TO SAVEPOINT hearth_operation")
                try connection.sendWithNextStatement("RELEASE SAVEPOINT hearth_operation")
            }
            throw error
        }
    }

    private static func values(_ statement: SQLStatement, _ binds: SQLBinds) -> [PostgresValue] {
        statement.postgres.values(binds).map { value in
            switch value {
            case .null: .null
            case .text(let text): .text(text)
            case .integer(let number): .int64(number)
            case .bool(let flag): .bool(flag)
            case .bytes(let bytes): .bytes(bytes)
            }
        }
    }

    // MARK: Accounts

    final func account(localID: String) throws -> Account? {
        if let stored = snapshots?[localID] { return stored }
        return try run("account(localID:)") { try loadAccount(PostgresSQL.accountByLocalID, [.text(localID)]) }
    }

    final func account(email: String) throws -> Account? {
        try run("account(email:)") { try loadAccount(PostgresSQL.accountByEmail, [.text(email.lowercased())]) }
    }

    final func account(providerID: String, rawID: String) throws -> Account? {
        try run("account(providerID:rawID:)") {
            try loadAccount(PostgresSQL.accountByIdentity, [.text(providerID), .text(rawID)])
        }
    }

    final func account(phoneNumber: String) throws -> Account? {
        try run("account(phoneNumber:)") { try loadAccount(PostgresSQL.accountByPhoneNumber, [.text(phoneNumber)]) }
    }

    final func accounts(after localID: String?, limit: Int) throws -> [Account] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("accounts(after:limit:)") {
            // Three queries a page: the accounts, then the identities and enrolments of its range of ids.
            let start = PostgresValue.text(localID ?? "")
            var page = try rows(PostgresSQL.accountPage, [start, .int64(Int64(limit))]) { try $0.account() }
            guard let last = page.last?.localID else { return [] }
            let range = [start, .text(last)]
            let identities = try owned(PostgresSQL.identities, of: range) { try $0.linkedIdentity(sealer: sealer) }
            let enrollments = try owned(PostgresSQL.enrollments, of: range) { try $0.mfaEnrollment(sealer: sealer) }
            for index in page.indices {
                page[index].providers = identities[page[index].localID] ?? []
                page[index].mfaEnrollments = enrollments[page[index].localID] ?? []
            }
            return page
        }
    }

    /// The rows of `owned` (identities or enrolments) of the accounts in `range` (ids after the first value, up to the
    /// second), decoded, by account id.
    private func owned<T>(_ owned: PostgresSQL.OwnedRows, of range: [PostgresValue], _ decode: (PostgresRow) throws -> T)
        throws -> [String: [T]]
    {
        let pairs = try rows(owned.ofAccountRange, range) { (try $0.requiredText(owned.columns.count), try decode($0)) }
        return Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
    }

    final func scopes() throws -> [StoreScope] {
        try run("scopes") {
            let tenants = try rows(PostgresSQL.scopesWithAccounts) { StoreScope(storedTenantID: try $0.requiredText(0)) }
            return StoreScope.ordered(Set(tenants).union([.project]))
        }
    }

    final func accountCount() throws -> Int {
        try run("accountCount") {
            Int(try firstRow(PostgresSQL.accountCount) { try $0.requiredInt64(0) } ?? 0)
        }
    }

    final func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("anonymousAccountIDs") {
            try rows(
                PostgresSQL.staleAnonymousAccountPage, [.text(localID ?? ""), .int64(millis), .int64(Int64(limit))]
            ) { try $0.requiredText(0) }
        }
    }

    /// Loads the account the query finds, with its identities and (only if it has any, which the account query's
    /// last column tells) its MFA enrolments; in a `.rowLocks` writer, the account row is locked first.
    private func loadAccount(_ sql: String, _ parameters: [PostgresValue]) throws -> Account? {
        let found = try query(locksRows ? PostgresSQL.forUpdate(ofAccount: sql) : sql, parameters)
        guard let first = found.first else { return nil }
        var account = try decoding { try first.account() }
        let hasEnrollments = try decoding { try first.requiredBool(PostgresSQL.accountColumns.count) }
        account.providers = try found.compactMap { row in
            let identity = ColumnsFrom(row, PostgresSQL.accountIdentityColumn)
            guard identity.text(0) != nil else { return nil }  // the account has no identity
            return try decoding { try identity.linkedIdentity(sealer: sealer) }
        }
        if hasEnrollments {
            account.mfaEnrollments = try rows(PostgresSQL.enrollments.ofAccount, [.text(account.localID)]) {
                try $0.mfaEnrollment(sealer: sealer)
            }
        }
        snapshots?.remember(account)
        return account
    }

    // MARK: Sessions (refresh-token rotation)

    final func refreshSession(id: String) throws -> RefreshSession? {
        try run("refreshSession(id:)") {
            try firstRow(
                locksRows ? PostgresSQL.refreshSessionByIDForUpdate : PostgresSQL.refreshSessionByID, [.text(id)]
            ) { try $0.refreshSession() }
        }
    }

    final func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("refreshSessions(after:limit:)") {
            try rows(
                PostgresSQL.refreshSessionPage, [.text(sessionID ?? ""), .int64(Int64(limit))]
            ) { try $0.refreshSession() }
        }
    }

    /// This store never issued refresh tokens without a session id.
    final func refreshSession(legacyTokenHash: String) throws -> RefreshSession? {
        try run("refreshSession(legacyTokenHash:)") { nil }
    }

    final func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String] {
        try run("liveSessionIDs") {
            try rows(PostgresSQL.liveSessionIDs, [.text(localID), .int64(Int64(max(0, count)))]) {
                try $0.requiredText(0)
            }
        }
    }

    // MARK: Signing keys

    final func signingKeys() throws -> [SigningKeyRecord] {
        try run("signingKeys") {
            try rows(PostgresSQL.signingKeys) { try $0.signingKey(sealer: sealer) }
        }
    }

    // MARK: Dev IdP

    final func devAccounts() throws -> [DevIdPAccount] {
        try run("devAccounts") { try rows(PostgresSQL.devAccounts, []) { try $0.devAccount() } }
    }

    final func devAccount(subject: String) throws -> DevIdPAccount? {
        try run("devAccount(subject:)") {
            try firstRow(PostgresSQL.devAccountBySubject, [.text(subject)]) { try $0.devAccount() }
        }
    }

    final func devAccount(email: String) throws -> DevIdPAccount? {
        try run("devAccount(email:)") {
            try firstRow(PostgresSQL.devAccountByEmail, [.text(email.lowercased())]) { try $0.devAccount() }
        }
    }

    final func devGrant(hash: String) throws -> DevIdPGrant? {
        try run("devGrant(hash:)") {
            try firstRow(PostgresSQL.devGrantByHash, [.text(hash)]) { try $0.devGrant() }
        }
    }

    // MARK: MFA

    final func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? {
        try run("mfaPendingSignIn(hash:)") {
            try firstRow(PostgresSQL.mfaPendingSignInByHash, [.text(hash)]) { try $0.mfaPendingSignIn() }
        }
    }

    final func verificationSession(hash: String) throws -> VerificationSession? {
        try run("verificationSession(hash:)") {
            try firstRow(PostgresSQL.verificationSessionByHash, [.text(hash)]) {
                try $0.verificationSession(sealer: sealer)
            }
        }
    }

    final func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession] {
        try run("verificationSessions(phoneNumber:createdSince:)") {
            try rows(PostgresSQL.verificationSessionsOfNumber, [.text(phoneNumber), .int64(millis)]) {
                try $0.verificationSession(sealer: sealer)
            }
        }
    }

    // MARK: Service accounts

    final func serviceAccounts() throws -> [ServiceAccountRecord] {
        try run("serviceAccounts") { try rows(PostgresSQL.serviceAccounts, []) { try $0.serviceAccount() } }
    }

    final func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(keyID:)") {
            try firstRow(PostgresSQL.serviceAccountByKeyID, [.text(keyID)]) { try $0.serviceAccount() }
        }
    }

    final func serviceAccount(email: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(email:)") {
            try firstRow(PostgresSQL.liveServiceAccountByEmail, [.text(email.lowercased())]) { try $0.serviceAccount() }
        }
    }

    // MARK: Limits

    final func limitCounter(key: String) throws -> LimitCounter? {
        try run("limitCounter(key:)") {
            try firstRow(PostgresSQL.limitCounterByKey, [.text(key)]) { try $0.limitCounter() }
        }
    }

    // MARK: Provider-token revocations

    final func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("dueProviderTokenRevocations") {
            try rows(PostgresSQL.dueProviderTokenRevocations, [.int64(millis), .int64(Int64(limit))]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }

    final func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation? {
        try run("providerTokenRevocation(id:)") {
            try firstRow(PostgresSQL.providerTokenRevocationByID, [.text(id)]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }
}

/// Runs a decoder over stored values: a value the wrapper cannot read (NULL where there must be one, text that is no
/// number) is data this store cannot understand, `.corrupt`; other errors (`StoreError`s of the sealer) pass.
func decoding<T>(_ decode: () throws -> T) throws -> T {
    do {
        return try decode()
    } catch let error as PostgresError {
        throw StoreError(.corrupt, "a stored value cannot be read: \(error.message)")
    }
}
