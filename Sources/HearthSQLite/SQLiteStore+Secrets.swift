public import HearthCore
import HearthSQLShared
import SQLite

/// The secret columns go through the store's `SecretSealer`: sealed on every write, opened on every read (by the
/// decoders of `StoredRow`).
extension SQLiteStoreReader {
    /// The value to bind for a secret kept in a BLOB column.
    func sealedValue(_ secret: [UInt8]?, _ field: SecretField) throws -> SQLiteValue {
        SQLiteValue(try secret.map { try sealer.seal($0, for: field) })
    }

    /// The value to bind for a secret kept in a TEXT column (sealed values are ASCII).
    func sealedValue(_ secret: String, _ field: SecretField) throws -> SQLiteValue {
        .text(String(decoding: try sealer.seal(Array(secret.utf8), for: field), as: UTF8.self))
    }
}

extension SQLiteStore: SecretResealing {
    public func secretInventory() throws -> SecretInventory {
        do {
            return try pool.read { connection in
                var inventory = SecretInventory()
                try Self.forEachSecret(on: connection) { column, recordID, entry in
                    _ = try sealer.check(entry.stored, for: SecretField(column.kind, recordID: recordID), counting: &inventory)
                }
                return inventory
            }
        } catch {
            throw translateStoreError(error, operation: "secretInventory")
        }
    }

    /// After rewriting anything, the file is vacuumed (`SQLiteConnectionPool.vacuum()`), so the values it
    /// replaced (plain, or sealed under a key being retired) are not left in free space or in the WAL.
    public func resealSecrets() throws -> SecretInventory {
        do {
            let (before, rewritten) = try pool.write { connection in
                var inventory = SecretInventory()
                var rewritten = 0
                try Self.forEachSecret(on: connection) { column, recordID, entry in
                    let field = SecretField(column.kind, recordID: recordID)
                    guard let sealed = try sealer.check(entry.stored, for: field, counting: &inventory) else { return }
                    let value: SQLiteValue = column.isText ? .text(String(decoding: sealed, as: UTF8.self)) : .blob(sealed)
                    try connection.execute(column.update { _ in "?" }, [value] + entry.key.map { .text($0) })
                    rewritten += 1
                }
                return (inventory, rewritten)
            }
            if rewritten > 0 { try pool.vacuum() }
            return before
        } catch {
            throw translateStoreError(error, operation: "resealSecrets")
        }
    }

    private static func forEachSecret(
        on connection: SQLiteConnection, _ body: (SecretColumn, String, SecretColumn.Entry) throws -> Void
    ) throws {
        try SecretColumn.forEachSecret(
            page: { column, after in
                try connection.queryAll(column.page(after: after) { _ in "?" }, after.map { .text($0) }) {
                    try column.entry($0)
                }
            }, body)
    }
}
