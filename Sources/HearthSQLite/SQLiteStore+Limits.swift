import HearthCore
import HearthSQLShared
import SQLite

/// Limit counters (`limit_counters`).
extension SQLiteStoreReader {
    // MARK: Limits

    final func limitCounter(key: String) throws -> LimitCounter? {
        try run("limitCounter(key:)") {
            try connection.queryFirst(SQL.limitCounterByKey, [.text(key)]) { try $0.limitCounter() }
        }
    }
}

extension SQLiteStoreWriter {
    // MARK: Limits

    func saveLimitCounter(_ counter: LimitCounter) throws {
        try run("saveLimitCounter") {
            try execute(
                SQL.saveLimitCounter,
                [
                    .text(counter.key), .integer(counter.windowStartMillis), SQLiteValue(counter.count),
                    SQLiteValue(counter.streak), SQLiteValue(counter.lockouts), .integer(counter.lockedUntilMillis),
                    .integer(counter.expiresAtMillis),
                ])
        }
    }

    @discardableResult
    func deleteLimitCounter(key: String) throws -> Bool {
        try run("deleteLimitCounter") { try execute(SQL.deleteLimitCounter, [.text(key)]) > 0 }
    }

    @discardableResult
    func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int {
        try run("deleteExpiredLimitCounters") {
            try execute(SQL.deleteExpiredLimitCounters, [.integer(millis), SQLiteValue(max(0, limit))])
        }
    }
}

extension SQL {
    static let limitCounterByKey = """
        SELECT key, window_start_millis, count, streak, lockouts, locked_until_millis, expires_at_millis
        FROM limit_counters WHERE tenant_id = hearth_tenant() AND key = ?
        """
    static let saveLimitCounter = """
        INSERT OR REPLACE INTO limit_counters (tenant_id, key, window_start_millis, count, streak, lockouts,
            locked_until_millis, expires_at_millis)
        VALUES (hearth_tenant(), ?, ?, ?, ?, ?, ?, ?)
        """
    static let deleteLimitCounter = "DELETE FROM limit_counters WHERE tenant_id = hearth_tenant() AND key = ?"
    /// Oldest first, at most `?2` rows, so one purge never holds the writer long.
    static let deleteExpiredLimitCounters = """
        DELETE FROM limit_counters WHERE (tenant_id, key) IN (
            SELECT tenant_id, key FROM limit_counters WHERE expires_at_millis < ?1 ORDER BY expires_at_millis LIMIT ?2)
        """
}
