/// A value bound to a `$n` parameter or read from a result column.
///
/// Values always travel as bound parameters of a prepared statement, never inside SQL text. `.int64` and `.bool`
/// are sent in PostgreSQL's text form (`-42`, `t`), `.bytes` in binary form, so any byte string round-trips.
/// `description` shows the kind of value only, never its contents, so a value that ends up in a log stays private.
public enum PostgresValue: Sendable, Equatable, CustomStringConvertible {
    case null
    /// Columns TEXT, VARCHAR, … (PostgreSQL text cannot hold the NUL character).
    case text(String)
    /// Columns BIGINT, INTEGER, SMALLINT.
    case int64(Int64)
    /// Columns BOOLEAN.
    case bool(Bool)
    /// Columns BYTEA.
    case bytes([UInt8])

    /// The kind only (`text(12 bytes)`), never the contents.
    public var description: String {
        switch self {
        case .null: "null"
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .int64: "int64"
        case .bool: "bool"
        case .bytes(let bytes): "bytes(\(bytes.count) bytes)"
        }
    }
}
