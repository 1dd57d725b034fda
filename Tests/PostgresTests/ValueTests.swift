import Postgres
import Testing

@Suite("Values round-trip")
struct ValueTests {
    @Test("every value type, NULL, the empty string, unicode and the extremes of Int64 come back as sent")
    func roundTrip() throws {
        let connection = try connect()
        try connection.execute(
            "CREATE TEMPORARY TABLE value_round_trip (n INTEGER, t TEXT, i BIGINT, small SMALLINT, b BOOLEAN, bytes BYTEA)")
        let rows: [[PostgresValue]] = [
            [.text("plain"), .int64(42), .int64(-7), .bool(true), .bytes([1, 2, 3])],
            [.text(""), .int64(Int64.min), .int64(0), .bool(false), .bytes([])],
            [.text("Grüße, 世界 🔥 \u{7F}'\"\\$1"), .int64(Int64.max), .int64(32767), .null, .null],
            [.null, .null, .null, .null, .bytes(Array(0...255))],
        ]
        for (index, row) in rows.enumerated() {
            try connection.update(
                "INSERT INTO value_round_trip VALUES ($1, $2, $3, $4, $5, $6)", [.int64(Int64(index))] + row)
            let read = try connection.query(
                "SELECT t, i, small, b, bytes FROM value_round_trip WHERE n = $1", [.int64(Int64(index))])
            #expect(read.count == 1)
            let values = try #require(read.first)
            #expect(values.columnCount == 5)
            #expect(decode(values) == row, "row \(index)")
        }
    }

    @Test("required accessors throw on NULL and on a value of another type, naming the column only")
    func requiredAccessors() throws {
        let connection = try connect()
        let row = try #require(try connection.query("SELECT NULL::text, 'abc'::text, 'x'::text, 'not hex'::text").first)
        #expect(row.isNull(0))
        #expect(throws: PostgresError.self) { try row.requiredText(0) }
        let error = #expect(throws: PostgresError.self) { try row.requiredInt64(1) }
        #expect(error?.sqlState == nil)
        #expect(error?.message.contains("abc") == false)
        #expect(throws: PostgresError.self) { try row.requiredBool(2) }
        #expect(throws: PostgresError.self) { try row.requiredBytes(3) }
        #expect(throws: PostgresError.self) { try row.requiredText(4) }
        #expect(row.int64(1) == nil)
        #expect(row.bytes(3) == nil)
    }

    @Test("text containing NUL is refused with a clear error instead of being cut short")
    func nulInText() throws {
        let connection = try connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::text", [.text("a\u{0}secret")]) }
        #expect(error?.message.contains("NUL") == true)
        #expect(error?.message.contains("secret") == false)
        #expect(connection.isHealthy)
    }

    private func decode(_ row: PostgresRow) -> [PostgresValue] {
        [
            row.text(0).map(PostgresValue.text) ?? .null,
            row.int64(1).map(PostgresValue.int64) ?? .null,
            row.int64(2).map(PostgresValue.int64) ?? .null,
            row.bool(3).map(PostgresValue.bool) ?? .null,
            row.bytes(4).map(PostgresValue.bytes) ?? .null,
        ]
    }
}
