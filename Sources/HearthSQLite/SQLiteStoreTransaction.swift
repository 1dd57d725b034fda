import HearthCore
import HearthSQLShared
import SQLite

/// The `StoreReader` handed to `SQLiteStore.read`: queries on one connection inside one read
/// transaction. Valid only inside the closure that received it.
class SQLiteStoreReader: StoreReader {
    final let connection: SQLiteConnection
    /// Seals and opens the secret columns (signing keys, TOTP secrets, provider tokens).
    final let sealer: any SecretSealer
    /// Cleared when the closure returns; using the reader afterwards is a programming error.
    final var isOpen = true
    /// A writer's accounts as its transaction stored them (nil in a reader: nothing changes under it).
    final var snapshots: AccountSnapshots?

    init(connection: SQLiteConnection, sealer: any SecretSealer) {
        self.connection = connection
        self.sealer = sealer
    }

    /// Runs one store operation: SQLite errors become `StoreError`s here and never go further.
    @discardableResult
    final func run<T>(_ operation: StaticString, _ body: () throws -> T) throws -> T {
        precondition(isOpen, "a StoreReader or StoreWriter was used after its read/write closure returned")
        do {
            return try body()
        } catch {
            throw translateStoreError(error, operation: "\(operation)")
        }
    }

    // MARK: Accounts

    final func account(localID: String) throws -> Account? {
        if let stored = snapshots?[localID] { return stored }
        return try run("account(localID:)") {
            try loadAccount(SQL.accountByLocalID, [.text(localID)])
        }
    }

    final func account(email: String) throws -> Account? {
        try run("account(email:)") {
            try loadAccount(SQL.accountByEmail, [.text(email.lowercased())])
        }
    }

    final func account(providerID: String, rawID: String) throws -> Account? {
        try run("account(providerID:rawID:)") {
            try loadAccount(SQL.accountByIdentity, [.text(providerID), .text(rawID)])
        }
    }

    final func account(phoneNumber: String) throws -> Account? {
        try run("account(phoneNumber:)") {
            try loadAccount(SQL.accountByPhoneNumber, [.text(phoneNumber)])
        }
    }

    final func accounts(after localID: String?, limit: Int) throws -> [Account] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("accounts(after:limit:)") {
            let page = try connection.queryAll(SQL.accountPage, [.text(localID ?? ""), .integer(Int64(limit))]) {
                try $0.requiredText(0)
            }
            return try page.compactMap { try loadAccount(SQL.accountByLocalID, [.text($0)]) }
        }
    }

    final func accountCount() throws -> Int {
        try run("accountCount") {
            try connection.queryFirst(SQL.accountCount) { try $0.requiredInt64(0) }.map { Int($0) } ?? 0
        }
    }

    final func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("anonymousAccountIDs") {
            try connection.queryAll(
                SQL.staleAnonymousAccountPage, [.text(localID ?? ""), .integer(millis), .integer(Int64(limit))]
            ) { try $0.requiredText(0) }
        }
    }

    /// Loads the account the query finds, with its identities and (only if it has any, which the
    /// account query's last column tells, sparing most loads a statement) its MFA enrolments.
    private func loadAccount(_ sql: String, _ values: [SQLiteValue]) throws -> Account? {
        let found = try connection.queryFirst(sql, values) { row in
            (try row.account(), try row.requiredBool(SQL.accountColumns.count))
        }
        guard let (loaded, hasEnrollments) = found else { return nil }
        var account = loaded
        account.providers = try connection.queryAll(SQL.identitiesOfAccount, [.text(account.localID)]) {
            try $0.linkedIdentity(sealer: sealer)
        }
        if hasEnrollments {
            account.mfaEnrollments = try connection.queryAll(SQL.enrollmentsOfAccount, [.text(account.localID)]) {
                try $0.mfaEnrollment(sealer: sealer)
            }
        }
        snapshots?.remember(account)
        return account
    }

    // MARK: Sessions (refresh-token rotation)

    final func refreshSession(id: String) throws -> RefreshSession? {
        try run("refreshSession(id:)") {
            try connection.queryFirst(SQL.refreshSessionByID, [.text(id)], ) { try $0.refreshSession() }
        }
    }

    final func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("refreshSessions(after:limit:)") {
            try connection.queryAll(
                SQL.refreshSessionPage, [.text(sessionID ?? ""), .integer(Int64(limit))], ) { try $0.refreshSession() }
        }
    }

    final func refreshSession(legacyTokenHash: String) throws -> RefreshSession? {
        try run("refreshSession(legacyTokenHash:)") {
            try connection.queryFirst(SQL.refreshSessionByLegacyToken, [.text(legacyTokenHash)]) { try $0.refreshSession() }
        }
    }

    final func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String] {
        try run("liveSessionIDs") {
            try connection.queryAll(SQL.liveSessionIDs, [.text(localID), .integer(Int64(max(0, count)))]) {
                try $0.requiredText(0)
            }
        }
    }

    // MARK: Signing keys

    final func signingKeys() throws -> [SigningKeyRecord] {
        try run("signingKeys") {
            try connection.queryAll(SQL.signingKeys) { try $0.signingKey(sealer: sealer) }
        }
    }

    // MARK: Dev IdP

    final func devAccounts() throws -> [DevIdPAccount] {
        try run("devAccounts") { try connection.queryAll(SQL.devAccounts, []) { try $0.devAccount() } }
    }

    final func devAccount(subject: String) throws -> DevIdPAccount? {
        try run("devAccount(subject:)") {
            try connection.queryFirst(SQL.devAccountBySubject, [.text(subject)]) { try $0.devAccount() }
        }
    }

    final func devAccount(email: String) throws -> DevIdPAccount? {
        try run("devAccount(email:)") {
            try connection.queryFirst(SQL.devAccountByEmail, [.text(email.lowercased())]) { try $0.devAccount() }
        }
    }

    final func devGrant(hash: String) throws -> DevIdPGrant? {
        try run("devGrant(hash:)") {
            try connection.queryFirst(SQL.devGrantByHash, [.text(hash)]) { try $0.devGrant() }
        }
    }

    // MARK: MFA

    final func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? {
        try run("mfaPendingSignIn(hash:)") {
            try connection.queryFirst(SQL.mfaPendingSignInByHash, [.text(hash)]) { try $0.mfaPendingSignIn() }
        }
    }

    final func verificationSession(hash: String) throws -> VerificationSession? {
        try run("verificationSession(hash:)") {
            try connection.queryFirst(SQL.verificationSessionByHash, [.text(hash)]) {
                try $0.verificationSession(sealer: sealer)
            }
        }
    }

    final func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession] {
        try run("verificationSessions(phoneNumber:createdSince:)") {
            try connection.queryAll(
                SQL.verificationSessionsOfNumber, [.text(phoneNumber), .integer(millis)]) {
                try $0.verificationSession(sealer: sealer)
            }
        }
    }

    // MARK: Service accounts

    final func serviceAccounts() throws -> [ServiceAccountRecord] {
        try run("serviceAccounts") { try connection.queryAll(SQL.serviceAccounts, []) { try $0.serviceAccount() } }
    }

    final func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(keyID:)") {
            try connection.queryFirst(SQL.serviceAccountByKeyID, [.text(keyID)]) { try $0.serviceAccount() }
        }
    }

    final func serviceAccount(email: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(email:)") {
            try connection.queryFirst(SQL.liveServiceAccountByEmail, [.text(email.lowercased())]) { try $0.serviceAccount() }
        }
    }

    // MARK: Limits

    final func limitCounter(key: String) throws -> LimitCounter? {
        try run("limitCounter(key:)") {
            try connection.queryFirst(SQL.limitCounterByKey, [.text(key)]) { try $0.limitCounter() }
        }
    }
}

/// The `StoreWriter` handed to `SQLiteStore.write`: runs on the writer connection inside the
/// closure's `BEGIN IMMEDIATE` transaction. Each method is atomic on its own: one that fails changes
/// nothing (multi-statement methods run in a savepoint), so a body may catch a `StoreError` and go on.
final class SQLiteStoreWriter: SQLiteStoreReader, StoreWriter {
    override init(connection: SQLiteConnection, sealer: any SecretSealer) {
        super.init(connection: connection, sealer: sealer)
        snapshots = AccountSnapshots()
    }

    /// Runs a statement, turning a constraint failure into the `StoreError` code `map` picks for it.
    @discardableResult
    func execute(
        _ sql: String, _ values: [SQLiteValue], constraint map: (SQLiteError.ResultCode) -> StoreError.Code? = { _ in nil }
    ) throws -> Int {
        do {
            return try connection.execute(sql, values)
        } catch let error as SQLiteError where error.matches(.constraint) {
            guard let code = map(error.code) else { throw error }
            throw StoreError(code)
        }
    }

    // MARK: Accounts

    func insertAccount(_ account: Account) throws {
        try run("insertAccount") {
            try connection.savepoint {
                do {
                    try execute(SQL.insertAccount, Self.accountValues(account))
                } catch SQLiteError.ResultCode.constraint {
                    // Which unique key SQLite checks first is its business; a taken local id wins.
                    throw StoreError(try exists(SQL.accountExists, account.localID) ? .duplicateLocalID : .duplicateEmail)
                }
                try insertIdentities(of: account)
                try insertEnrollments(of: account)
            }
            snapshots?.remember(account)
        }
    }

    func updateAccount(_ account: Account) throws {
        try run("updateAccount") {
            try connection.savepoint {
                // Same columns as the insert, with local_id moved to the WHERE clause.
                var values = Self.accountValues(account)
                values.append(values.removeFirst())
                let changed = try execute(SQL.updateAccount, values) { code in
                    code == .constraintUnique ? .duplicateEmail : nil
                }
                guard changed > 0 else { throw StoreError(.notFound) }
                // Only the owned rows that changed since this transaction last saw them are written again.
                let rewrites = snapshots?.rewrites(account) ?? (identities: true, enrollments: true)
                if rewrites.identities {
                    try execute(SQL.deleteIdentitiesOfAccount, [.text(account.localID)])
                    try insertIdentities(of: account)
                }
                if rewrites.enrollments {
                    try execute(SQL.deleteEnrollmentsOfAccount, [.text(account.localID)])
                    try insertEnrollments(of: account)
                }
            }
            snapshots?.remember(account)
        }
    }

    private func insertIdentities(of account: Account) throws {
        for (position, identity) in account.providers.enumerated() {
            try execute(
                SQL.insertIdentity,
                [
                    .text(account.localID), .integer(Int64(position)), .text(identity.providerID),
                    .text(identity.rawID), SQLiteValue(identity.email), SQLiteValue(identity.displayName),
                    SQLiteValue(identity.photoURL), SQLiteValue(identity.screenName),
                    try sealedValue(
                        identity.providerRefreshToken.map { Array($0.token.utf8) },
                        .providerRefreshToken(providerID: identity.providerID, rawID: identity.rawID)),
                    SQLiteValue(identity.providerRefreshToken?.clientID),
                ]
            ) { code in code == .constraintUnique ? .duplicateIdentity : nil }
        }
    }

    /// Enrolment ids are unique across all accounts, so any unique-key clash here is a taken id (the
    /// account's own old rows are deleted first).
    private func insertEnrollments(of account: Account) throws {
        for (position, enrollment) in account.mfaEnrollments.enumerated() {
            try execute(
                SQL.insertEnrollment,
                [
                    .text(account.localID), .integer(Int64(position)), .text(enrollment.enrollmentID),
                    .text(enrollment.kind.rawValue), SQLiteValue(enrollment.displayName),
                    .integer(enrollment.enrolledAtMillis), SQLiteValue(enrollment.phoneNumber),
                    try sealedValue(
                        enrollment.totpSecret, SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollment.enrollmentID)),
                    SQLiteValue(enrollment.lastUsedTOTPStep),
                ]
            ) { code in code == .constraintUnique ? .duplicateEnrollment : nil }
        }
    }

    private func exists(_ sql: String, _ key: String) throws -> Bool {
        try connection.queryFirst(sql, [.text(key)]) { _ in true } ?? false
    }

    /// The values of `SQL.insertAccount`, in its column order; the email lower-cased.
    private static func accountValues(_ account: Account) -> [SQLiteValue] {
        [
            .text(account.localID), SQLiteValue(account.email?.lowercased()), SQLiteValue(account.emailVerified),
            SQLiteValue(account.displayName), SQLiteValue(account.photoURL), SQLiteValue(account.phoneNumber),
            SQLiteValue(account.passwordHash), SQLiteValue(account.disabled), SQLiteValue(account.customAttributes),
            .integer(account.createdAtMillis), SQLiteValue(account.lastLoginAtMillis),
            SQLiteValue(account.lastRefreshAtMillis), .integer(account.validSinceMillis), SQLiteValue(account.isAnonymous),
            SQLiteValue(account.passwordUpdatedAtMillis), SQLiteValue(account.initialEmail),
            SQLiteValue(account.emailLinkSignIn),
        ]
    }

    func recordRefresh(localID: String, atMillis: Int64) throws {
        try run("recordRefresh") {
            try execute(SQL.recordRefresh, [.integer(atMillis), .text(localID)])
            snapshots?.recordRefresh(localID: localID, atMillis: atMillis)
        }
    }

    @discardableResult
    func deleteAccount(localID: String) throws -> Bool {
        // Identities, MFA enrolments and pending MFA sign-ins go with it (ON DELETE CASCADE); refresh
        // tokens and verification sessions stay (see StoreWriter).
        try run("deleteAccount") {
            snapshots?.forget(localID: localID)
            return try execute(SQL.deleteAccount, [.text(localID)]) > 0
        }
    }

    @discardableResult
    func deleteAllAccounts() throws -> Int {
        try run("deleteAllAccounts") {
            snapshots?.forgetAll()
            return try execute(SQL.deleteAllAccounts, [])
        }
    }

    // MARK: Signing keys

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try run("insertSigningKey") {
            try execute(
                SQL.insertSigningKey,
                [
                    .text(key.keyID), .text(key.algorithm),
                    try sealedValue(key.privateKeyPEM, SecretField(.signingKey, recordID: key.keyID)),
                    .integer(key.createdAt), SQLiteValue(key.retiredAt),
                ]
            ) { code in code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateKeyID : nil }
        }
    }

    func retireSigningKey(keyID: String, at seconds: Int64) throws {
        try run("retireSigningKey") {
            guard try execute(SQL.retireSigningKey, [.integer(seconds), .text(keyID)]) > 0 else {
                throw StoreError(.notFound)
            }
        }
    }

    @discardableResult
    func deleteSigningKey(keyID: String) throws -> Bool {
        try run("deleteSigningKey") { try execute(SQL.deleteSigningKey, [.text(keyID)]) > 0 }
    }

    // MARK: Dev IdP

    func insertDevAccount(_ account: DevIdPAccount) throws {
        try run("insertDevAccount") {
            do {
                try execute(
                    SQL.insertDevAccount,
                    [
                        .text(account.subject), .text(account.email.lowercased()), SQLiteValue(account.emailVerified),
                        SQLiteValue(account.name), SQLiteValue(account.givenName), SQLiteValue(account.familyName),
                        SQLiteValue(account.pictureURL), SQLiteValue(account.hostedDomain),
                        SQLiteValue(account.locale), .integer(account.createdAtMillis),
                    ])
            } catch SQLiteError.ResultCode.constraint {
                // A taken subject wins over a taken email, whichever SQLite noticed first.
                throw StoreError(try exists(SQL.devAccountExists, account.subject) ? .duplicateLocalID : .duplicateEmail)
            }
        }
    }

    func insertDevGrant(_ grant: DevIdPGrant) throws {
        try run("insertDevGrant") {
            try execute(
                SQL.insertDevGrant,
                [
                    .text(grant.tokenHash), .text(grant.kind.rawValue), .text(grant.subject), .text(grant.clientID),
                    .text(grant.scope), SQLiteValue(grant.redirectURI), SQLiteValue(grant.codeChallenge),
                    SQLiteValue(grant.nonce), SQLiteValue(grant.audience), .integer(grant.expiresAt),
                    .integer(grant.createdAt),
                ]
            ) { code in code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil }
        }
    }

    @discardableResult
    func deleteDevGrant(hash: String) throws -> Bool {
        try run("deleteDevGrant") { try execute(SQL.deleteDevGrant, [.text(hash)]) > 0 }
    }

    @discardableResult
    func deleteDevGrants(subject: String, clientID: String) throws -> Int {
        try run("deleteDevGrants") { try execute(SQL.deleteDevGrantsOfClient, [.text(subject), .text(clientID)]) }
    }

    @discardableResult
    func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
        try run("deleteExpiredDevGrants") { try execute(SQL.deleteExpiredDevGrants, [.integer(seconds)]) }
    }

    // MARK: MFA

    func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        try run("insertMFAPendingSignIn") {
            try insertOwnedRecord(
                SQL.insertMFAPendingSignIn, Self.pendingValues(pending), hash: pending.credentialHash,
                existsSQL: SQL.mfaPendingSignInExists)
        }
    }

    func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        try run("updateMFAPendingSignIn") {
            var values = Self.pendingValues(pending)
            values.append(values.removeFirst())
            try updateOwnedRecord(SQL.updateMFAPendingSignIn, values)
        }
    }

    @discardableResult
    func deleteMFAPendingSignIn(hash: String) throws -> Bool {
        try run("deleteMFAPendingSignIn") { try execute(SQL.deleteMFAPendingSignIn, [.text(hash)]) > 0 }
    }

    /// The values of `SQL.insertMFAPendingSignIn`, in its column order.
    private static func pendingValues(_ pending: MFAPendingSignIn) -> [SQLiteValue] {
        [
            .text(pending.credentialHash), .text(pending.localID), .text(pending.signInProvider),
            .integer(pending.expiresAt), SQLiteValue(pending.failedAttempts), .integer(pending.createdAtMillis),
        ]
    }

    func insertVerificationSession(_ session: VerificationSession) throws {
        try run("insertVerificationSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            let inserted = try execute(SQL.insertVerificationSession, try sessionValues(session)) { code in
                code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil
            }
            guard inserted > 0 else {
                // A taken hash wins over a missing account, whichever is checked first.
                let taken = try exists(SQL.verificationSessionExists, session.sessionHash)
                throw StoreError(taken ? .duplicateToken : .notFound)
            }
        }
    }

    func updateVerificationSession(_ session: VerificationSession) throws {
        try run("updateVerificationSession") {
            // Every column but session_hash (moved to the WHERE clause) and local_id (never changed, so
            // a session whose account is gone can still be updated).
            var values = try sessionValues(session)
            values.remove(at: SQL.verificationSessionLocalIDIndex)
            values.append(values.removeFirst())
            guard try execute(SQL.updateVerificationSession, values) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    func deleteVerificationSession(hash: String) throws -> Bool {
        try run("deleteVerificationSession") { try execute(SQL.deleteVerificationSession, [.text(hash)]) > 0 }
    }

    /// The values of `SQL.insertVerificationSession`, in its column order.
    private func sessionValues(_ session: VerificationSession) throws -> [SQLiteValue] {
        [
            .text(session.sessionHash), .text(session.purpose.rawValue), .text(session.localID),
            SQLiteValue(session.phoneNumber), SQLiteValue(session.codeHash),
            try sealedValue(
                session.totpSecret, SecretField(.verificationSessionTOTPSecret, recordID: session.sessionHash)),
            SQLiteValue(session.pendingCredentialHash), SQLiteValue(session.enrollmentID),
            SQLiteValue(session.failedAttempts), .integer(session.expiresAt), .integer(session.createdAtMillis),
            SQLiteValue(session.verifiedAtMillis),
        ]
    }

    /// Inserts a record keyed by `hash` that belongs to an account (a foreign key; pending sign-ins). A
    /// taken hash is `.duplicateToken` (even if the account is missing too), a missing account `.notFound`.
    private func insertOwnedRecord(_ sql: String, _ values: [SQLiteValue], hash: String, existsSQL: String) throws {
        do {
            try execute(sql, values)
        } catch let error as SQLiteError
            where error.code == .constraintPrimaryKey || error.code == .constraintUnique
            || error.code == .constraintForeignKey
        {
            // Which constraint SQLite reports first is its business; a taken hash wins.
            throw StoreError(try exists(existsSQL, hash) ? .duplicateToken : .notFound)
        }
    }

    /// Replaces a record keyed by hash (the last value): `.notFound` if there is none, or if the record
    /// would now belong to an account that does not exist.
    private func updateOwnedRecord(_ sql: String, _ values: [SQLiteValue]) throws {
        let changed = try execute(sql, values) { code in code == .constraintForeignKey ? .notFound : nil }
        guard changed > 0 else { throw StoreError(.notFound) }
    }

    @discardableResult
    func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int {
        try run("deleteExpiredMFAState") {
            try connection.savepoint {
                try execute(SQL.deleteExpiredMFAPendingSignIns, [.integer(seconds)])
                    + execute(SQL.deleteExpiredVerificationSessions, [.integer(seconds), .integer(keepSinceMillis)])
            }
        }
    }

    // MARK: Limits

    func saveLimitCounter(_ counter: LimitCounter) throws {
        try run("saveLimitCounter") {
            try execute(
                SQL.saveLimitCounter,
                [
                    .text(counter.key), .integer(counter.windowStartMillis), SQLiteValue(counter.count),
                    SQLiteValue(counter.streak), SQLiteValue(counter.lockouts), .integer(counter.lockedUntilMillis),
                    .integer(counter.expiresAtMillis),
                ])
        }
    }

    @discardableResult
    func deleteLimitCounter(key: String) throws -> Bool {
        try run("deleteLimitCounter") { try execute(SQL.deleteLimitCounter, [.text(key)]) > 0 }
    }

    @discardableResult
    func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredLimitCounters") {
            try execute(SQL.deleteExpiredLimitCounters, [.integer(millis), SQLiteValue(max(0, limit))])
        }
    }

    // MARK: Sessions (refresh-token rotation)

    func insertRefreshSession(_ session: RefreshSession) throws {
        try run("insertRefreshSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            let values: [SQLiteValue] = [
                .text(session.sessionID), .text(session.localID), .text(session.signInProvider),
                .integer(session.authTime), SQLiteValue(session.secondFactor), SQLiteValue(session.secondFactorIdentifier),
                SQLiteValue(session.sessionClaims), .integer(session.startedAtMillis), SQLiteValue(session.revokedAtMillis),
                .text(session.currentTokenHash), SQLiteValue(session.replaced?.tokenHash),
                SQLiteValue(session.replaced?.replacedAtMillis), SQLiteValue(session.replaced?.sealedSuccessor),
            ]
            let inserted = try execute(SQL.insertRefreshSession, values) { code in
                code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil
            }
            guard inserted > 0 else {
                // A taken id wins over a missing account, whichever is checked first.
                throw StoreError(try exists(SQL.refreshSessionExists, session.sessionID) ? .duplicateToken : .notFound)
            }
        }
    }

    func rotateRefreshSession(
        id: String, replacing currentHash: String, with newHash: String, atMillis millis: Int64,
        sealedSuccessor: [UInt8]
    ) throws {
        try run("rotateRefreshSession") {
            let values: [SQLiteValue] = [
                .text(newHash), .integer(millis), .blob(sealedSuccessor), .text(id), .text(currentHash),
            ]
            guard try execute(SQL.rotateRefreshSession, values) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Bool {
        try run("revokeSession") { try execute(SQL.revokeSession, [.integer(millis), .text(sessionID)]) > 0 }
    }

    // MARK: Service accounts

    func insertServiceAccount(_ account: ServiceAccountRecord) throws {
        try run("insertServiceAccount") {
            try execute(
                SQL.insertServiceAccount,
                [
                    .text(account.keyID), .text(account.email.lowercased()), .text(account.clientID),
                    .text(account.publicKeyPEM), .integer(account.createdAt), SQLiteValue(account.revokedAt),
                ]
            ) { code in code == .constraintPrimaryKey ? .duplicateKeyID : code == .constraintUnique ? .duplicateEmail : nil }
        }
    }

    @discardableResult
    func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool {
        try run("revokeServiceAccount") { try execute(SQL.revokeServiceAccount, [.integer(seconds), .text(keyID)]) > 0 }
    }

    func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
        throws -> RefreshTokenPurgeStep
    {
        try run("purgeLegacyRefreshTokens") {
            try purgePage(SQL.legacyRefreshTokenPage, after: cursor, limit: limit) { start, last in
                try execute(
                    SQL.purgeLegacyRefreshTokens, [start, .text(last), .integer(rotatedBefore), .integer(revokedBefore)])
            }
        }
    }

    func purgeSessions(after cursor: String?, limit: Int, revokedBefore: Int64, atMillis millis: Int64) throws
        -> RefreshTokenPurgeStep
    {
        try run("purgeSessions") {
            try purgePage(SQL.sessionPage, after: cursor, limit: limit) { start, last in
                try execute(SQL.revokeDeadSessions, [start, .text(last), .integer(millis)])
                return try execute(SQL.purgeSessions, [start, .text(last), .integer(revokedBefore)])
            }
        }
    }

    /// One step of a purge: the first `limit` keys after `cursor` (`pageSQL`), then `delete(start, last)`
    /// on that range, in one savepoint.
    private func purgePage(
        _ pageSQL: String, after cursor: String?, limit: Int, delete: (SQLiteValue, String) throws -> Int
    ) throws -> RefreshTokenPurgeStep {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try connection.savepoint {
            let start = SQLiteValue.text(cursor ?? "")
            let page = try connection.queryAll(pageSQL, [start, .integer(Int64(limit))]) { try $0.requiredText(0) }
            guard let last = page.last else { return RefreshTokenPurgeStep(deleted: 0, next: nil) }
            return RefreshTokenPurgeStep(deleted: try delete(start, last), next: page.count == limit ? last : nil)
        }
    }
}

/// Every statement the store runs. Values only ever reach SQLite as bound `?` parameters.
enum SQL {
    static let accountColumns = [
        "local_id", "email", "email_verified", "display_name", "photo_url", "phone_number", "password_hash",
        "disabled", "custom_attributes", "created_at_millis", "last_login_at_millis", "last_refresh_at_millis",
        "valid_since_millis", "is_anonymous", "password_updated_at_millis", "initial_email", "email_link_sign_in",
    ]
    /// The account columns, then whether the account has MFA enrolments.
    private static let accountSelect = """
        SELECT \(accountColumns.map { "a.\($0)" }.joined(separator: ", ")),
            EXISTS (SELECT 1 FROM mfa_enrollments AS m WHERE m.local_id = a.local_id)
        """

    static let accountByLocalID = "\(accountSelect) FROM accounts AS a WHERE a.local_id = ?"
    static let accountByEmail = "\(accountSelect) FROM accounts AS a WHERE a.email = ?"
    static let accountByIdentity = """
        \(accountSelect)
        FROM identities AS i JOIN accounts AS a ON a.local_id = i.local_id
        WHERE i.provider_id = ? AND i.raw_id = ?
        """
    static let accountByPhoneNumber = """
        \(accountSelect) FROM accounts AS a WHERE a.phone_number = ? ORDER BY a.local_id LIMIT 1
        """
    static let accountPage = "SELECT local_id FROM accounts WHERE local_id > ? ORDER BY local_id LIMIT ?"
    static let accountCount = "SELECT count(*) FROM accounts"
    /// By the partial index `accounts_anonymous`, in uid order.
    static let staleAnonymousAccountPage = """
        SELECT local_id FROM accounts
        WHERE is_anonymous = 1 AND local_id > ?1 AND created_at_millis < ?2 ORDER BY local_id LIMIT ?3
        """
    static let accountExists = "SELECT 1 FROM accounts WHERE local_id = ?"
    static let identitiesOfAccount = """
        SELECT provider_id, raw_id, email, display_name, photo_url, screen_name, provider_refresh_token,
            provider_client_id
        FROM identities WHERE local_id = ? ORDER BY position
        """
    static let insertAccount = """
        INSERT INTO accounts (\(accountColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: accountColumns.count).joined(separator: ", ")))
        """
    static let updateAccount = """
        UPDATE accounts SET \(accountColumns.dropFirst().map { "\($0) = ?" }.joined(separator: ", "))
        WHERE local_id = ?
        """
    static let recordRefresh = "UPDATE accounts SET last_refresh_at_millis = ? WHERE local_id = ?"
    static let deleteAccount = "DELETE FROM accounts WHERE local_id = ?"
    static let deleteAllAccounts = "DELETE FROM accounts"

    static let deleteIdentitiesOfAccount = "DELETE FROM identities WHERE local_id = ?"
    static let insertIdentity = """
        INSERT INTO identities (local_id, position, provider_id, raw_id, email, display_name, photo_url, screen_name,
            provider_refresh_token, provider_client_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let enrollmentsOfAccount = """
        SELECT enrollment_id, kind, display_name, enrolled_at_millis, phone_number, totp_secret, last_used_totp_step
        FROM mfa_enrollments WHERE local_id = ? ORDER BY position
        """
    static let deleteEnrollmentsOfAccount = "DELETE FROM mfa_enrollments WHERE local_id = ?"
    static let insertEnrollment = """
        INSERT INTO mfa_enrollments (local_id, position, enrollment_id, kind, display_name, enrolled_at_millis,
            phone_number, totp_secret, last_used_totp_step)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Every column of `refresh_sessions`, in `RefreshSession`'s order (`replaced` last, as three).
    static let refreshSessionColumns = [
        "session_id", "local_id", "sign_in_provider", "auth_time", "second_factor", "second_factor_identifier",
        "session_claims", "started_at_millis", "revoked_at_millis", "current_token_hash", "replaced_token_hash",
        "replaced_at_millis", "sealed_successor",
    ]
    static let refreshSessionByID = """
        SELECT \(refreshSessionColumns.joined(separator: ", ")) FROM refresh_sessions WHERE session_id = ?
        """
    /// The session of a token issued before migration 5; none if the session is gone.
    static let refreshSessionByLegacyToken = """
        SELECT \(refreshSessionColumns.map { "s.\($0)" }.joined(separator: ", "))
        FROM legacy_refresh_tokens AS t JOIN refresh_sessions AS s ON s.session_id = t.session_id
        WHERE t.token_hash = ?
        """
    static let refreshSessionPage = """
        SELECT \(refreshSessionColumns.joined(separator: ", ")) FROM refresh_sessions WHERE session_id > ?
        ORDER BY session_id LIMIT ?
        """
    static let refreshSessionExists = "SELECT 1 FROM refresh_sessions WHERE session_id = ?"
    /// Inserts only if the account ?2 exists (no foreign key: sessions outlive their account).
    static let insertRefreshSession = """
        INSERT INTO refresh_sessions (\(refreshSessionColumns.joined(separator: ", ")))
        SELECT \((1...refreshSessionColumns.count).map { "?\($0)" }.joined(separator: ", "))
        WHERE EXISTS (SELECT 1 FROM accounts WHERE local_id = ?2)
        """
    /// Only from the current token ?5 of a live session whose account exists. No indexed column changes.
    static let rotateRefreshSession = """
        UPDATE refresh_sessions
        SET current_token_hash = ?1, replaced_token_hash = current_token_hash, replaced_at_millis = ?2,
            sealed_successor = ?3
        WHERE session_id = ?4 AND current_token_hash = ?5 AND revoked_at_millis IS NULL
            AND EXISTS (SELECT 1 FROM accounts WHERE accounts.local_id = refresh_sessions.local_id)
        """
    static let liveSessionIDs = """
        SELECT session_id FROM refresh_sessions WHERE local_id = ? AND revoked_at_millis IS NULL
        ORDER BY started_at_millis DESC, session_id DESC LIMIT -1 OFFSET ?
        """
    static let revokeSession = """
        UPDATE refresh_sessions SET revoked_at_millis = ? WHERE session_id = ? AND revoked_at_millis IS NULL
        """
    static let legacyRefreshTokenPage = """
        SELECT token_hash FROM legacy_refresh_tokens WHERE token_hash > ? ORDER BY token_hash LIMIT ?
        """
    /// The legacy tokens of one page (hashes after ?1 up to ?2) that can no longer tell anything: see
    /// `StoreWriter.purgeLegacyRefreshTokens`.
    static let purgeLegacyRefreshTokens = """
        DELETE FROM legacy_refresh_tokens WHERE token_hash IN (
            SELECT t.token_hash FROM legacy_refresh_tokens AS t
                LEFT JOIN refresh_sessions AS s ON s.session_id = t.session_id
            WHERE t.token_hash > ?1 AND t.token_hash <= ?2
                AND (t.rotated_at_millis < ?3 OR s.session_id IS NULL OR s.revoked_at_millis < ?4))
        """
    static let sessionPage = "SELECT session_id FROM refresh_sessions WHERE session_id > ? ORDER BY session_id LIMIT ?"
    /// Revokes (at ?3) the live sessions of one page whose account is gone or revoked them by `validSince`.
    static let revokeDeadSessions = """
        UPDATE refresh_sessions SET revoked_at_millis = ?3
        WHERE session_id IN (
            SELECT s.session_id FROM refresh_sessions AS s LEFT JOIN accounts AS a ON a.local_id = s.local_id
            WHERE s.session_id > ?1 AND s.session_id <= ?2 AND s.revoked_at_millis IS NULL
                AND (a.local_id IS NULL OR s.started_at_millis < a.valid_since_millis))
        """
    static let purgeSessions = """
        DELETE FROM refresh_sessions WHERE session_id > ?1 AND session_id <= ?2 AND revoked_at_millis < ?3
        """

    static let signingKeys = """
        SELECT key_id, algorithm, private_key_pem, created_at, retired_at
        FROM signing_keys ORDER BY created_at, rowid
        """
    static let insertSigningKey = """
        INSERT INTO signing_keys (key_id, algorithm, private_key_pem, created_at, retired_at) VALUES (?, ?, ?, ?, ?)
        """
    static let retireSigningKey = "UPDATE signing_keys SET retired_at = ? WHERE key_id = ?"
    static let deleteSigningKey = "DELETE FROM signing_keys WHERE key_id = ?"

    private static let devAccountSelect = """
        SELECT subject, email, email_verified, name, given_name, family_name, picture_url, hosted_domain, locale,
            created_at_millis
        FROM dev_accounts
        """
    static let devAccounts = "\(devAccountSelect) ORDER BY created_at_millis, rowid"
    static let devAccountBySubject = "\(devAccountSelect) WHERE subject = ?"
    static let devAccountByEmail = "\(devAccountSelect) WHERE email = ?"
    static let devAccountExists = "SELECT 1 FROM dev_accounts WHERE subject = ?"
    static let insertDevAccount = """
        INSERT INTO dev_accounts (subject, email, email_verified, name, given_name, family_name, picture_url,
            hosted_domain, locale, created_at_millis)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let devGrantByHash = """
        SELECT token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce, audience,
            expires_at, created_at
        FROM dev_grants WHERE token_hash = ?
        """
    static let insertDevGrant = """
        INSERT INTO dev_grants (token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce,
            audience, expires_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let deleteDevGrant = "DELETE FROM dev_grants WHERE token_hash = ?"
    static let deleteDevGrantsOfClient = "DELETE FROM dev_grants WHERE subject = ? AND client_id = ?"
    static let deleteExpiredDevGrants = "DELETE FROM dev_grants WHERE expires_at < ?"

    private static let mfaPendingSignInColumns = [
        "credential_hash", "local_id", "sign_in_provider", "expires_at", "failed_attempts", "created_at_millis",
    ]
    static let mfaPendingSignInByHash = """
        SELECT \(mfaPendingSignInColumns.joined(separator: ", ")) FROM mfa_pending_sign_ins WHERE credential_hash = ?
        """
    static let mfaPendingSignInExists = "SELECT 1 FROM mfa_pending_sign_ins WHERE credential_hash = ?"
    static let insertMFAPendingSignIn = """
        INSERT INTO mfa_pending_sign_ins (\(mfaPendingSignInColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: mfaPendingSignInColumns.count).joined(separator: ", ")))
        """
    static let updateMFAPendingSignIn = """
        UPDATE mfa_pending_sign_ins
        SET \(mfaPendingSignInColumns.dropFirst().map { "\($0) = ?" }.joined(separator: ", "))
        WHERE credential_hash = ?
        """
    static let deleteMFAPendingSignIn = "DELETE FROM mfa_pending_sign_ins WHERE credential_hash = ?"
    static let deleteExpiredMFAPendingSignIns = "DELETE FROM mfa_pending_sign_ins WHERE expires_at < ?"

    private static let verificationSessionColumns = [
        "session_hash", "purpose", "local_id", "phone_number", "code_hash", "totp_secret", "pending_credential_hash",
        "enrollment_id", "failed_attempts", "expires_at", "created_at_millis", "verified_at_millis",
    ]
    static let verificationSessionByHash = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions WHERE session_hash = ?
        """
    static let verificationSessionExists = "SELECT 1 FROM verification_sessions WHERE session_hash = ?"
    /// Where `local_id` is in `verificationSessionColumns` (and so in the values of an insert).
    static let verificationSessionLocalIDIndex = verificationSessionColumns.firstIndex(of: "local_id")!
    /// Inserts only if the account exists (no foreign key: sessions outlive their account).
    static let insertVerificationSession = """
        INSERT INTO verification_sessions (\(verificationSessionColumns.joined(separator: ", ")))
        SELECT \((1...verificationSessionColumns.count).map { "?\($0)" }.joined(separator: ", "))
        WHERE EXISTS (SELECT 1 FROM accounts WHERE local_id = ?\(verificationSessionLocalIDIndex + 1))
        """
    /// Every column but the key and `local_id`, which an update never changes.
    static let updateVerificationSession = """
        UPDATE verification_sessions
        SET \(verificationSessionColumns.dropFirst().filter { $0 != "local_id" }.map { "\($0) = ?" }
            .joined(separator: ", "))
        WHERE session_hash = ?
        """
    static let deleteVerificationSession = "DELETE FROM verification_sessions WHERE session_hash = ?"
    static let verificationSessionsOfNumber = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions
        WHERE phone_number = ? AND created_at_millis >= ? ORDER BY created_at_millis, session_hash
        """
    static let deleteExpiredVerificationSessions = """
        DELETE FROM verification_sessions WHERE expires_at < ? AND created_at_millis < ?
        """

    static let limitCounterByKey = """
        SELECT key, window_start_millis, count, streak, lockouts, locked_until_millis, expires_at_millis
        FROM limit_counters WHERE key = ?
        """
    static let saveLimitCounter = """
        INSERT OR REPLACE INTO limit_counters (key, window_start_millis, count, streak, lockouts,
            locked_until_millis, expires_at_millis)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    static let deleteLimitCounter = "DELETE FROM limit_counters WHERE key = ?"
    /// Oldest first, at most `?2` rows, so one purge never holds the writer long.
    static let deleteExpiredLimitCounters = """
        DELETE FROM limit_counters WHERE key IN (
            SELECT key FROM limit_counters WHERE expires_at_millis < ?1 ORDER BY expires_at_millis LIMIT ?2)
        """

    private static let serviceAccountSelect = """
        SELECT key_id, email, client_id, public_key_pem, created_at, revoked_at FROM service_accounts
        """
    static let serviceAccounts = "\(serviceAccountSelect) ORDER BY created_at, rowid"
    static let serviceAccountByKeyID = "\(serviceAccountSelect) WHERE key_id = ?"
    static let liveServiceAccountByEmail = "\(serviceAccountSelect) WHERE email = ? AND revoked_at IS NULL"
    static let insertServiceAccount = """
        INSERT INTO service_accounts (key_id, email, client_id, public_key_pem, created_at, revoked_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    static let revokeServiceAccount = "UPDATE service_accounts SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL"

    /// The lookups SQLite runs for `ON DELETE CASCADE` when an account is deleted (they do not show in
    /// the plan of the DELETE itself), so the tests can check each is indexed.
    static let cascadeLookups: [(name: String, sql: String)] = [
        "identities", "mfa_enrollments", "mfa_pending_sign_ins",
    ].map { table in ("cascade to \(table)", "SELECT 1 FROM \(table) WHERE local_id = ?") }

    /// Every lookup that must be served by an index (checked by the tests with EXPLAIN QUERY PLAN).
    static let indexedLookups: [(name: String, sql: String)] = [
        ("accountByLocalID", accountByLocalID), ("accountByEmail", accountByEmail),
        ("accountByIdentity", accountByIdentity), ("accountByPhoneNumber", accountByPhoneNumber),
        ("accountPage", accountPage), ("identitiesOfAccount", identitiesOfAccount),
        ("recordRefresh", recordRefresh), ("deleteAccount", deleteAccount),
        ("deleteIdentitiesOfAccount", deleteIdentitiesOfAccount), ("refreshSessionByID", refreshSessionByID),
        ("refreshSessionByLegacyToken", refreshSessionByLegacyToken),
        ("retireSigningKey", retireSigningKey),
        ("deleteSigningKey", deleteSigningKey), ("devAccountBySubject", devAccountBySubject),
        ("devAccountByEmail", devAccountByEmail), ("devGrantByHash", devGrantByHash),
        ("deleteDevGrant", deleteDevGrant), ("deleteDevGrantsOfClient", deleteDevGrantsOfClient),
        ("deleteExpiredDevGrants", deleteExpiredDevGrants), ("accountExists", accountExists),
        ("devAccountExists", devAccountExists), ("refreshSessionExists", refreshSessionExists),
        ("insertRefreshSession", insertRefreshSession),
        ("enrollmentsOfAccount", enrollmentsOfAccount), ("deleteEnrollmentsOfAccount", deleteEnrollmentsOfAccount),
        ("mfaPendingSignInByHash", mfaPendingSignInByHash), ("mfaPendingSignInExists", mfaPendingSignInExists),
        ("updateMFAPendingSignIn", updateMFAPendingSignIn), ("deleteMFAPendingSignIn", deleteMFAPendingSignIn),
        ("deleteExpiredMFAPendingSignIns", deleteExpiredMFAPendingSignIns),
        ("verificationSessionByHash", verificationSessionByHash),
        ("verificationSessionExists", verificationSessionExists),
        ("insertVerificationSession", insertVerificationSession),
        ("updateVerificationSession", updateVerificationSession),
        ("deleteVerificationSession", deleteVerificationSession),
        ("verificationSessionsOfNumber", verificationSessionsOfNumber),
        ("deleteExpiredVerificationSessions", deleteExpiredVerificationSessions),
        ("limitCounterByKey", limitCounterByKey), ("deleteLimitCounter", deleteLimitCounter),
        ("deleteExpiredLimitCounters", deleteExpiredLimitCounters),
        ("liveSessionIDs", liveSessionIDs), ("rotateRefreshSession", rotateRefreshSession),
        ("revokeSession", revokeSession), ("legacyRefreshTokenPage", legacyRefreshTokenPage),
        ("purgeLegacyRefreshTokens", purgeLegacyRefreshTokens),
        ("sessionPage", sessionPage), ("refreshSessionPage", refreshSessionPage), ("revokeDeadSessions", revokeDeadSessions), ("purgeSessions", purgeSessions),
        ("serviceAccountByKeyID", serviceAccountByKeyID), ("liveServiceAccountByEmail", liveServiceAccountByEmail),
        ("revokeServiceAccount", revokeServiceAccount), ("staleAnonymousAccountPage", staleAnonymousAccountPage),
    ] + providerTokenRevocationLookups + oobCodeLookups + auditEventLookups + cascadeLookups
}
