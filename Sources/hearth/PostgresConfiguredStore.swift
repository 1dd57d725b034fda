import HearthCore
import HearthPostgres
import HearthServer

/// Opens the PostgreSQL store at `url` with `connections` connections, migrating its schema; errors name the URL
/// without its password. `onWriteRetry` is told of each write run again after losing a race.
func openPostgres(
    url: String, sealer: any SecretSealer, connections: Int, onWriteRetry: @escaping @Sendable () -> Void
) throws -> PostgresStore {
    do {
        return try PostgresStore(url: url, poolSize: connections, sealer: sealer, onWriteRetry: onWriteRetry)
    } catch let error as StoreError {
        let reason = error.detail.isEmpty ? "\(error.code)" : error.detail
        throw StartupError("cannot open database \(PostgresStore.masked(url: url)): \(reason)")
    }
}

/// Exposes the connection pool and the round trips of `store` in `metrics`, when it is a PostgreSQL store (SQLite
/// has no pool to watch and no network between it and Hearth).
func exposeConnectionPool(of store: any HearthStore, in metrics: ServerMetrics?) {
    guard let metrics, let postgres = store as? PostgresStore else { return }
    metrics.exposeConnectionPool { postgres.connectionUsage }
    metrics.exposeRoundTrips { postgres.roundTrips }
}
