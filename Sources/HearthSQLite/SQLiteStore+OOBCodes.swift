import HearthCore
import HearthSQLShared
import SQLite

/// Email action codes (`oob_codes`, migration 9), by hash only.
extension SQLiteStoreReader {
    final func oobCode(hash: String) throws -> OOBCodeRecord? {
        try run("oobCode(hash:)") {
            try connection.queryFirst(SQL.oobCodeByHash, [.text(hash)]) { try $0.oobCode() }
        }
    }
}

extension SQLiteStoreWriter {
    func insertOOBCode(_ code: OOBCodeRecord) throws {
        try run("insertOOBCode") {
            try execute(
                SQL.insertOOBCode,
                [
                    .text(code.codeHash), .text(code.kind.rawValue), SQLiteValue(code.localID), .text(code.email.lowercased()),
                    SQLiteValue(code.newEmail?.lowercased()), SQLiteValue(code.continueURL), .integer(code.createdAtMillis),
                    .integer(code.expiresAtMillis),
                ]
            ) { result in result == .constraintPrimaryKey || result == .constraintUnique ? .duplicateToken : nil }
        }
    }

    @discardableResult
    func deleteOOBCode(hash: String) throws -> Bool {
        try run("deleteOOBCode") { try execute(SQL.deleteOOBCode, [.text(hash)]) > 0 }
    }

    @discardableResult
    func deleteOOBCodes(localID: String, keeping kept: OOBCodeRecord.Kind?) throws -> Int {
        try run("deleteOOBCodes(localID:keeping:)") {
            try execute(SQL.deleteOOBCodesOfAccount, [.text(localID), SQLiteValue(kept?.rawValue)])
        }
    }

    @discardableResult
    func deleteExpiredOOBCodes(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredOOBCodes") {
            try execute(SQL.deleteExpiredOOBCodes, [.integer(millis), SQLiteValue(max(0, limit))])
        }
    }
}

extension SQL {
    private static let oobCodeColumns = [
        "code_hash", "kind", "local_id", "email", "new_email", "continue_url", "created_at_millis", "expires_at_millis",
    ]
    static let oobCodeByHash = "SELECT \(oobCodeColumns.joined(separator: ", ")) FROM oob_codes WHERE tenant_id = hearth_tenant() AND code_hash = ?"
    static let insertOOBCode = """
        INSERT INTO oob_codes (tenant_id, \(oobCodeColumns.joined(separator: ", ")))
        VALUES (hearth_tenant(), \(Array(repeating: "?", count: oobCodeColumns.count).joined(separator: ", ")))
        """
    static let deleteOOBCode = "DELETE FROM oob_codes WHERE tenant_id = hearth_tenant() AND code_hash = ?"
    static let deleteOOBCodesOfAccount = "DELETE FROM oob_codes WHERE tenant_id = hearth_tenant() AND local_id = ?1 AND kind IS NOT ?2"
    /// Oldest first, at most `?2` rows, so one purge never holds the writer long.
    static let deleteExpiredOOBCodes = """
        DELETE FROM oob_codes WHERE code_hash IN (
            SELECT code_hash FROM oob_codes WHERE expires_at_millis < ?1 ORDER BY expires_at_millis LIMIT ?2)
        """

    /// The code lookups that must be served by an index (part of `indexedLookups`).
    static let oobCodeLookups: [(name: String, sql: String)] = [
        ("oobCodeByHash", oobCodeByHash), ("deleteOOBCode", deleteOOBCode), ("deleteOOBCodesOfAccount", deleteOOBCodesOfAccount),
        ("deleteExpiredOOBCodes", deleteExpiredOOBCodes),
    ]
}
