public import HearthCore

/// Second-factor state: pending MFA sign-ins and verification sessions.
extension SQLCatalogue {
    /// In `StoredRow.mfaPendingSignIn()`'s order; each is also the name of its bind (`MFAPendingSignIn.binds`).
    static let mfaPendingSignInColumns = [
        "credential_hash", "local_id", "sign_in_provider", "expires_at", "failed_attempts", "created_at_millis",
    ]
    static let mfaPendingSignInByHash = SQLStatement { d in
        """
        SELECT \(list(mfaPendingSignInColumns)) FROM mfa_pending_sign_ins
        WHERE tenant_id = \(d.scope) AND credential_hash = :credential_hash
        """
    }
    static let mfaPendingSignInExists = SQLStatement { _ in
        "SELECT 1 FROM mfa_pending_sign_ins WHERE credential_hash = :credential_hash"
    }
    static let insertMFAPendingSignIn = SQLStatement { d in
        """
        INSERT INTO mfa_pending_sign_ins (tenant_id, \(list(mfaPendingSignInColumns)))
        VALUES (\(d.scope), \(binds(mfaPendingSignInColumns)))
        """
    }
    static let updateMFAPendingSignIn = SQLStatement { d in
        """
        UPDATE mfa_pending_sign_ins SET \(assignments(mfaPendingSignInColumns.dropFirst()))
        WHERE tenant_id = \(d.scope) AND credential_hash = :credential_hash
        """
    }
    static let deleteMFAPendingSignIn = SQLStatement { d in
        "DELETE FROM mfa_pending_sign_ins WHERE tenant_id = \(d.scope) AND credential_hash = :credential_hash"
    }
    static let deleteExpiredMFAPendingSignIns = SQLStatement { _ in
        "DELETE FROM mfa_pending_sign_ins WHERE expires_at < :before"
    }

    /// In `StoredRow.verificationSession(sealer:)`'s order, with their types; each is also the name of its bind
    /// (`VerificationSession.binds(_:)`).
    private static let verificationSessionTypedColumns: [(String, SQLDialect.ColumnType)] = [
        ("session_hash", .text), ("purpose", .text), ("local_id", .text), ("phone_number", .text),
        ("code_hash", .text), ("totp_secret", .bytea), ("pending_credential_hash", .text), ("enrollment_id", .text),
        ("failed_attempts", .integer), ("expires_at", .bigint), ("created_at_millis", .bigint),
        ("verified_at_millis", .bigint),
    ]
    static let verificationSessionColumns = verificationSessionTypedColumns.map(\.0)
    static let verificationSessionByHash = SQLStatement { d in
        """
        SELECT \(list(verificationSessionColumns)) FROM verification_sessions
        WHERE tenant_id = \(d.scope) AND session_hash = :session_hash
        """
    }
    static let verificationSessionExists = SQLStatement { _ in
        "SELECT 1 FROM verification_sessions WHERE session_hash = :session_hash"
    }
    /// Inserts only if the account exists (no foreign key: sessions outlive their account).
    static let insertVerificationSession = insertIfAccountExists(
        table: "verification_sessions", typedColumns: verificationSessionTypedColumns)
    /// Every column but the key and `local_id`, which an update never changes (so a session whose account is gone
    /// can still be updated).
    static let updateVerificationSession = SQLStatement { d in
        """
        UPDATE verification_sessions
        SET \(assignments(verificationSessionColumns.dropFirst().filter { $0 != "local_id" }))
        WHERE tenant_id = \(d.scope) AND session_hash = :session_hash
        """
    }
    static let deleteVerificationSession = SQLStatement { d in
        "DELETE FROM verification_sessions WHERE tenant_id = \(d.scope) AND session_hash = :session_hash"
    }
    static let verificationSessionsOfNumber = SQLStatement { d in
        """
        SELECT \(list(verificationSessionColumns)) FROM verification_sessions
        WHERE tenant_id = \(d.scope) AND phone_number = :phone_number AND created_at_millis >= :since
        ORDER BY created_at_millis, session_hash
        """
    }
    static let deleteExpiredVerificationSessions = SQLStatement { _ in
        "DELETE FROM verification_sessions WHERE expires_at < :before AND created_at_millis < :keep_since"
    }

    /// `INSERT … SELECT` of one row of `typedColumns` (bound by their names) only if the account `:local_id` exists.
    static func insertIfAccountExists(table: String, typedColumns: [(String, SQLDialect.ColumnType)]) -> SQLStatement {
        SQLStatement { d in
            """
            INSERT INTO \(table) (tenant_id, \(list(typedColumns.map(\.0))))
            SELECT \(d.scope), \(typedColumns.map { d.typed(":\($0)", $1) }.joined(separator: ", "))
            WHERE EXISTS (SELECT 1 FROM accounts WHERE tenant_id = \(d.scope) AND local_id = :local_id)
            """
        }
    }

    static let mfaLookups: [(name: String, statement: SQLStatement)] = [
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
    ]
}

extension SQLStoreReading {
    public func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? {
        try run("mfaPendingSignIn(hash:)") {
            try queryFirst(SQLCatalogue.mfaPendingSignInByHash, ["credential_hash": .text(hash)]) {
                try $0.mfaPendingSignIn()
            }
        }
    }

    public func verificationSession(hash: String) throws -> VerificationSession? {
        try run("verificationSession(hash:)") {
            try queryFirst(SQLCatalogue.verificationSessionByHash, ["session_hash": .text(hash)]) {
                try $0.verificationSession(sealer: sealer)
            }
        }
    }

    public func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession] {
        try run("verificationSessions(phoneNumber:createdSince:)") {
            try query(
                SQLCatalogue.verificationSessionsOfNumber, ["phone_number": .text(phoneNumber), "since": .integer(millis)]
            ) { try $0.verificationSession(sealer: sealer) }
        }
    }
}

extension SQLStoreWriting {
    /// A taken hash is `.duplicateToken` (even if the account is missing too), a missing account `.notFound`.
    public func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        try run("insertMFAPendingSignIn") {
            try execute(SQLCatalogue.insertMFAPendingSignIn, pending.binds) { violation in
                guard violation != .other else { return nil }
                // Which constraint the engine reports first is its business; a taken hash wins.
                let taken = try exists(SQLCatalogue.mfaPendingSignInExists, ["credential_hash": .text(pending.credentialHash)])
                return taken ? .duplicateToken : .notFound
            }
        }
    }

    /// `.notFound` if there is none, or if it would now belong to an account that does not exist.
    public func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
        try run("updateMFAPendingSignIn") {
            let changed = try execute(SQLCatalogue.updateMFAPendingSignIn, pending.binds) {
                $0 == .foreignKey ? .notFound : nil
            }
            guard changed > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    public func deleteMFAPendingSignIn(hash: String) throws -> Bool {
        try run("deleteMFAPendingSignIn") {
            try execute(SQLCatalogue.deleteMFAPendingSignIn, ["credential_hash": .text(hash)]) > 0
        }
    }

    public func insertVerificationSession(_ session: VerificationSession) throws {
        try run("insertVerificationSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            let inserted = try execute(SQLCatalogue.insertVerificationSession, try session.binds(self)) {
                $0.isTaken ? .duplicateToken : nil
            }
            guard inserted > 0 else {
                // A taken hash wins over a missing account, whichever is checked first.
                let taken = try exists(SQLCatalogue.verificationSessionExists, ["session_hash": .text(session.sessionHash)])
                throw StoreError(taken ? .duplicateToken : .notFound)
            }
        }
    }

    public func updateVerificationSession(_ session: VerificationSession) throws {
        try run("updateVerificationSession") {
            guard try execute(SQLCatalogue.updateVerificationSession, try session.binds(self)) > 0 else {
                throw StoreError(.notFound)
            }
        }
    }

    @discardableResult
    public func deleteVerificationSession(hash: String) throws -> Bool {
        try run("deleteVerificationSession") {
            try execute(SQLCatalogue.deleteVerificationSession, ["session_hash": .text(hash)]) > 0
        }
    }

    @discardableResult
    public func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int {
        try run("deleteExpiredMFAState") {
            try savepoint {
                try execute(SQLCatalogue.deleteExpiredMFAPendingSignIns, ["before": .integer(seconds)])
                    + execute(
                        SQLCatalogue.deleteExpiredVerificationSessions,
                        ["before": .integer(seconds), "keep_since": .integer(keepSinceMillis)])
            }
        }
    }
}
