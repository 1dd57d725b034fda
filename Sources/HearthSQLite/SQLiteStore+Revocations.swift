import HearthCore
import HearthSQLShared
import SQLite

/// The provider-token revocation queue (`provider_token_revocations`, migration 8); tokens sealed under their
/// revocation's id.
extension SQLiteStoreReader {
    final func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("dueProviderTokenRevocations") {
            try connection.queryAll(SQL.dueProviderTokenRevocations, [.integer(millis), .integer(Int64(limit))]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }

    final func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation? {
        try run("providerTokenRevocation(id:)") {
            try connection.queryFirst(SQL.providerTokenRevocationByID, [.text(id)]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }
}

extension SQLiteStoreWriter {
    func enqueueProviderTokenRevocation(_ revocation: ProviderTokenRevocation) throws {
        try run("enqueueProviderTokenRevocation") {
            try execute(SQL.insertProviderTokenRevocation, try revocationValues(revocation)) { code in
                code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil
            }
        }
    }

    @discardableResult
    func recordFailedProviderTokenRevocation(id: String, atMillis millis: Int64, error: String) throws
        -> ProviderTokenRevocation?
    {
        guard let stored = try providerTokenRevocation(id: id) else { return nil }
        let failed = stored.failed(atMillis: millis, error: error)
        try run("recordFailedProviderTokenRevocation") {
            try execute(
                SQL.recordFailedProviderTokenRevocation,
                [SQLiteValue(failed.attempts), .integer(failed.nextAttemptAtMillis), SQLiteValue(failed.lastError), .text(id)])
        }
        return failed
    }

    @discardableResult
    func deleteProviderTokenRevocation(id: String) throws -> Bool {
        try run("deleteProviderTokenRevocation") { try execute(SQL.deleteProviderTokenRevocation, [.text(id)]) > 0 }
    }

    /// The values of `SQL.insertProviderTokenRevocation`, in its column order; the token sealed.
    private func revocationValues(_ revocation: ProviderTokenRevocation) throws -> [SQLiteValue] {
        [
            .text(revocation.id), .text(revocation.providerID), .text(revocation.clientID),
            try sealedValue(Array(revocation.token.utf8), SecretField(.providerTokenRevocation, recordID: revocation.id)),
            .text(revocation.tokenTypeHint), .text(revocation.localID), .integer(revocation.createdAtMillis),
            SQLiteValue(revocation.attempts), .integer(revocation.nextAttemptAtMillis), SQLiteValue(revocation.lastError),
        ]
    }
}

extension SQL {
    static let providerTokenRevocationColumns = [
        "revocation_id", "provider_id", "client_id", "token", "token_type_hint", "local_id", "created_at_millis",
        "attempts", "next_attempt_at_millis", "last_error",
    ]
    private static let providerTokenRevocationSelect = """
        SELECT \(providerTokenRevocationColumns.joined(separator: ", ")) FROM provider_token_revocations
        """
    /// By the index `provider_token_revocations_due`.
    static let dueProviderTokenRevocations = """
        \(providerTokenRevocationSelect) WHERE next_attempt_at_millis <= ?
        ORDER BY next_attempt_at_millis, revocation_id LIMIT ?
        """
    static let providerTokenRevocationByID = "\(providerTokenRevocationSelect) WHERE revocation_id = ?"
    static let insertProviderTokenRevocation = """
        INSERT INTO provider_token_revocations (\(providerTokenRevocationColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: providerTokenRevocationColumns.count).joined(separator: ", ")))
        """
    static let recordFailedProviderTokenRevocation = """
        UPDATE provider_token_revocations SET attempts = ?, next_attempt_at_millis = ?, last_error = ?
        WHERE revocation_id = ?
        """
    static let deleteProviderTokenRevocation = "DELETE FROM provider_token_revocations WHERE revocation_id = ?"

    /// The queue's lookups that must be served by an index (part of `indexedLookups`).
    static let providerTokenRevocationLookups: [(name: String, sql: String)] = [
        ("dueProviderTokenRevocations", dueProviderTokenRevocations),
        ("providerTokenRevocationByID", providerTokenRevocationByID),
        ("recordFailedProviderTokenRevocation", recordFailedProviderTokenRevocation),
        ("deleteProviderTokenRevocation", deleteProviderTokenRevocation),
    ]
}
