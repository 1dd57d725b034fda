import HearthCore
import HearthSQLShared
import SQLite

/// Refresh-token sessions (`refresh_sessions`), the legacy tokens of migration 5, and their purges.
extension SQLiteStoreReader {
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
}

extension SQLiteStoreWriter {
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

extension SQL {
    /// Every column of `refresh_sessions`, in `RefreshSession`'s order (`replaced` last, as three).
    static let refreshSessionColumns = [
        "session_id", "local_id", "sign_in_provider", "auth_time", "second_factor", "second_factor_identifier",
        "session_claims", "started_at_millis", "revoked_at_millis", "current_token_hash", "replaced_token_hash",
        "replaced_at_millis", "sealed_successor",
    ]
    static let refreshSessionByID = """
        SELECT \(refreshSessionColumns.joined(separator: ", ")) FROM refresh_sessions
        WHERE tenant_id = hearth_tenant() AND session_id = ?
        """
    /// The session of a token issued before migration 5; none if the session is gone.
    static let refreshSessionByLegacyToken = """
        SELECT \(refreshSessionColumns.map { "s.\($0)" }.joined(separator: ", "))
        FROM legacy_refresh_tokens AS t JOIN refresh_sessions AS s ON s.session_id = t.session_id
        WHERE t.token_hash = ? AND s.tenant_id = hearth_tenant()
        """
    static let refreshSessionPage = """
        SELECT \(refreshSessionColumns.joined(separator: ", ")) FROM refresh_sessions
        WHERE tenant_id = hearth_tenant() AND session_id > ?
        ORDER BY session_id LIMIT ?
        """
    static let refreshSessionExists = "SELECT 1 FROM refresh_sessions WHERE session_id = ?"
    /// Inserts only if the account ?2 exists (no foreign key: sessions outlive their account).
    static let insertRefreshSession = """
        INSERT INTO refresh_sessions (tenant_id, \(refreshSessionColumns.joined(separator: ", ")))
        SELECT hearth_tenant(), \((1...refreshSessionColumns.count).map { "?\($0)" }.joined(separator: ", "))
        WHERE EXISTS (SELECT 1 FROM accounts WHERE tenant_id = hearth_tenant() AND local_id = ?2)
        """
    /// Only from the current token ?5 of a live session whose account exists. No indexed column changes.
    static let rotateRefreshSession = """
        UPDATE refresh_sessions
        SET current_token_hash = ?1, replaced_token_hash = current_token_hash, replaced_at_millis = ?2,
            sealed_successor = ?3
        WHERE tenant_id = hearth_tenant() AND session_id = ?4 AND current_token_hash = ?5 AND revoked_at_millis IS NULL
            AND EXISTS (
                SELECT 1 FROM accounts
                WHERE accounts.tenant_id = refresh_sessions.tenant_id AND accounts.local_id = refresh_sessions.local_id)
        """
    static let liveSessionIDs = """
        SELECT session_id FROM refresh_sessions WHERE tenant_id = hearth_tenant() AND local_id = ? AND revoked_at_millis IS NULL
        ORDER BY started_at_millis DESC, session_id DESC LIMIT -1 OFFSET ?
        """
    static let revokeSession = """
        UPDATE refresh_sessions SET revoked_at_millis = ?
        WHERE tenant_id = hearth_tenant() AND session_id = ? AND revoked_at_millis IS NULL
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
            SELECT s.session_id FROM refresh_sessions AS s LEFT JOIN accounts AS a
                ON a.tenant_id = s.tenant_id AND a.local_id = s.local_id
            WHERE s.session_id > ?1 AND s.session_id <= ?2 AND s.revoked_at_millis IS NULL
                AND (a.local_id IS NULL OR s.started_at_millis < a.valid_since_millis))
        """
    static let purgeSessions = """
        DELETE FROM refresh_sessions WHERE session_id > ?1 AND session_id <= ?2 AND revoked_at_millis < ?3
        """
}
