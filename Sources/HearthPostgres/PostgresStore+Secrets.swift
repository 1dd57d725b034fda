public import HearthCore
import HearthSQLShared
import Postgres

/// The secret columns go through the store's `SecretSealer`: sealed on every write, opened on every read (by the
/// decoders of `StoredRow`).
extension PostgresStoreReader {
    /// The value to bind for a secret kept in a BYTEA column.
    func sealedValue(_ secret: [UInt8]?, _ field: SecretField) throws -> PostgresValue {
        .nullable(try secret.map { try sealer.seal($0, for: field) })
    }

    /// The value to bind for a secret kept in a TEXT column (sealed values are ASCII).
    func sealedValue(_ secret: String, _ field: SecretField) throws -> PostgresValue {
        .text(String(decoding: try sealer.seal(Array(secret.utf8), for: field), as: UTF8.self))
    }
}

extension PostgresStore {
    public func secretInventory() throws -> SecretInventory {
        try read { reader in
            var inventory = SecretInventory()
            try forEachSecret(in: reader as! PostgresStoreReader) { column, recordID, entry in
                _ = try sealer.check(entry.stored, for: SecretField(column.kind, recordID: recordID), counting: &inventory)
            }
            return inventory
        }
    }

    /// The rows whose secret was rewritten are vacuumed afterwards, so that their old versions (plain, or sealed under
    /// a key being retired) leave the tables; copies in the write-ahead log and in earlier backups remain until
    /// those are recycled (see docs/DEPLOYMENT.md).
    public func resealSecrets() throws -> SecretInventory {
        let (before, rewrittenTables) = try write { writer in
            let writer = writer as! PostgresStoreWriter
            var inventory = SecretInventory()
            var rewrittenTables: Set<String> = []
            try forEachSecret(in: writer) { column, recordID, entry in
                let field = SecretField(column.kind, recordID: recordID)
                guard let sealed = try sealer.check(entry.stored, for: field, counting: &inventory) else { return }
                let value: PostgresValue = column.isText ? .text(String(decoding: sealed, as: UTF8.self)) : .bytes(sealed)
                try writer.update(column.update { "$\($0)" }, [value] + entry.key.map { .text($0) })
                rewrittenTables.insert(column.table)
            }
            return (inventory, rewrittenTables)
        }
        try withFreshConnection(operation: "resealSecrets") { connection in
            // Table names come from `SecretColumn.all`, not from input.
            for table in rewrittenTables.sorted() { try connection.execute("VACUUM \(table)") }
        }
        return before
    }

    private func forEachSecret(
        in reader: PostgresStoreReader, _ body: (SecretColumn, String, SecretColumn.Entry) throws -> Void
    ) throws {
        try SecretColumn.forEachSecret(
            page: { column, after in
                try reader.rows(column.page(after: after) { "$\($0)" }, after.map { .text($0) }) { try column.entry($0) }
            }, body)
    }
}
