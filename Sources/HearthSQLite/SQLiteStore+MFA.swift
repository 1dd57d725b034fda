import HearthCore
import HearthSQLShared
import SQLite

/// Second-factor state: pending MFA sign-ins and verification sessions.
extension SQLiteStoreReader {
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
}

extension SQLiteStoreWriter {
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
}

extension SQL {
    private static let mfaPendingSignInColumns = [
        "credential_hash", "local_id", "sign_in_provider", "expires_at", "failed_attempts", "created_at_millis",
    ]
    static let mfaPendingSignInByHash = """
        SELECT \(mfaPendingSignInColumns.joined(separator: ", ")) FROM mfa_pending_sign_ins
        WHERE tenant_id = hearth_tenant() AND credential_hash = ?
        """
    static let mfaPendingSignInExists = "SELECT 1 FROM mfa_pending_sign_ins WHERE credential_hash = ?"
    static let insertMFAPendingSignIn = """
        INSERT INTO mfa_pending_sign_ins (tenant_id, \(mfaPendingSignInColumns.joined(separator: ", ")))
        VALUES (hearth_tenant(), \(Array(repeating: "?", count: mfaPendingSignInColumns.count).joined(separator: ", ")))
        """
    static let updateMFAPendingSignIn = """
        UPDATE mfa_pending_sign_ins
        SET \(mfaPendingSignInColumns.dropFirst().map { "\($0) = ?" }.joined(separator: ", "))
        WHERE tenant_id = hearth_tenant() AND credential_hash = ?
        """
    static let deleteMFAPendingSignIn = "DELETE FROM mfa_pending_sign_ins WHERE tenant_id = hearth_tenant() AND credential_hash = ?"
    static let deleteExpiredMFAPendingSignIns = "DELETE FROM mfa_pending_sign_ins WHERE expires_at < ?"

    private static let verificationSessionColumns = [
        "session_hash", "purpose", "local_id", "phone_number", "code_hash", "totp_secret", "pending_credential_hash",
        "enrollment_id", "failed_attempts", "expires_at", "created_at_millis", "verified_at_millis",
    ]
    static let verificationSessionByHash = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions
        WHERE tenant_id = hearth_tenant() AND session_hash = ?
        """
    static let verificationSessionExists = "SELECT 1 FROM verification_sessions WHERE session_hash = ?"
    /// Where `local_id` is in `verificationSessionColumns` (and so in the values of an insert).
    static let verificationSessionLocalIDIndex = verificationSessionColumns.firstIndex(of: "local_id")!
    /// Inserts only if the account exists (no foreign key: sessions outlive their account).
    static let insertVerificationSession = """
        INSERT INTO verification_sessions (tenant_id, \(verificationSessionColumns.joined(separator: ", ")))
        SELECT hearth_tenant(), \((1...verificationSessionColumns.count).map { "?\($0)" }.joined(separator: ", "))
        WHERE EXISTS (SELECT 1 FROM accounts WHERE tenant_id = hearth_tenant() AND local_id = ?\(verificationSessionLocalIDIndex + 1))
        """
    /// Every column but the key and `local_id`, which an update never changes.
    static let updateVerificationSession = """
        UPDATE verification_sessions
        SET \(verificationSessionColumns.dropFirst().filter { $0 != "local_id" }.map { "\($0) = ?" }
            .joined(separator: ", "))
        WHERE tenant_id = hearth_tenant() AND session_hash = ?
        """
    static let deleteVerificationSession = "DELETE FROM verification_sessions WHERE tenant_id = hearth_tenant() AND session_hash = ?"
    static let verificationSessionsOfNumber = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions
        WHERE tenant_id = hearth_tenant() AND phone_number = ? AND created_at_millis >= ? ORDER BY created_at_millis, session_hash
        """
    static let deleteExpiredVerificationSessions = """
        DELETE FROM verification_sessions WHERE expires_at < ? AND created_at_millis < ?
        """
}
