public import HearthCore

/// Limit counters (`limit_counters`).
extension SQLCatalogue {
    /// In `StoredRow.limitCounter()`'s order; each is also the name of its bind (`LimitCounter.binds`).
    static let limitCounterColumns = [
        "key", "window_start_millis", "count", "streak", "lockouts", "locked_until_millis", "expires_at_millis",
    ]
    static let limitCounterByKey = SQLStatement { d in
        "SELECT \(list(limitCounterColumns)) FROM limit_counters WHERE tenant_id = \(d.scope) AND key = :key"
    }
    /// Inserts the counter or replaces every column of the one stored under its key.
    static let saveLimitCounter = SQLStatement { d in
        """
        INSERT INTO limit_counters (tenant_id, \(list(limitCounterColumns)))
        VALUES (\(d.scope), \(binds(limitCounterColumns)))
        ON CONFLICT (tenant_id, key) DO UPDATE SET
            \(limitCounterColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    }
    static let deleteLimitCounter = SQLStatement { d in
        "DELETE FROM limit_counters WHERE tenant_id = \(d.scope) AND key = :key"
    }
    /// Oldest first, at most `:limit` rows, so one purge never holds the writer or locks long.
    static let deleteExpiredLimitCounters = SQLStatement { _ in
        """
        DELETE FROM limit_counters WHERE (tenant_id, key) IN (
            SELECT tenant_id, key FROM limit_counters WHERE expires_at_millis < :before ORDER BY expires_at_millis
            LIMIT :limit)
        """
    }

    static let limitCounterLookups: [(name: String, statement: SQLStatement)] = [
        ("limitCounterByKey", limitCounterByKey), ("deleteLimitCounter", deleteLimitCounter),
        ("deleteExpiredLimitCounters", deleteExpiredLimitCounters),
    ]
}

extension SQLStoreReading {
    public func limitCounter(key: String) throws -> LimitCounter? {
        try run("limitCounter(key:)") {
            try queryFirst(SQLCatalogue.limitCounterByKey, ["key": .text(key)]) { try $0.limitCounter() }
        }
    }
}

extension SQLStoreWriting {
    public func saveLimitCounter(_ counter: LimitCounter) throws {
        try run("saveLimitCounter") { try execute(SQLCatalogue.saveLimitCounter, counter.binds) }
    }

    @discardableResult
    public func deleteLimitCounter(key: String) throws -> Bool {
        try run("deleteLimitCounter") { try execute(SQLCatalogue.deleteLimitCounter, ["key": .text(key)]) > 0 }
    }

    @discardableResult
    public func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredLimitCounters") {
            try execute(
                SQLCatalogue.deleteExpiredLimitCounters, ["before": .integer(millis), "limit": SQLValue(max(0, limit))])
        }
    }
}
