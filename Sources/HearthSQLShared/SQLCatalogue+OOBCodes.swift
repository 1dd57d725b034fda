public import HearthCore

/// Email action codes (`oob_codes`), by hash only.
extension SQLCatalogue {
    /// In `StoredRow.oobCode()`'s order; each is also the name of its bind (`OOBCodeRecord.binds`).
    static let oobCodeColumns = [
        "code_hash", "kind", "local_id", "email", "new_email", "continue_url", "created_at_millis", "expires_at_millis",
    ]
    static let oobCodeByHash = SQLStatement { d in
        "SELECT \(list(oobCodeColumns)) FROM oob_codes WHERE tenant_id = \(d.scope) AND code_hash = :code_hash"
    }
    static let insertOOBCode = SQLStatement { d in
        "INSERT INTO oob_codes (tenant_id, \(list(oobCodeColumns))) VALUES (\(d.scope), \(binds(oobCodeColumns)))"
    }
    static let deleteOOBCode = SQLStatement { d in
        "DELETE FROM oob_codes WHERE tenant_id = \(d.scope) AND code_hash = :code_hash"
    }
    static let deleteOOBCodesOfAccount = SQLStatement { d in
        "DELETE FROM oob_codes WHERE tenant_id = \(d.scope) AND local_id = :local_id AND kind \(d.isDistinctFrom) :kept"
    }
    /// Oldest first, at most `:limit` rows, so one purge never holds the writer or locks long.
    static let deleteExpiredOOBCodes = SQLStatement { _ in
        """
        DELETE FROM oob_codes WHERE code_hash IN (
            SELECT code_hash FROM oob_codes WHERE expires_at_millis < :before ORDER BY expires_at_millis LIMIT :limit)
        """
    }

    static let oobCodeLookups: [(name: String, statement: SQLStatement)] = [
        ("oobCodeByHash", oobCodeByHash), ("deleteOOBCode", deleteOOBCode),
        ("deleteOOBCodesOfAccount", deleteOOBCodesOfAccount), ("deleteExpiredOOBCodes", deleteExpiredOOBCodes),
    ]
}

extension SQLStoreReading {
    public func oobCode(hash: String) throws -> OOBCodeRecord? {
        try run("oobCode(hash:)") {
            try queryFirst(SQLCatalogue.oobCodeByHash, ["code_hash": .text(hash)]) { try $0.oobCode() }
        }
    }
}

extension SQLStoreWriting {
    public func insertOOBCode(_ code: OOBCodeRecord) throws {
        try run("insertOOBCode") {
            try execute(SQLCatalogue.insertOOBCode, code.binds) { $0.isTaken ? .duplicateToken : nil }
        }
    }

    @discardableResult
    public func deleteOOBCode(hash: String) throws -> Bool {
        try run("deleteOOBCode") { try execute(SQLCatalogue.deleteOOBCode, ["code_hash": .text(hash)]) > 0 }
    }

    @discardableResult
    public func deleteOOBCodes(localID: String, keeping kept: OOBCodeRecord.Kind?) throws -> Int {
        try run("deleteOOBCodes(localID:keeping:)") {
            try execute(SQLCatalogue.deleteOOBCodesOfAccount, ["local_id": .text(localID), "kept": SQLValue(kept?.rawValue)])
        }
    }

    @discardableResult
    public func deleteExpiredOOBCodes(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredOOBCodes") {
            try execute(SQLCatalogue.deleteExpiredOOBCodes, ["before": .integer(millis), "limit": SQLValue(max(0, limit))])
        }
    }
}
