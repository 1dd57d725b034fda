internal import CSQLite

/// A prepared statement: owns one `sqlite3_stmt`, finalized when the statement is released.
///
/// Get one from ``SQLiteConnection/prepare(_:)`` (yours to keep) or, more usually, let the
/// connection's `execute`/`query` helpers use its statement cache. Values are bound to `?`
/// parameters (1-based), then ``step()`` runs the statement; after it returns `true`, ``row``
/// reads the current row.
///
/// ```swift
/// let statement = try connection.prepare("SELECT name FROM users WHERE id = ?")
/// try statement.bind([.integer(42)])
/// while try statement.step() { print(statement.row.text(0) ?? "-") }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The statement belongs to this connection and never outlives it in a useful way.
    unowned let connection: SQLiteConnection
    /// The SQL text the statement was prepared from (placeholders only, no values).
    public let sql: String
    /// Set while the statement cache has lent this statement out, so re-entrant use of the same SQL
    /// gets a fresh statement instead of resetting one that is being stepped.
    var isLent = false
    private var columnIndexes: [String: Int]?

    /// Prepares exactly one statement. Throws `.misuse` for empty SQL or SQL with several statements.
    init(connection: SQLiteConnection, sql: String, persistent: Bool) throws {
        let db = connection.handle
        var statement: OpaquePointer?
        var trailingText = ""
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let resultCode = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            if resultCode == SQLITE_OK, let tail { trailingText = String(cString: tail) }
            return resultCode
        }
        if resultCode != SQLITE_OK {
            sqlite3_finalize(statement)
            throw sqliteError(resultCode, db, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(code: .misuse, message: "the SQL text holds no statement", sql: sql)
        }
        if trailingText.contains(where: { !$0.isWhitespace && $0 != ";" }) {
            sqlite3_finalize(statement)
            throw SQLiteError(
                code: .misuse, message: "the SQL text holds more than one statement (use executeScript)", sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }
    /// The number of result columns (0 for statements that return no rows).
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }
    /// Whether the statement leaves the database unchanged (SELECT, most PRAGMAs).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The name of a result column (its `AS` name when there is one).
    public func columnName(_ column: Int) -> String {
        sqlite3_column_name(handle, Int32(column)).map { String(cString: $0) } ?? ""
    }

    /// The index of the result column called `name`, if any. Case-sensitive; the first column wins.
    public func columnIndex(named name: String) -> Int? {
        if let columnIndexes { return columnIndexes[name] }
        var indexes: [String: Int] = [:]
        for column in (0..<columnCount).reversed() { indexes[columnName(column)] = column }
        columnIndexes = indexes
        return indexes[name]
    }

    // MARK: Binding

    /// Binds `value` to the parameter at `index` (1-based). Text and blobs are copied by SQLite.
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        let position = Int32(index)
        let resultCode: Int32
        switch value {
        case .null:
            resultCode = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            resultCode = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            resultCode = sqlite3_bind_double(handle, position, real)
        case .text(let text):
            resultCode = try bindText(text, at: position)
        case .blob(let bytes):
            resultCode = try bindBlob(bytes, at: position)
        }
        try sqliteCheck(resultCode, connection.handle, sql: sql)
    }

    /// Binds `values` to parameters 1…n. Throws `.range` unless there is exactly one value per parameter.
    public func bind(_ values: [SQLiteValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(
                code: .range, message: "the statement has \(parameterCount) parameters but \(values.count) values were given",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    private func bindText(_ text: String, at position: Int32) throws -> Int32 {
        var text = text
        return try text.withUTF8 { bytes -> Int32 in
            guard bytes.count <= Int(Int32.max) else {
                throw SQLiteError(code: .tooBig, message: "text of \(bytes.count) bytes is too long to bind", sql: sql)
            }
            guard let base = bytes.baseAddress else {
                // An empty buffer may have no address; bind "" rather than NULL.
                return hearth_sqlite_bind_text_copy(handle, position, "", 0)
            }
            let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            return hearth_sqlite_bind_text_copy(handle, position, characters, Int32(bytes.count))
        }
    }

    private func bindBlob(_ bytes: [UInt8], at position: Int32) throws -> Int32 {
        guard bytes.count <= Int(Int32.max) else {
            throw SQLiteError(code: .tooBig, message: "a blob of \(bytes.count) bytes is too long to bind", sql: sql)
        }
        return bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                // A NULL pointer would bind SQL NULL; an empty blob must stay a blob.
                return sqlite3_bind_zeroblob(handle, position, 0)
            }
            return hearth_sqlite_bind_blob_copy(handle, position, base, Int32(buffer.count))
        }
    }

    // MARK: Running

    /// Runs the statement to its next row. Returns `true` when a row is available in ``row``,
    /// `false` when the statement has finished.
    public func step() throws -> Bool {
        let resultCode = sqlite3_step(handle)
        if resultCode == SQLITE_ROW { return true }
        try sqliteCheck(resultCode, connection.handle, sql: sql, success: SQLITE_DONE)
        return false
    }

    /// Rewinds the statement so it can run again and clears its bindings. Errors of the last run were
    /// already reported by ``step()``, so they are not repeated here.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The current row; valid until the next ``step()`` or ``reset()``.
    public var row: SQLiteRow { SQLiteRow(statement: self) }
}

// Statements are bound to their connection, which may only be used by one thread at a time (it is
// opened with SQLITE_OPEN_NOMUTEX); sending a statement to another thread would let two threads
// use the connection at once.
@available(*, unavailable)
extension SQLiteStatement: Sendable {}

/// The current row of a statement. Column indexes are 0-based.
///
/// Getters return `nil` for SQL NULL; the `required…` getters throw `.mismatch` instead, for columns
/// that must hold a value. Values are converted the way SQLite converts them (`sqlite3_column_*`).
public struct SQLiteRow {
    let statement: SQLiteStatement

    public var columnCount: Int { statement.columnCount }

    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement.handle, Int32(column)) == SQLITE_NULL
    }

    /// The column's value in its own storage class.
    public func value(_ column: Int) -> SQLiteValue {
        let index = Int32(column)
        switch sqlite3_column_type(statement.handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement.handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement.handle, index))
        case SQLITE_TEXT: return .text(readText(index))
        case SQLITE_BLOB: return .blob(readBlob(index))
        default: return .null
        }
    }

    /// The value of the column called `name`. Throws `.range` if the statement has no such column.
    public func value(named name: String) throws -> SQLiteValue {
        guard let column = statement.columnIndex(named: name) else {
            throw SQLiteError(code: .range, message: "no result column named \(name)", sql: statement.sql)
        }
        return value(column)
    }

    public func text(_ column: Int) -> String? {
        isNull(column) ? nil : readText(Int32(column))
    }

    public func int64(_ column: Int) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(statement.handle, Int32(column))
    }

    public func int(_ column: Int) -> Int? {
        int64(column).map { Int($0) }
    }

    /// `false` for 0, `true` for any other number.
    public func bool(_ column: Int) -> Bool? {
        int64(column).map { $0 != 0 }
    }

    public func double(_ column: Int) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(statement.handle, Int32(column))
    }

    public func blob(_ column: Int) -> [UInt8]? {
        isNull(column) ? nil : readBlob(Int32(column))
    }

    public func requiredText(_ column: Int) throws -> String {
        guard let value = text(column) else { throw nullError(column) }
        return value
    }

    public func requiredInt64(_ column: Int) throws -> Int64 {
        guard let value = int64(column) else { throw nullError(column) }
        return value
    }

    public func requiredBool(_ column: Int) throws -> Bool {
        guard let value = bool(column) else { throw nullError(column) }
        return value
    }

    private func nullError(_ column: Int) -> SQLiteError {
        SQLiteError(
            code: .mismatch, message: "column \(statement.columnName(column)) is NULL where a value is required",
            sql: statement.sql)
    }

    private func readText(_ index: Int32) -> String {
        // sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.
        guard let characters = sqlite3_column_text(statement.handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    private func readBlob(_ index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(statement.handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

@available(*, unavailable)
extension SQLiteRow: Sendable {}
