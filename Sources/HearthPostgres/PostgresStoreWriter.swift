import HearthCore
import HearthSQLShared
import Postgres

/// The `StoreWriter` handed to `PostgresStore.write`: runs inside the closure's serializable transaction. Each method
/// is atomic on its own: one that fails changes nothing and leaves the transaction usable (a statement that may
/// break a constraint runs in a savepoint, as a failed statement would abort the whole transaction), so a body may
/// catch a `StoreError` and go on.
final class PostgresStoreWriter: PostgresStoreReader, SQLStoreWriting {
    /// - Parameter locksRows: the accounts and refresh sessions read through this writer are read `FOR UPDATE`
    ///   (a `.rowLocks` write, at `READ COMMITTED`).
    init(connection: PostgresConnection, sealer: any SecretSealer, locksRows: Bool) {
        super.init(connection: connection, sealer: sealer)
        snapshots = AccountSnapshots()
        self.locksRows = locksRows
    }

    /// Runs a statement that may break a unique or foreign key (mapped to a `StoreError` by `run`) in a savepoint.
    @discardableResult
    private func guarded(_ sql: String, _ parameters: [PostgresValue]) throws -> Int {
        try savepoint { try update(sql, parameters) }
    }

    // MARK: Accounts

    func insertAccount(_ account: Account) throws {
        try run("insertAccount") {
            do {
                try savepoint {
                    try update(PostgresSQL.insertAccount, Self.accountValues(account))
                    try insertIdentities(of: account)
                    try insertEnrollments(of: account)
                }
            } catch let error as PostgresError where error.constraint == "accounts_email_key" {
                // Which unique key PostgreSQL checks first is its business; a taken local id wins.
                guard try exists(PostgresSQL.accountExists, account.localID) else { throw error }
                throw StoreError(.duplicateLocalID)
            }
            snapshots?.remember(account)
        }
    }

    func updateAccount(_ account: Account) throws {
        try run("updateAccount") {
            try savepoint {
                // Same columns as the insert, with local_id moved to the WHERE clause.
                var values = Self.accountValues(account)
                values.append(values.removeFirst())
                guard try update(PostgresSQL.updateAccount, values) > 0 else { throw StoreError(.notFound) }
                // Only the owned rows that changed since this transaction last saw them are written again.
                let rewrites = snapshots?.rewrites(account) ?? (identities: true, enrollments: true)
                if rewrites.identities {
                    try update(PostgresSQL.identities.deleteOfAccount, [.text(account.localID)])
                    try insertIdentities(of: account)
                }
                if rewrites.enrollments {
                    try update(PostgresSQL.enrollments.deleteOfAccount, [.text(account.localID)])
                    try insertEnrollments(of: account)
                }
            }
            snapshots?.remember(account)
        }
    }

    private func insertIdentities(of account: Account) throws {
        for (position, identity) in account.providers.enumerated() {
            try update(
                PostgresSQL.identities.insert,
                [
                    .text(account.localID), .int64(Int64(position)), .text(identity.providerID), .text(identity.rawID),
                    .nullable(identity.email), .nullable(identity.displayName), .nullable(identity.photoURL),
                    .nullable(identity.screenName),
                    try sealedValue(
                        identity.providerRefreshToken.map { Array($0.token.utf8) },
                        .providerRefreshToken(providerID: identity.providerID, rawID: identity.rawID)),
                    .nullable(identity.providerRefreshToken?.clientID),
                ])
        }
    }

    private func insertEnrollments(of account: Account) throws {
        for (position, enrollment) in account.mfaEnrollments.enumerated() {
            try update(
                PostgresSQL.enrollments.insert,
                [
                    .text(account.localID), .int64(Int64(position)), .text(enrollment.enrollmentID),
                    .text(enrollment.kind.rawValue), .nullable(enrollment.displayName),
                    .int64(enrollment.enrolledAtMillis), .nullable(enrollment.phoneNumber),
                    try sealedValue(
                        enrollment.totpSecret, SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollment.enrollmentID)),
                    .nullable(enrollment.lastUsedTOTPStep),
                ])
        }
    }

    /// The values of `PostgresSQL.insertAccount`, in its column order; the email lower-cased.
    private static func accountValues(_ account: Account) -> [PostgresValue] {
        [
            .text(account.localID), .nullable(account.email?.lowercased()), .bool(account.emailVerified),
            .nullable(account.displayName), .nullable(account.photoURL), .nullable(account.phoneNumber),
            .nullable(account.passwordHash), .bool(account.disabled), .nullable(account.customAttributes),
            .int64(account.createdAtMillis), .nullable(account.lastLoginAtMillis),
            .nullable(account.lastRefreshAtMillis), .int64(account.validSinceMillis), .bool(account.isAnonymous),
            .nullable(account.passwordUpdatedAtMillis), .nullable(account.initialEmail), .bool(account.emailLinkSignIn),
        ]
    }

    func recordRefresh(localID: String, atMillis: Int64) throws {
        try run("recordRefresh") {
            try update(PostgresSQL.recordRefresh, [.int64(atMillis), .text(localID)])
            snapshots?.recordRefresh(localID: localID, atMillis: atMillis)
        }
    }

    @discardableResult
    func deleteAccount(localID: String) throws -> Bool {
        // Identities, MFA enrolments and pending MFA sign-ins go with it (ON DELETE CASCADE); refresh sessions and
        // verification sessions stay (see StoreWriter).
        try run("deleteAccount") {
            snapshots?.forget(localID: localID)
            return try update(PostgresSQL.deleteAccount, [.text(localID)]) > 0
        }
    }

    @discardableResult
    func deleteAllAccounts() throws -> Int {
        try run("deleteAllAccounts") {
            snapshots?.forgetAll()
            return try update(PostgresSQL.deleteAllAccounts, [])
        }
    }

    // MARK: Signing keys

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try run("insertSigningKey") {
            try guarded(
                PostgresSQL.insertSigningKey,
                [
                    .text(key.keyID), .text(key.algorithm),
                    try sealedValue(key.privateKeyPEM, SecretField(.signingKey, recordID: key.keyID)),
                    .int64(key.createdAt), .nullable(key.retiredAt),
                ])
        }
    }

    func retireSigningKey(keyID: String, at seconds: Int64) throws {
        try run("retireSigningKey") {
            guard try update(PostgresSQL.retireSigningKey, [.int64(seconds), .text(keyID)]) > 0 else {
                throw StoreError(.notFound)
            }
        }
    }

    @discardableResult
    func deleteSigningKey(keyID: String) throws -> Bool {
        try run("deleteSigningKey") { try update(PostgresSQL.deleteSigningKey, [.text(keyID)]) > 0 }
    }

    // MARK: Dev IdP

    func insertDevAccount(_ account: DevIdPAccount) throws {
        try run("insertDevAccount") {
            do {
                try guarded(
                    PostgresSQL.insertDevAccount,
                    [
                        .text(account.subject), .text(account.email.lowercased()), .bool(account.emailVerified),
                        .nullable(account.name), .nullable(account.givenName), .nullable(account.familyName),
                        .nullable(account.pictureURL), .nullable(account.hostedDomain), .nullable(account.locale),
                        .int64(account.createdAtMillis),
                    ])
            } catch let error as PostgresError where error.constraint == "dev_accounts_email_key" {
                // A taken subject wins over a taken email, whichever PostgreSQL noticed first.
                guard try exists(PostgresSQL.devAccountExists, account.subject) else { throw error }
                throw StoreError(.duplicateLocalID)
            }
        }
    }

    func insertDevGrant(_ grant: DevIdPGrant) throws {
        try run("insertDevGrant") {
            try guarded(
                PostgresSQL.insertDevGrant,
                [
                    .text(grant.tokenHash), .text(grant.kind.rawValue), .text(grant.subject), .text(grant.clientID),
                    .text(grant.scope), .nullable(grant.redirectURI), .nullable(grant.codeChallenge),
                    .nullable(grant.nonce), .nullable(grant.audience), .int64(grant.expiresAt), .int64(grant.createdAt),
                ])
        }
    }

    @discardableResult
    func deleteDevGrant(hash: String) throws -> Bool {
        try run("deleteDevGrant") { try update(PostgresSQL.deleteDevGrant, [.text(hash)]) > 0 }
    }

    @discardableResult
    func deleteDevGrants(subject: String, clientID: String) throws -> Int {
        try run("deleteDevGrants") { try update(PostgresSQL.deleteDevGrantsOfClient, [.text(subject), .text(clientID)]) }
    }

    @discardableResult
    func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
        try run("deleteExpiredDevGrants") { try update(PostgresSQL.deleteExpiredDevGrants, [.int64(seconds)]) }
    }

    // MARK: MFA

    func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        // A taken hash is found before the foreign key is checked (at the end of the statement), so it wins.
        try run("insertMFAPendingSignIn") { try guarded(PostgresSQL.insertMFAPendingSignIn, Self.pendingValues(pending)) }
    }

    func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        try run("updateMFAPendingSignIn") {
            var values = Self.pendingValues(pending)
            values.append(values.removeFirst())
            guard try guarded(PostgresSQL.updateMFAPendingSignIn, values) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    func deleteMFAPendingSignIn(hash: String) throws -> Bool {
        try run("deleteMFAPendingSignIn") { try update(PostgresSQL.deleteMFAPendingSignIn, [.text(hash)]) > 0 }
    }

    /// The values of `PostgresSQL.insertMFAPendingSignIn`, in its column order.
    private static func pendingValues(_ pending: MFAPendingSignIn) -> [PostgresValue] {
        [
            .text(pending.credentialHash), .text(pending.localID), .text(pending.signInProvider),
            .int64(pending.expiresAt), .int64(Int64(pending.failedAttempts)), .int64(pending.createdAtMillis),
        ]
    }

    func insertVerificationSession(_ session: VerificationSession) throws {
        try run("insertVerificationSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            guard try guarded(PostgresSQL.insertVerificationSession, try sessionValues(session)) > 0 else {
                // A taken hash wins over a missing account.
                let taken = try exists(PostgresSQL.verificationSessionExists, session.sessionHash)
                throw StoreError(taken ? .duplicateToken : .notFound)
            }
        }
    }

    func updateVerificationSession(_ session: VerificationSession) throws {
        try run("updateVerificationSession") {
            // Every column but session_hash (moved to the WHERE clause) and local_id (never changed, so a session
            // whose account is gone can still be updated).
            var values = try sessionValues(session)
            values.remove(at: PostgresSQL.verificationSessionLocalIDIndex)
            values.append(values.removeFirst())
            guard try update(PostgresSQL.updateVerificationSession, values) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    func deleteVerificationSession(hash: String) throws -> Bool {
        try run("deleteVerificationSession") { try update(PostgresSQL.deleteVerificationSession, [.text(hash)]) > 0 }
    }

    /// The values of `PostgresSQL.insertVerificationSession`, in its column order.
    private func sessionValues(_ session: VerificationSession) throws -> [PostgresValue] {
        [
            .text(session.sessionHash), .text(session.purpose.rawValue), .text(session.localID),
            .nullable(session.phoneNumber), .nullable(session.codeHash),
            try sealedValue(
                session.totpSecret, SecretField(.verificationSessionTOTPSecret, recordID: session.sessionHash)),
            .nullable(session.pendingCredentialHash), .nullable(session.enrollmentID),
            .int64(Int64(session.failedAttempts)), .int64(session.expiresAt), .int64(session.createdAtMillis),
            .nullable(session.verifiedAtMillis),
        ]
    }

    @discardableResult
    func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int {
        try run("deleteExpiredMFAState") {
            try update(PostgresSQL.deleteExpiredMFAPendingSignIns, [.int64(seconds)])
                + update(PostgresSQL.deleteExpiredVerificationSessions, [.int64(seconds), .int64(keepSinceMillis)])
        }
    }

    // MARK: Limits

    func saveLimitCounter(_ counter: LimitCounter) throws {
        try run("saveLimitCounter") {
            try update(
                PostgresSQL.saveLimitCounter,
                [
                    .text(counter.key), .int64(counter.windowStartMillis), .int64(Int64(counter.count)),
                    .int64(Int64(counter.streak)), .int64(Int64(counter.lockouts)), .int64(counter.lockedUntilMillis),
                    .int64(counter.expiresAtMillis),
                ])
        }
    }

    @discardableResult
    func deleteLimitCounter(key: String) throws -> Bool {
        try run("deleteLimitCounter") { try update(PostgresSQL.deleteLimitCounter, [.text(key)]) > 0 }
    }

    @discardableResult
    func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredLimitCounters") {
            try update(PostgresSQL.deleteExpiredLimitCounters, [.int64(millis), .int64(Int64(max(0, limit)))])
        }
    }

    // MARK: Sessions (refresh-token rotation)

    func insertRefreshSession(_ session: RefreshSession) throws {
        try run("insertRefreshSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            let values: [PostgresValue] = [
                .text(session.sessionID), .text(session.localID), .text(session.signInProvider),
                .int64(session.authTime), .nullable(session.secondFactor), .nullable(session.secondFactorIdentifier),
                .nullable(session.sessionClaims), .int64(session.startedAtMillis), .nullable(session.revokedAtMillis),
                .text(session.currentTokenHash), .nullable(session.replaced?.tokenHash),
                .nullable(session.replaced?.replacedAtMillis), .nullable(session.replaced?.sealedSuccessor),
            ]
            guard try guarded(PostgresSQL.insertRefreshSession, values) > 0 else {
                // A taken id wins over a missing account.
                let taken = try exists(PostgresSQL.refreshSessionExists, session.sessionID)
                throw StoreError(taken ? .duplicateToken : .notFound)
            }
        }
    }

    func rotateRefreshSession(
        id: String, replacing currentHash: String, with newHash: String, atMillis millis: Int64,
        sealedSuccessor: [UInt8]
    ) throws {
        try run("rotateRefreshSession") {
            let values: [PostgresValue] = [
                .text(newHash), .int64(millis), .bytes(sealedSuccessor), .text(id), .text(currentHash),
            ]
            guard try update(PostgresSQL.rotateRefreshSession, values) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Bool {
        try run("revokeSession") { try update(PostgresSQL.revokeSession, [.int64(millis), .text(sessionID)]) > 0 }
    }

    /// This store never held legacy refresh tokens: nothing to purge.
    func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
        throws -> RefreshTokenPurgeStep
    {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("purgeLegacyRefreshTokens") { RefreshTokenPurgeStep(deleted: 0, next: nil) }
    }

    func purgeSessions(after cursor: String?, limit: Int, revokedBefore: Int64, atMillis millis: Int64) throws
        -> RefreshTokenPurgeStep
    {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("purgeSessions") {
            let start = PostgresValue.text(cursor ?? "")
            let page = try rows(PostgresSQL.sessionPage, [start, .int64(Int64(limit))]) { try $0.requiredText(0) }
            guard let last = page.last else { return RefreshTokenPurgeStep(deleted: 0, next: nil) }
            try update(PostgresSQL.revokeDeadSessions, [start, .text(last), .int64(millis)])
            let deleted = try update(PostgresSQL.purgeSessions, [start, .text(last), .int64(revokedBefore)])
            return RefreshTokenPurgeStep(deleted: deleted, next: page.count == limit ? last : nil)
        }
    }

    // MARK: Service accounts

    func insertServiceAccount(_ account: ServiceAccountRecord) throws {
        try run("insertServiceAccount") {
            try guarded(
                PostgresSQL.insertServiceAccount,
                [
                    .text(account.keyID), .text(account.email.lowercased()), .text(account.clientID),
                    .text(account.publicKeyPEM), .int64(account.createdAt), .nullable(account.revokedAt),
                ])
        }
    }

    @discardableResult
    func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool {
        try run("revokeServiceAccount") {
            try update(PostgresSQL.revokeServiceAccount, [.int64(seconds), .text(keyID)]) > 0
        }
    }

    // MARK: Provider-token revocations

    func enqueueProviderTokenRevocation(_ revocation: ProviderTokenRevocation) throws {
        try run("enqueueProviderTokenRevocation") {
            try guarded(
                PostgresSQL.insertProviderTokenRevocation,
                [
                    .text(revocation.id), .text(revocation.providerID), .text(revocation.clientID),
                    try sealedValue(
                        Array(revocation.token.utf8), SecretField(.providerTokenRevocation, recordID: revocation.id)),
                    .text(revocation.tokenTypeHint), .text(revocation.localID), .int64(revocation.createdAtMillis),
                    .int64(Int64(revocation.attempts)), .int64(revocation.nextAttemptAtMillis),
                    .nullable(revocation.lastError),
                ])
        }
    }

    @discardableResult
    func recordFailedProviderTokenRevocation(id: String, atMillis millis: Int64, error: String) throws
        -> ProviderTokenRevocation?
    {
        guard let stored = try providerTokenRevocation(id: id) else { return nil }
        let failed = stored.failed(atMillis: millis, error: error)
        try run("recordFailedProviderTokenRevocation") {
            try update(
                PostgresSQL.recordFailedProviderTokenRevocation,
                [
                    .int64(Int64(failed.attempts)), .int64(failed.nextAttemptAtMillis), .nullable(failed.lastError),
                    .text(id),
                ])
        }
        return failed
    }

    @discardableResult
    func deleteProviderTokenRevocation(id: String) throws -> Bool {
        try run("deleteProviderTokenRevocation") {
            try update(PostgresSQL.deleteProviderTokenRevocation, [.text(id)]) > 0
        }
    }
}
