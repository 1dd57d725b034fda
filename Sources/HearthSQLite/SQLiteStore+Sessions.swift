import HearthCore
import HearthSQLShared
import SQLite

/// The legacy refresh tokens of migration 5 (issued before sessions, which `SQLCatalogue` serves), and their purge.
extension SQLiteStoreReader {
    final func refreshSession(legacyTokenHash: String) throws -> RefreshSession? {
        try run("refreshSession(legacyTokenHash:)") {
            try connection.queryFirst(SQL.refreshSessionByLegacyToken, [.text(legacyTokenHash)]) { try $0.refreshSession() }
        }
    }
}

extension SQLiteStoreWriter {
    /// One step: the first `limit` hashes after `cursor`, then the purge of that range, in one savepoint.
    func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
        throws -> RefreshTokenPurgeStep
    {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("purgeLegacyRefreshTokens") {
            try connection.savepoint {
                let start = SQLiteValue.text(cursor ?? "")
                let page = try connection.queryAll(SQL.legacyRefreshTokenPage, [start, .integer(Int64(limit))]) {
                    try $0.requiredText(0)
                }
                guard let last = page.last else { return RefreshTokenPurgeStep(deleted: 0, next: nil) }
                let deleted = try connection.execute(
                    SQL.purgeLegacyRefreshTokens, [start, .text(last), .integer(rotatedBefore), .integer(revokedBefore)])
                return RefreshTokenPurgeStep(deleted: deleted, next: page.count == limit ? last : nil)
            }
        }
    }
}

extension SQL {
    /// The session of a token issued before migration 5; none if the session is gone.
    static let refreshSessionByLegacyToken = """
        SELECT \(SQLCatalogue.refreshSessionColumns.map { "s.\($0)" }.joined(separator: ", "))
        FROM legacy_refresh_tokens AS t JOIN refresh_sessions AS s ON s.session_id = t.session_id
        WHERE t.token_hash = ? AND s.tenant_id = hearth_tenant()
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
}
