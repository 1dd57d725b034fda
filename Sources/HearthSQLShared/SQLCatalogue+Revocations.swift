public import HearthCore

/// The provider-token revocation queue (`provider_token_revocations`); tokens sealed under their revocation's id.
extension SQLCatalogue {
    /// In `StoredRow.providerTokenRevocation(sealer:)`'s order; each is also the name of its bind.
    static let providerTokenRevocationColumns = [
        "revocation_id", "provider_id", "client_id", "token", "token_type_hint", "local_id", "created_at_millis",
        "attempts", "next_attempt_at_millis", "last_error",
    ]
    private static let providerTokenRevocationSelect =
        "SELECT \(list(providerTokenRevocationColumns)) FROM provider_token_revocations"
    /// By the index `provider_token_revocations_due`.
    static let dueProviderTokenRevocations = SQLStatement { _ in
        """
        \(providerTokenRevocationSelect) WHERE next_attempt_at_millis <= :at
        ORDER BY next_attempt_at_millis, revocation_id LIMIT :limit
        """
    }
    static let providerTokenRevocationByID = SQLStatement { _ in
        "\(providerTokenRevocationSelect) WHERE revocation_id = :revocation_id"
    }
    static let insertProviderTokenRevocation = SQLStatement { _ in
        """
        INSERT INTO provider_token_revocations (\(list(providerTokenRevocationColumns)))
        VALUES (\(binds(providerTokenRevocationColumns)))
        """
    }
    static let recordFailedProviderTokenRevocation = SQLStatement { _ in
        """
        UPDATE provider_token_revocations SET \(assignments(["attempts", "next_attempt_at_millis", "last_error"]))
        WHERE revocation_id = :revocation_id
        """
    }
    static let deleteProviderTokenRevocation = SQLStatement { _ in
        "DELETE FROM provider_token_revocations WHERE revocation_id = :revocation_id"
    }

    static let providerTokenRevocationLookups: [(name: String, statement: SQLStatement)] = [
        ("dueProviderTokenRevocations", dueProviderTokenRevocations),
        ("providerTokenRevocationByID", providerTokenRevocationByID),
        ("recordFailedProviderTokenRevocation", recordFailedProviderTokenRevocation),
        ("deleteProviderTokenRevocation", deleteProviderTokenRevocation),
    ]
}

extension SQLStoreReading {
    public func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("dueProviderTokenRevocations") {
            try query(SQLCatalogue.dueProviderTokenRevocations, ["at": .integer(millis), "limit": SQLValue(limit)]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }

    public func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation? {
        try run("providerTokenRevocation(id:)") {
            try queryFirst(SQLCatalogue.providerTokenRevocationByID, ["revocation_id": .text(id)]) {
                try $0.providerTokenRevocation(sealer: sealer)
            }
        }
    }
}

extension SQLStoreWriting {
    public func enqueueProviderTokenRevocation(_ revocation: ProviderTokenRevocation) throws {
        try run("enqueueProviderTokenRevocation") {
            try execute(SQLCatalogue.insertProviderTokenRevocation, try revocation.binds(self)) {
                $0.isTaken ? .duplicateToken : nil
            }
        }
    }

    @discardableResult
    public func recordFailedProviderTokenRevocation(id: String, atMillis millis: Int64, error: String) throws
        -> ProviderTokenRevocation?
    {
        guard let stored = try providerTokenRevocation(id: id) else { return nil }
        let failed = stored.failed(atMillis: millis, error: error)
        try run("recordFailedProviderTokenRevocation") {
            try execute(
                SQLCatalogue.recordFailedProviderTokenRevocation,
                [
                    "attempts": SQLValue(failed.attempts), "next_attempt_at_millis": .integer(failed.nextAttemptAtMillis),
                    "last_error": SQLValue(failed.lastError), "revocation_id": .text(id),
                ])
        }
        return failed
    }

    @discardableResult
    public func deleteProviderTokenRevocation(id: String) throws -> Bool {
        try run("deleteProviderTokenRevocation") {
            try execute(SQLCatalogue.deleteProviderTokenRevocation, ["revocation_id": .text(id)]) > 0
        }
    }
}
