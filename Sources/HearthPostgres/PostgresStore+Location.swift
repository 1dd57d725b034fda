import HearthCore
import Postgres

extension PostgresStore {
    /// `url` as logs, banners and errors may show it, with no password nor any part of one
    /// (`PostgresConnectionString.masked`: everything between `://` and the last `@` but a plain user name, and the
    /// query from its first password parameter on).
    public static func masked(url: String) -> String {
        PostgresConnectionString.masked(url)
    }

    /// Whether `url` says a pooler in transaction mode is in between (`pool_mode=transaction`, Hearth's parameter),
    /// so statements go unnamed; `false` for `pool_mode=session` or none.
    ///
    /// - Throws: `StoreError` `.unavailable` for another `pool_mode` (the message does not repeat the URL).
    public static func isBehindTransactionPooler(url: String) throws -> Bool {
        do {
            return try PostgresConnectionString.poolMode(url).poolMode == .transaction
        } catch {
            throw translatePostgresError(error, operation: "database URL")
        }
    }
}
