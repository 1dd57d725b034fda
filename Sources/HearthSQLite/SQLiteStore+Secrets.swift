public import HearthCore
import HearthSQLShared
import SQLite

/// The secret columns go through the store's `SecretSealer`: sealed on every write, opened on every read; these
/// check or rewrite all of them (`SQLStoreSession.secretInventory()`, `resealSecrets()`).
extension SQLiteStore: SecretResealing {
    public func secretInventory() throws -> SecretInventory {
        try read { try ($0 as! SQLiteStoreReader).secretInventory() }
    }

    /// After rewriting anything, the file is vacuumed (`SQLiteConnectionPool.vacuum()`), so the values it
    /// replaced (plain, or sealed under a key being retired) are not left in free space or in the WAL.
    public func resealSecrets() throws -> SecretInventory {
        let (before, rewrittenTables) = try write { try ($0 as! SQLiteStoreWriter).resealSecrets() }
        do {
            if !rewrittenTables.isEmpty { try pool.vacuum() }
        } catch {
            throw translateStoreError(error, operation: "resealSecrets")
        }
        return before
    }
}
