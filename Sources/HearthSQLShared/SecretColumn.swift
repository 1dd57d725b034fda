public import HearthCore

/// A column of the SQL stores (SQLite and PostgreSQL, whose schemas name tables and columns alike) that holds secrets,
/// with the key columns that name each row's record: what `SecretResealing` goes through. Read in pages in key order,
/// so that going through every secret takes bounded memory.
public struct SecretColumn: Sendable {
    public let kind: SecretField.Kind
    public let table: String
    /// The columns of a unique key; the record id is their values joined by `/`.
    public let keys: [String]
    public let column: String
    /// TEXT (a PEM) rather than BLOB/BYTEA.
    public let isText: Bool
    /// Whether the table's rows belong to a scope (`StoreScope`): they are then addressed by `tenant_id` and `keys`,
    /// while the seal stays bound to `keys` alone (as it was before scopes), the same in every scope.
    public let isScoped: Bool
    /// The first page of entries, the page after a key (bound by the names of `addressKeys`), and the update of one
    /// secret (`:secret`) by its key.
    private let firstPage, nextPage, update: SQLStatement

    init(kind: SecretField.Kind, table: String, keys: [String], column: String, isText: Bool, isScoped: Bool = false) {
        self.kind = kind
        self.table = table
        self.keys = keys
        self.column = column
        self.isText = isText
        self.isScoped = isScoped
        let addressKeys = isScoped ? ["tenant_id"] + keys : keys
        let keyList = SQLCatalogue.list(addressKeys)
        let select = "SELECT \(keyList), \(column) FROM \(table) WHERE \(column) IS NOT NULL"
        firstPage = SQLStatement { _ in "\(select) ORDER BY \(keyList) LIMIT \(Self.pageSize)" }
        nextPage = SQLStatement { _ in
            "\(select) AND (\(keyList)) > (\(SQLCatalogue.binds(addressKeys))) ORDER BY \(keyList) LIMIT \(Self.pageSize)"
        }
        update = SQLStatement { _ in
            "UPDATE \(table) SET \(column) = :secret WHERE "
                + addressKeys.map { "\($0) = :\($0)" }.joined(separator: " AND ")
        }
    }


    public static let all = [
        SecretColumn(
            kind: .signingKey, table: "signing_keys", keys: ["key_id"], column: "private_key_pem", isText: true),
        SecretColumn(
            kind: .mfaEnrollmentTOTPSecret, table: "mfa_enrollments", keys: ["enrollment_id"], column: "totp_secret",
            isText: false, isScoped: true),
        SecretColumn(
            kind: .verificationSessionTOTPSecret, table: "verification_sessions", keys: ["session_hash"],
            column: "totp_secret", isText: false),
        SecretColumn(
            kind: .identityProviderRefreshToken, table: "identities", keys: ["provider_id", "raw_id"],
            column: "provider_refresh_token", isText: false, isScoped: true),
        SecretColumn(
            kind: .providerTokenRevocation, table: "provider_token_revocations", keys: ["revocation_id"],
            column: "token", isText: false),
        SecretColumn(
            kind: .providerConfigClientSecret, table: "provider_configs", keys: ["kind", "provider_id"],
            column: "client_secret", isText: false, isScoped: true),
    ]

    static let pageSize = 500

    /// The record id a secret of `entry` is sealed for (`SecretField.recordID`): its keys without the scope, joined by `/`.
    public func recordID(of entry: Entry) -> String {
        entry.key.dropFirst(isScoped ? 1 : 0).joined(separator: "/")
    }

    /// One stored secret: the values of its row's address (`tenant_id` first in a scoped table) and its stored form.
    public typealias Entry = (key: [String], stored: [UInt8])

    /// The columns that address a row: `keys`, after `tenant_id` in a scoped table.
    private var addressKeys: [String] { isScoped ? ["tenant_id"] + keys : keys }

    /// The binds of the key `key` (values of `addressKeys`).
    private func binds(of key: [String]) -> SQLBinds {
        Dictionary(uniqueKeysWithValues: zip(addressKeys, key.map { SQLValue.text($0) }))
    }

    /// The entries of the first page when `after` is empty, else of the page after the key `after`.
    func page(after: [String], in session: some SQLStoreSession) throws -> [Entry] {
        try session.query(after.isEmpty ? firstPage : nextPage, binds(of: after)) { try entry($0) }
    }

    /// Replaces the stored form of the secret of `entry`.
    func rewrite(_ entry: Entry, to sealed: [UInt8], in session: some SQLStoreSession) throws {
        var binds = binds(of: entry.key)
        binds["secret"] = isText ? .text(String(decoding: sealed, as: UTF8.self)) : .bytes(sealed)
        try session.execute(update, binds)
    }

    /// The entry of a row of a page.
    private func entry(_ row: some StoredRow) throws -> Entry {
        let key = try addressKeys.indices.map { try row.requiredText($0) }
        let stored = isText ? Array(try row.requiredText(addressKeys.count).utf8) : row.bytes(addressKeys.count) ?? []
        return (key, stored)
    }

    /// Calls `body` with every stored secret of every column, a page at a time: its column, its record's id and its
    /// entry; `body` may rewrite the row it is given.
    static func forEachSecret(
        in session: some SQLStoreSession, _ body: (SecretColumn, String, Entry) throws -> Void
    ) throws {
        for column in all {
            var after: [String] = []
            repeat {
                let entries = try column.page(after: after, in: session)
                for entry in entries { try body(column, column.recordID(of: entry), entry) }
                after = entries.count == pageSize ? entries.last?.key ?? [] : []
            } while !after.isEmpty
        }
    }
}

extension SQLStoreSession {
    /// Checks every stored secret with the sealer (`SecretResealing.secretInventory`).
    public func secretInventory() throws -> SecretInventory {
        try run("secretInventory") {
            var inventory = SecretInventory()
            try SecretColumn.forEachSecret(in: self) { column, recordID, entry in
                _ = try sealer.check(entry.stored, for: SecretField(column.kind, recordID: recordID), counting: &inventory)
            }
            return inventory
        }
    }

    /// Rewrites every secret the sealer would seal otherwise now (`SecretResealing.resealSecrets`): the inventory
    /// before, and the tables whose rows were rewritten (for the store to vacuum).
    public func resealSecrets() throws -> (before: SecretInventory, rewrittenTables: Set<String>) {
        try run("resealSecrets") {
            var inventory = SecretInventory()
            var rewrittenTables: Set<String> = []
            try SecretColumn.forEachSecret(in: self) { column, recordID, entry in
                let field = SecretField(column.kind, recordID: recordID)
                guard let sealed = try sealer.check(entry.stored, for: field, counting: &inventory) else { return }
                try column.rewrite(entry, to: sealed, in: self)
                rewrittenTables.insert(column.table)
            }
            return (inventory, rewrittenTables)
        }
    }
}
