/// One statement of the SQL stores, written once with named binds (`:hash`) and rendered once per dialect when it is
/// made: the stores keep their statements in `static let`s, so nothing is spelled again per call.
public struct SQLStatement: Sendable {
    /// The statement as one engine runs it: its SQL, and the name of the bind behind each parameter, in order.
    public struct Rendered: Sendable {
        public let sql: String
        let binds: [String]

        /// The values of `binds` in parameter order; a bind the statement names but `values` lacks is a programming
        /// error.
        public func values(_ values: SQLBinds) -> [SQLValue] {
            binds.map { name in
                guard let value = values[name] else { preconditionFailure("no value for the bind :\(name)") }
                return value
            }
        }
    }

    public let sqlite: Rendered
    public let postgres: Rendered

    /// `text` is called once per dialect; each `:name` in it (a colon and a name, not `::`) becomes a parameter, the
    /// same one wherever the name comes again.
    init(_ text: (SQLDialect) -> String) {
        sqlite = Self.render(text(.sqlite), .sqlite)
        postgres = Self.render(text(.postgres), .postgres)
    }

    private static func render(_ text: String, _ dialect: SQLDialect) -> Rendered {
        var sql = ""
        var binds: [String] = []
        var characters = text[...]
        var previous: Character?
        while let character = characters.popFirst() {
            defer { previous = character }
            guard character == ":", previous != ":", let next = characters.first, next.isBindName, !next.isNumber else {
                sql.append(character)
                continue
            }
            let name = String(characters.prefix(while: \.isBindName))
            characters = characters.dropFirst(name.count)
            if !binds.contains(name) { binds.append(name) }
            sql += dialect.placeholder(binds.firstIndex(of: name)! + 1)
        }
        return Rendered(sql: sql, binds: binds)
    }
}

extension Character {
    fileprivate var isBindName: Bool { isASCII && (isLetter || isNumber || self == "_") }
}

/// A value bound to a statement, by the name of its bind; each store converts it to its engine's own.
public enum SQLValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    /// BOOLEAN on PostgreSQL, 0 or 1 on SQLite.
    case bool(Bool)
    /// BYTEA on PostgreSQL, BLOB on SQLite.
    case bytes([UInt8])

    /// `.text`, or `.null` for `nil`.
    init(_ text: String?) { self = text.map { .text($0) } ?? .null }
    /// `.integer`, or `.null` for `nil`.
    init(_ number: Int64?) { self = number.map { .integer($0) } ?? .null }
    /// `.integer`, or `.null` for `nil`.
    init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
    /// `.bytes`, or `.null` for `nil`.
    init(_ bytes: [UInt8]?) { self = bytes.map { .bytes($0) } ?? .null }

    /// The value as an engine's own, made by the function for its kind.
    public func converted<Value>(
        null: Value, text: (String) -> Value, integer: (Int64) -> Value, bool: (Bool) -> Value,
        bytes: ([UInt8]) -> Value
    ) -> Value {
        switch self {
        case .null: null
        case .text(let value): text(value)
        case .integer(let value): integer(value)
        case .bool(let value): bool(value)
        case .bytes(let value): bytes(value)
        }
    }
}

/// The values of a statement's binds, by name.
public typealias SQLBinds = [String: SQLValue]

/// What a failed statement broke, as both stores tell it.
public enum SQLConstraintViolation: Sendable, Equatable {
    case primaryKey
    /// Another unique key or index.
    case unique
    case foreignKey
    /// NOT NULL, CHECK, …
    case other

    /// A primary or other unique key: the value is taken.
    var isTaken: Bool { self == .primaryKey || self == .unique }
}
