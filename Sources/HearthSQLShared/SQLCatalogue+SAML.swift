import HearthCore

/// The SAML assertion ids that signed in (`saml_assertions`), kept per scope until they expire so that a replayed
/// assertion is refused. `assertion_key` is `<provider id> <assertion id>` (provider ids have no spaces).
extension SQLCatalogue {
    /// Inserts the id unless the scope has it: one row changed for a first use, none for a replay.
    static let insertSAMLAssertion = SQLStatement { d in
        """
        INSERT INTO saml_assertions (tenant_id, assertion_key, expires_at_millis)
        VALUES (\(d.scope), :assertion_key, :expires_at_millis)
        ON CONFLICT (tenant_id, assertion_key) DO NOTHING
        """
    }
    /// Oldest first, at most `:limit` rows, in every scope.
    static let deleteExpiredSAMLAssertions = SQLStatement { _ in
        """
        DELETE FROM saml_assertions WHERE (tenant_id, assertion_key) IN (
            SELECT tenant_id, assertion_key FROM saml_assertions WHERE expires_at_millis < :before
            ORDER BY expires_at_millis LIMIT :limit)
        """
    }

    static let samlAssertionLookups: [(name: String, statement: SQLStatement)] = [
        ("deleteExpiredSAMLAssertions", deleteExpiredSAMLAssertions)
    ]

    static func samlAssertionKey(providerID: String, assertionID: String) -> String { "\(providerID) \(assertionID)" }
}

extension SQLStoreWriting {
    public func insertSAMLAssertion(providerID: String, assertionID: String, expiresAtMillis: Int64) throws -> Bool {
        try run("insertSAMLAssertion") {
            try execute(
                SQLCatalogue.insertSAMLAssertion,
                [
                    "assertion_key": .text(SQLCatalogue.samlAssertionKey(providerID: providerID, assertionID: assertionID)),
                    "expires_at_millis": .integer(expiresAtMillis),
                ]) > 0
        }
    }

    @discardableResult
    public func deleteExpiredSAMLAssertions(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredSAMLAssertions") {
            try execute(
                SQLCatalogue.deleteExpiredSAMLAssertions, ["before": .integer(millis), "limit": SQLValue(max(0, limit))])
        }
    }
}
