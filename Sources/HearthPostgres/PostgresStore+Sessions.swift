import Postgres

extension PostgresStore {
    /// How many other client sessions are connected to this store's database (`pg_stat_activity`): other Hearth
    /// instances, `psql`, … . The connection that asks does not count; the store's other pooled connections would, so
    /// ask from a store of one connection.
    ///
    /// - Throws: `StoreError` `.unavailable` when PostgreSQL cannot be asked.
    public func otherSessionCount() throws -> Int {
        try withFreshConnection(operation: "count sessions") { connection in
            let rows = try connection.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                """)
            return Int(try rows.first?.requiredInt64(0) ?? 0)
        }
    }
}
