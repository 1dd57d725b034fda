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
    public var isScoped = false

    public static let all = [
        SecretColumn(kind: .signingKey, table: "signing_keys", keys: ["key_id"], column: "private_key_pem", isText: true),
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
    private var keyList: String { addressKeys.joined(separator: ", ") }
    private var select: String { "SELECT \(keyList), \(column) FROM \(table) WHERE \(column) IS NOT NULL" }

    /// The first page of entries when `after` is empty, else the page after the key `after`; the SQL's parameters
    /// are written by `parameter` (1-based: `?` for SQLite, `$1` for PostgreSQL) and bound to the key's values.
    public func page(after: [String], parameter: (Int) -> String) -> String {
        guard !after.isEmpty else { return "\(select) ORDER BY \(keyList) LIMIT \(Self.pageSize)" }
        let parameters = addressKeys.indices.map { parameter($0 + 1) }.joined(separator: ", ")
        return "\(select) AND (\(keyList)) > (\(parameters)) ORDER BY \(keyList) LIMIT \(Self.pageSize)"
    }

    /// Sets the secret (parameter 1) of the row whose key is parameters 2….
    public func update(parameter: (Int) -> String) -> String {
        "UPDATE \(table) SET \(column) = \(parameter(1)) WHERE "
            + addressKeys.enumerated().map { "\($1) = \(parameter($0 + 2))" }.joined(separator: " AND ")
    }

    /// The entry of a row of `page(after:parameter:)`.
    public func entry(_ row: some StoredRow) throws -> Entry {
        let key = try addressKeys.indices.map { try row.requiredText($0) }
        let stored = isText ? Array(try row.requiredText(addressKeys.count).utf8) : row.bytes(addressKeys.count) ?? []
        return (key, stored)
    }

    /// Calls `body` with every stored secret of every column: its column, its record's id and its entry. `page` runs
    /// `page(after:parameter:)` of a column with the key values to bind; `body` may update the row it is given.
    public static func forEachSecret(
        page: (SecretColumn, _ after: [String]) throws -> [Entry], _ body: (SecretColumn, String, Entry) throws -> Void
    ) throws {
        for column in all {
            var after: [String] = []
            repeat {
                let entries = try page(column, after)
                for entry in entries { try body(column, column.recordID(of: entry), entry) }
                after = entries.count == pageSize ? entries.last?.key ?? [] : []
            } while !after.isEmpty
        }
    }
}
