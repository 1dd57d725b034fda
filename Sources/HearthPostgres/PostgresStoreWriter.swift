import HearthCore
import HearthSQLShared
import Postgres

/// The `StoreWriter` handed to `PostgresStore.write`: runs inside the closure's serializable transaction. Each method
/// is atomic on its own: one that fails changes nothing and leaves the transaction usable (a statement that may
/// break a constraint runs in a savepoint, as a failed statement would abort the whole transaction), so a body may
/// catch a `StoreError` and go on.
final class PostgresStoreWriter: PostgresStoreReader, SQLStoreWriting {
    /// - Parameter locksRows: the accounts and refresh sessions read through this writer are read `FOR UPDATE`
    ///   (a `.rowLocks` write, at `READ COMMITTED`).
    init(connection: PostgresConnection, sealer: any SecretSealer, locksRows: Bool) {
        super.init(connection: connection, sealer: sealer)
        snapshots = AccountSnapshots()
        self.locksRows = locksRows
    }

    // MARK: Sessions (refresh-token rotation)

    /// This store never held legacy refresh tokens: nothing to purge.
    func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
        throws -> RefreshTokenPurgeStep
    {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("purgeLegacyRefreshTokens") { RefreshTokenPurgeStep(deleted: 0, next: nil) }
    }
}
