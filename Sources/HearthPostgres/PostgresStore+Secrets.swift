public import HearthCore
import HearthSQLShared
import Postgres

/// The secret columns go through the store's `SecretSealer`: sealed on every write, opened on every read; these
/// check or rewrite all of them (`SQLStoreSession.secretInventory()`, `resealSecrets()`).
extension PostgresStore {
    public func secretInventory() throws -> SecretInventory {
        try read { try ($0 as! PostgresStoreReader).secretInventory() }
    }

    /// The rows whose secret was rewritten are vacuumed afterwards, so that their old versions (plain, or sealed under
    /// a key being retired) leave the tables; copies in the write-ahead log and in earlier backups remain until
    /// those are recycled (see docs/DEPLOYMENT.md).
    public func resealSecrets() throws -> SecretInventory {
        let (before, rewrittenTables) = try write { try ($0 as! PostgresStoreWriter).resealSecrets() }
        try withFreshConnection(operation: "resealSecrets") { connection in
            // Table names come from `SecretColumn.all`, not from input.
            for table in rewrittenTables.sorted() { try connection.execute("VACUUM \(table)") }
        }
        return before
    }
}
