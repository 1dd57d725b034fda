import SQLite
import Testing

@Suite("Binding and reading values")
struct ValueTests {
    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(path: ":memory:")
    }

    /// Binds `value`, reads it back, and returns it with SQLite's name for its storage class.
    func roundTrip(_ value: SQLiteValue) throws -> (SQLiteValue, String) {
        try connection.queryFirst("SELECT ?1, typeof(?1)", [value]) { row throws in
            (row.value(0), try row.requiredText(1))
        }!
    }

    @Test("every storage class round-trips", arguments: [
        (SQLiteValue.null, "null"),
        (.integer(0), "integer"), (.integer(.min), "integer"), (.integer(.max), "integer"), (.integer(-1), "integer"),
        (.real(0.5), "real"), (.real(-1e300), "real"), (.real(.infinity), "real"),
        (.real(.leastNonzeroMagnitude), "real"),
        (.text(""), "text"), (.text("plain"), "text"), (.text("Zoë 李 🚀 \u{202E}"), "text"),
        (.text("nul\u{0}inside"), "text"), (.text(String(repeating: "x", count: 100_000)), "text"),
        (.blob([]), "blob"), (.blob([0, 1, 2, 255, 0]), "blob"), (.blob(Array(repeating: 7, count: 70_000)), "blob"),
    ])
    func roundTrips(value: SQLiteValue, storageClass: String) throws {
        let (read, type) = try roundTrip(value)
        #expect(read == value)
        #expect(type == storageClass)
    }

    @Test("convenience initialisers map nil to NULL")
    func optionalInitialisers() {
        #expect(SQLiteValue(String?.none) == .null)
        #expect(SQLiteValue("a") == .text("a"))
        #expect(SQLiteValue(Int64?.none) == .null)
        #expect(SQLiteValue(Int64(5)) == .integer(5))
        #expect(SQLiteValue(Int?.some(6)) == .integer(6))
        #expect(SQLiteValue(true) == .integer(1))
        #expect(SQLiteValue(false) == .integer(0))
        #expect(SQLiteValue(Bool?.none) == .null)
        #expect(SQLiteValue(Double?.some(1.5)) == .real(1.5))
        #expect(SQLiteValue([UInt8]?.some([1])) == .blob([1]))
        let literals: [SQLiteValue] = [nil, 1, 2.5, "x", true]
        #expect(literals == [.null, .integer(1), .real(2.5), .text("x"), .integer(1)])
    }

    @Test("typed getters read values and return nil for NULL")
    func typedGetters() throws {
        try connection.query(
            "SELECT ?, ?, ?, ?, ?, NULL", [.text("t"), .integer(41), .real(2.5), .blob([9]), .integer(0)]
        ) { row throws in
            #expect(row.columnCount == 6)
            #expect(row.text(0) == "t")
            #expect(row.int64(1) == 41)
            #expect(row.int(1) == 41)
            #expect(row.double(2) == 2.5)
            #expect(row.blob(3) == [9])
            #expect(row.bool(4) == false)
            #expect(row.bool(1) == true)
            #expect(row.isNull(5))
            #expect(row.text(5) == nil)
            #expect(row.int64(5) == nil)
            #expect(row.double(5) == nil)
            #expect(row.blob(5) == nil)
            #expect(row.bool(5) == nil)
            #expect(row.value(5) == .null)
            expectSQLiteError(.mismatch) { try row.requiredText(5) }
            expectSQLiteError(.mismatch) { try row.requiredInt64(5) }
            expectSQLiteError(.mismatch) { try row.requiredBool(5) }
            #expect(try row.requiredText(0) == "t")
        }
    }

    @Test("columns can be read by name")
    func columnsByName() throws {
        try connection.query("SELECT 1 AS one, 'two' AS two, NULL AS absent") { row throws in
            #expect(try row.value(named: "one") == .integer(1))
            #expect(try row.value(named: "two") == .text("two"))
            #expect(try row.value(named: "absent") == .null)
            expectSQLiteError(.range) { try row.value(named: "three") }
        }
        let statement = try connection.prepare("SELECT 1 AS a, 2 AS b")
        #expect(statement.columnIndex(named: "b") == 1)
        #expect(statement.columnName(0) == "a")
    }

    @Test("the number of values must match the number of parameters")
    func parameterCount() throws {
        expectSQLiteError(.range) { try connection.execute("SELECT ?, ?", [.integer(1)]) }
        expectSQLiteError(.range) { try connection.execute("SELECT 1", [.integer(1)]) }
        let statement = try connection.prepare("SELECT ?3")
        #expect(statement.parameterCount == 3)
        expectSQLiteError(.range) { try statement.bind(.integer(1), at: 4) }
    }

    @Test("values are data, never SQL")
    func injectionIsInert() throws {
        try connection.execute("CREATE TABLE t (name TEXT)")
        let hostile = "x'); DROP TABLE t; --"
        try connection.execute("INSERT INTO t (name) VALUES (?)", [.text(hostile)])
        #expect(try connection.queryAll("SELECT name FROM t") { $0.text(0) } == [hostile])
    }

    @Test("descriptions do not show contents")
    func valueDescription() {
        #expect("\(SQLiteValue.text("secret"))" == "text(6 bytes)")
        #expect("\(SQLiteValue.blob([1, 2]))" == "blob(2 bytes)")
        #expect("\(SQLiteValue.integer(42))" == "integer")
    }
}
