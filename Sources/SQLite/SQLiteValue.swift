/// A value SQLite stores: one of its five storage classes.
///
/// Values are always *bound* to a prepared statement's `?` parameters, never written into SQL text.
/// `description` does not show text or blob contents, so a value that ends up in a log stays private.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// `.text`, or `.null` for `nil`.
    public init(_ value: String?) { self = value.map(SQLiteValue.text) ?? .null }
    /// `.integer`, or `.null` for `nil`.
    public init(_ value: Int64?) { self = value.map(SQLiteValue.integer) ?? .null }
    /// `.integer`, or `.null` for `nil`.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// `.integer(1)` or `.integer(0)` (SQLite has no boolean type), or `.null` for `nil`.
    public init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }
    /// `.real`, or `.null` for `nil`.
    public init(_ value: Double?) { self = value.map(SQLiteValue.real) ?? .null }
    /// `.blob`, or `.null` for `nil`.
    public init(_ value: [UInt8]?) { self = value.map(SQLiteValue.blob) ?? .null }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class only (`text(12 bytes)`), never the contents.
    public var description: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .blob(let bytes): "blob(\(bytes.count) bytes)"
        }
    }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
