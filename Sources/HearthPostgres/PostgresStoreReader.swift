import HearthCore
import Postgres

/// The `StoreReader` handed to `PostgresStore.read` (and, as `PostgresStoreWriter`, to `write`): queries on one
/// connection inside one transaction. Valid only inside the closure that received it.
class PostgresStoreReader: StoreReader {
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

    /// Runs SQL without parameters (savepoints), noting an error that breaks the transaction.
    final func execute(_ sql: String) throws {
        try noting { try connection.execute(sql) }
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

    // MARK: Accounts

    final func account(localID: String) throws -> Account? {
        try run("account(localID:)") { try loadAccount(PostgresSQL.accountByLocalID, [.text(localID)]) }
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
            let ids = try rows(PostgresSQL.accountPage, [.text(localID ?? ""), .int64(Int64(limit))]) {
                try $0.requiredText(0)
            }
            return try ids.compactMap { try loadAccount(PostgresSQL.accountByLocalID, [.text($0)]) }
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
    /// last column tells) its MFA enrolments.
    private func loadAccount(_ sql: String, _ parameters: [PostgresValue]) throws -> Account? {
        let found = try firstRow(sql, parameters) { row in
            (try Self.decodeAccount(row), try row.requiredBool(PostgresSQL.accountColumns.count))
        }
        guard let (loaded, hasEnrollments) = found else { return nil }
        var account = loaded
        account.providers = try rows(PostgresSQL.identitiesOfAccount, [.text(account.localID)]) { row in
            var identity = LinkedIdentity(
                providerID: try row.requiredText(0), rawID: try row.requiredText(1), email: row.text(2),
                displayName: row.text(3), photoURL: row.text(4), screenName: row.text(5))
            if let sealed = row.bytes(6) {
                guard let clientID = row.text(7) else {
                    throw StoreError(.corrupt, "account: a provider refresh token without its client")
                }
                let field = SecretField.providerRefreshToken(providerID: identity.providerID, rawID: identity.rawID)
                let token = String(decoding: try sealer.open(sealed, for: field), as: UTF8.self)
                identity.providerRefreshToken = ProviderRefreshToken(token: token, clientID: clientID)
            }
            return identity
        }
        guard hasEnrollments else { return account }
        account.mfaEnrollments = try rows(PostgresSQL.enrollmentsOfAccount, [.text(account.localID)]) { row in
            guard let kind = MFAEnrollment.Kind(rawValue: try row.requiredText(1)) else {
                throw StoreError(.corrupt, "account: unknown MFA enrolment kind")
            }
            let enrollmentID = try row.requiredText(0)
            return MFAEnrollment(
                enrollmentID: enrollmentID, kind: kind, displayName: row.text(2),
                enrolledAtMillis: try row.requiredInt64(3), phoneNumber: row.text(4),
                totpSecret: try openSecret(row.bytes(5), SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollmentID)),
                lastUsedTOTPStep: row.int64(6))
        }
        return account
    }

    private static func decodeAccount(_ row: PostgresRow) throws -> Account {
        Account(
            localID: try row.requiredText(0), email: row.text(1), emailVerified: try row.requiredBool(2),
            displayName: row.text(3), photoURL: row.text(4), phoneNumber: row.text(5), passwordHash: row.text(6),
            disabled: try row.requiredBool(7), customAttributes: row.text(8),
            createdAtMillis: try row.requiredInt64(9), lastLoginAtMillis: row.int64(10),
            lastRefreshAtMillis: row.int64(11), validSinceMillis: try row.requiredInt64(12),
            isAnonymous: try row.requiredBool(13), passwordUpdatedAtMillis: row.int64(14), initialEmail: row.text(15),
            emailLinkSignIn: try row.requiredBool(16))
    }

    // MARK: Sessions (refresh-token rotation)

    final func refreshSession(id: String) throws -> RefreshSession? {
        try run("refreshSession(id:)") {
            try firstRow(PostgresSQL.refreshSessionByID, [.text(id)], Self.decodeRefreshSession)
        }
    }

    final func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("refreshSessions(after:limit:)") {
            try rows(
                PostgresSQL.refreshSessionPage, [.text(sessionID ?? ""), .int64(Int64(limit))],
                Self.decodeRefreshSession)
        }
    }

    /// This store never issued refresh tokens without a session id.
    final func refreshSession(legacyTokenHash: String) throws -> RefreshSession? {
        try run("refreshSession(legacyTokenHash:)") { nil }
    }

    /// A row in `PostgresSQL.refreshSessionColumns`' order.
    private static func decodeRefreshSession(_ row: PostgresRow) throws -> RefreshSession {
        var replaced: ReplacedRefreshToken?
        if let replacedHash = row.text(10) {
            guard let replacedAt = row.int64(11), let sealed = row.bytes(12) else {
                throw StoreError(.corrupt, "refresh session: a replaced token without its time or successor")
            }
            replaced = ReplacedRefreshToken(tokenHash: replacedHash, replacedAtMillis: replacedAt, sealedSuccessor: sealed)
        }
        return RefreshSession(
            sessionID: try row.requiredText(0), localID: try row.requiredText(1),
            signInProvider: try row.requiredText(2), authTime: try row.requiredInt64(3), secondFactor: row.text(4),
            secondFactorIdentifier: row.text(5), sessionClaims: row.text(6), startedAtMillis: try row.requiredInt64(7),
            revokedAtMillis: row.int64(8), currentTokenHash: try row.requiredText(9), replaced: replaced)
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
            try rows(PostgresSQL.signingKeys) { row in
                let keyID = try row.requiredText(0)
                return SigningKeyRecord(
                    keyID: keyID, algorithm: try row.requiredText(1),
                    privateKeyPEM: try openSecret(try row.requiredText(2), SecretField(.signingKey, recordID: keyID)),
                    createdAt: try row.requiredInt64(3), retiredAt: row.int64(4))
            }
        }
    }

    // MARK: Dev IdP

    final func devAccounts() throws -> [DevIdPAccount] {
        try run("devAccounts") { try rows(PostgresSQL.devAccounts, [], Self.decodeDevAccount) }
    }

    final func devAccount(subject: String) throws -> DevIdPAccount? {
        try run("devAccount(subject:)") {
            try firstRow(PostgresSQL.devAccountBySubject, [.text(subject)], Self.decodeDevAccount)
        }
    }

    final func devAccount(email: String) throws -> DevIdPAccount? {
        try run("devAccount(email:)") {
            try firstRow(PostgresSQL.devAccountByEmail, [.text(email.lowercased())], Self.decodeDevAccount)
        }
    }

    private static func decodeDevAccount(_ row: PostgresRow) throws -> DevIdPAccount {
        DevIdPAccount(
            subject: try row.requiredText(0), email: try row.requiredText(1), emailVerified: try row.requiredBool(2),
            name: row.text(3), givenName: row.text(4), familyName: row.text(5), pictureURL: row.text(6),
            hostedDomain: row.text(7), locale: row.text(8), createdAtMillis: try row.requiredInt64(9))
    }

    final func devGrant(hash: String) throws -> DevIdPGrant? {
        try run("devGrant(hash:)") {
            try firstRow(PostgresSQL.devGrantByHash, [.text(hash)]) { row in
                guard let kind = DevIdPGrant.Kind(rawValue: try row.requiredText(1)) else {
                    throw StoreError(.corrupt, "devGrant(hash:): unknown grant kind")
                }
                return DevIdPGrant(
                    tokenHash: try row.requiredText(0), kind: kind, subject: try row.requiredText(2),
                    clientID: try row.requiredText(3), scope: try row.requiredText(4), redirectURI: row.text(5),
                    codeChallenge: row.text(6), nonce: row.text(7), audience: row.text(8),
                    expiresAt: try row.requiredInt64(9), createdAt: try row.requiredInt64(10))
            }
        }
    }

    // MARK: MFA

    final func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? {
        try run("mfaPendingSignIn(hash:)") {
            try firstRow(PostgresSQL.mfaPendingSignInByHash, [.text(hash)]) { row in
                MFAPendingSignIn(
                    credentialHash: try row.requiredText(0), localID: try row.requiredText(1),
                    signInProvider: try row.requiredText(2), expiresAt: try row.requiredInt64(3),
                    failedAttempts: Int(try row.requiredInt64(4)), createdAtMillis: try row.requiredInt64(5))
            }
        }
    }

    final func verificationSession(hash: String) throws -> VerificationSession? {
        try run("verificationSession(hash:)") {
            try firstRow(PostgresSQL.verificationSessionByHash, [.text(hash)], decodeVerificationSession)
        }
    }

    final func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession] {
        try run("verificationSessions(phoneNumber:createdSince:)") {
            try rows(PostgresSQL.verificationSessionsOfNumber, [.text(phoneNumber), .int64(millis)], decodeVerificationSession)
        }
    }

    private func decodeVerificationSession(_ row: PostgresRow) throws -> VerificationSession {
        guard let purpose = VerificationSession.Purpose(rawValue: try row.requiredText(1)) else {
            throw StoreError(.corrupt, "verification session: unknown purpose")
        }
        let sessionHash = try row.requiredText(0)
        return VerificationSession(
            sessionHash: sessionHash, purpose: purpose, localID: try row.requiredText(2),
            phoneNumber: row.text(3), codeHash: row.text(4),
            totpSecret: try openSecret(row.bytes(5), SecretField(.verificationSessionTOTPSecret, recordID: sessionHash)),
            pendingCredentialHash: row.text(6), enrollmentID: row.text(7),
            failedAttempts: Int(try row.requiredInt64(8)), expiresAt: try row.requiredInt64(9),
            createdAtMillis: try row.requiredInt64(10), verifiedAtMillis: row.int64(11))
    }

    // MARK: Service accounts

    final func serviceAccounts() throws -> [ServiceAccountRecord] {
        try run("serviceAccounts") { try rows(PostgresSQL.serviceAccounts, [], Self.decodeServiceAccount) }
    }

    final func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(keyID:)") {
            try firstRow(PostgresSQL.serviceAccountByKeyID, [.text(keyID)], Self.decodeServiceAccount)
        }
    }

    final func serviceAccount(email: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(email:)") {
            try firstRow(PostgresSQL.liveServiceAccountByEmail, [.text(email.lowercased())], Self.decodeServiceAccount)
        }
    }

    private static func decodeServiceAccount(_ row: PostgresRow) throws -> ServiceAccountRecord {
        ServiceAccountRecord(
            keyID: try row.requiredText(0), email: try row.requiredText(1), clientID: try row.requiredText(2),
            publicKeyPEM: try row.requiredText(3), createdAt: try row.requiredInt64(4), revokedAt: row.int64(5))
    }

    // MARK: Limits

    final func limitCounter(key: String) throws -> LimitCounter? {
        try run("limitCounter(key:)") {
            try firstRow(PostgresSQL.limitCounterByKey, [.text(key)]) { row in
                LimitCounter(
                    key: try row.requiredText(0), windowStartMillis: try row.requiredInt64(1),
                    count: Int(try row.requiredInt64(2)), streak: Int(try row.requiredInt64(3)),
                    lockouts: Int(try row.requiredInt64(4)), lockedUntilMillis: try row.requiredInt64(5),
                    expiresAtMillis: try row.requiredInt64(6))
            }
        }
    }

    // MARK: Email action codes

    final func oobCode(hash: String) throws -> OOBCodeRecord? {
        try run("oobCode(hash:)") {
            try firstRow(PostgresSQL.oobCodeByHash, [.text(hash)]) { row in
                guard let kind = OOBCodeRecord.Kind(rawValue: try row.requiredText(1)) else {
                    throw StoreError(.corrupt, "oobCode(hash:): unknown code kind")
                }
                return OOBCodeRecord(
                    codeHash: try row.requiredText(0), kind: kind, localID: row.text(2), email: try row.requiredText(3),
                    newEmail: row.text(4), continueURL: row.text(5), createdAtMillis: try row.requiredInt64(6),
                    expiresAtMillis: try row.requiredInt64(7))
            }
        }
    }

    // MARK: Provider-token revocations

    final func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("dueProviderTokenRevocations") {
            try rows(PostgresSQL.dueProviderTokenRevocations, [.int64(millis), .int64(Int64(limit))]) {
                try decodeRevocation($0)
            }
        }
    }

    final func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation? {
        try run("providerTokenRevocation(id:)") {
            try firstRow(PostgresSQL.providerTokenRevocationByID, [.text(id)]) { try decodeRevocation($0) }
        }
    }

    /// A row in `PostgresSQL.providerTokenRevocationColumns`' order.
    private func decodeRevocation(_ row: PostgresRow) throws -> ProviderTokenRevocation {
        let id = try row.requiredText(0)
        let token = try sealer.open(try row.requiredBytes(3), for: SecretField(.providerTokenRevocation, recordID: id))
        return ProviderTokenRevocation(
            id: id, providerID: try row.requiredText(1), clientID: try row.requiredText(2),
            token: String(decoding: token, as: UTF8.self), tokenTypeHint: try row.requiredText(4),
            localID: try row.requiredText(5), createdAtMillis: try row.requiredInt64(6),
            attempts: Int(try row.requiredInt64(7)), nextAttemptAtMillis: try row.requiredInt64(8), lastError: row.text(9))
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
