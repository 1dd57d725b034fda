public import HearthCore
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
                try SecretColumn.forEachSecret(on: connection) { column, recordID, _, stored in
                    _ = try sealer.open(stored, for: SecretField(column.kind, recordID: recordID))
                    inventory.count(sealer.state(of: stored))
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
                try SecretColumn.forEachSecret(on: connection) { column, recordID, key, stored in
                    let state = sealer.state(of: stored)
                    inventory.count(state)
                    let field = SecretField(column.kind, recordID: recordID)
                    let secret = try sealer.open(stored, for: field)
                    guard sealer.needsResealing(state) else { return }
                    let sealed = try sealer.seal(secret, for: field)
                    let value: SQLiteValue = column.isText ? .text(String(decoding: sealed, as: UTF8.self)) : .blob(sealed)
                    try connection.execute(column.update, [value] + key)
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
}

/// A column that holds secrets, with the key columns that name each row's record. Read in pages in key order, so
/// that going through every secret takes bounded memory.
private struct SecretColumn {
    let kind: SecretField.Kind
    let table: String
    /// The columns of a unique key; the record id is their values joined by `/`.
    let keys: [String]
    let column: String
    /// TEXT (a PEM) rather than BLOB.
    let isText: Bool

    static let all = [
        SecretColumn(kind: .signingKey, table: "signing_keys", keys: ["key_id"], column: "private_key_pem", isText: true),
        SecretColumn(
            kind: .mfaEnrollmentTOTPSecret, table: "mfa_enrollments", keys: ["enrollment_id"], column: "totp_secret",
            isText: false),
        SecretColumn(
            kind: .verificationSessionTOTPSecret, table: "verification_sessions", keys: ["session_hash"],
            column: "totp_secret", isText: false),
        SecretColumn(
            kind: .identityProviderRefreshToken, table: "identities", keys: ["provider_id", "raw_id"],
            column: "provider_refresh_token", isText: false),
        SecretColumn(
            kind: .providerTokenRevocation, table: "provider_token_revocations", keys: ["revocation_id"],
            column: "token", isText: false),
    ]

    static let pageSize = 500

    private var keyList: String { keys.joined(separator: ", ") }
    private var keyParameters: String { keys.map { _ in "?" }.joined(separator: ", ") }
    private var select: String { "SELECT \(keyList), \(column) FROM \(table) WHERE \(column) IS NOT NULL" }
    var firstPage: String { "\(select) ORDER BY \(keyList) LIMIT \(Self.pageSize)" }
    var nextPage: String { "\(select) AND (\(keyList)) > (\(keyParameters)) ORDER BY \(keyList) LIMIT \(Self.pageSize)" }
    var update: String {
        "UPDATE \(table) SET \(column) = ? WHERE \(keys.map { "\($0) = ?" }.joined(separator: " AND "))"
    }

    /// Calls `body` with every stored secret: its column, its record's id, its key values (for `update`) and its
    /// stored bytes. `body` may update the secret column of the row it is given.
    static func forEachSecret(
        on connection: SQLiteConnection, _ body: (SecretColumn, String, [SQLiteValue], [UInt8]) throws -> Void
    ) throws {
        for column in all {
            var after: [SQLiteValue]?
            repeat {
                let page = try connection.queryAll(after == nil ? column.firstPage : column.nextPage, after ?? []) { row in
                    let key = try (0..<column.keys.count).map { try row.requiredText($0) }
                    let stored = column.isText
                        ? Array(try row.requiredText(column.keys.count).utf8) : row.blob(column.keys.count) ?? []
                    return (key, stored)
                }
                for (key, stored) in page {
                    try body(column, key.joined(separator: "/"), key.map { .text($0) }, stored)
                }
                after = page.count == pageSize ? page.last.map { $0.0.map { .text($0) } } : nil
            } while after != nil
        }
    }
}
