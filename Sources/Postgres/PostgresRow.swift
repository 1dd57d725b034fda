/// One row of a result, copied out of libpq: each column's text form, or `nil` for NULL. Columns are 0-based.
///
/// The optional accessors return `nil` for NULL and for a value that is not of the asked type (`int64` of
/// `"abc"`); the `required…` ones throw `PostgresError` (without a SQLSTATE) in both cases, naming the column but
/// not the value.
public struct PostgresRow: Sendable {
    let values: [String?]

    init(values: [String?]) { self.values = values }

    public var columnCount: Int { values.count }

    /// Whether the column is NULL (or does not exist).
    public func isNull(_ column: Int) -> Bool { value(column) == nil }

    /// The column's text form.
    public func text(_ column: Int) -> String? { value(column) }

    /// The column parsed as a 64-bit integer (BIGINT, INTEGER, SMALLINT).
    public func int64(_ column: Int) -> Int64? { value(column).flatMap { Int64($0) } }

    /// The column as a BOOLEAN: `t` or `f`.
    public func bool(_ column: Int) -> Bool? {
        switch value(column) {
        case "t": true
        case "f": false
        default: nil
        }
    }

    /// The column as BYTEA, decoded from its hex text form (`\x0aff…`).
    public func bytes(_ column: Int) -> [UInt8]? { value(column).flatMap(decodeByteaHex) }

    public func requiredText(_ column: Int) throws -> String {
        try required(column, "text") { text($0) }
    }

    public func requiredInt64(_ column: Int) throws -> Int64 {
        try required(column, "a 64-bit integer") { int64($0) }
    }

    public func requiredBool(_ column: Int) throws -> Bool {
        try required(column, "a boolean") { bool($0) }
    }

    public func requiredBytes(_ column: Int) throws -> [UInt8] {
        try required(column, "bytea in hex form") { bytes($0) }
    }

    private func value(_ column: Int) -> String? {
        values.indices.contains(column) ? values[column] : nil
    }

    private func required<T>(_ column: Int, _ kind: String, _ read: (Int) -> T?) throws -> T {
        guard values.indices.contains(column) else {
            throw PostgresError(message: "column \(column) does not exist (the row has \(values.count) columns)")
        }
        guard values[column] != nil else { throw PostgresError(message: "column \(column) is NULL") }
        guard let result = read(column) else { throw PostgresError(message: "column \(column) is not \(kind)") }
        return result
    }
}

/// Decodes BYTEA's hex output format: `\x` followed by two hex digits per byte. `nil` for anything else.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/datatype-binary.html>
func decodeByteaHex(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
        return nil
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity((utf8.count - 2) / 2)
    var index = 2
    while index < utf8.count {
        guard let high = hexDigitValue(utf8[index]), let low = hexDigitValue(utf8[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
        index += 2
    }
    return bytes
}

private func hexDigitValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
}
