import Foundation
import Postgres
import Testing

/// Transactions and savepoints that travel with the statements around them (libpq's pipeline mode), counted.
@Suite("Round trips")
struct PipelineTests {
    /// A connection counting its round trips, with a table of its own.
    private func counted() throws -> (PostgresConnection, PostgresRoundTripCounter, table: String) {
        let counter = PostgresRoundTripCounter()
        let connection = try PostgresConnection(url: testDatabaseURL(), roundTrips: counter)
        let table = uniqueTableName("pipeline")
        try connection.execute("CREATE TABLE \(table) (n BIGINT PRIMARY KEY)")
        return (connection, counter, table)
    }

    private func drop(_ table: String) throws {
        let connection = try connect()
        try connection.execute("DROP TABLE IF EXISTS \(table)")
    }

    @Test("BEGIN goes with the first statement and a prepared statement with its first run: one round trip each")
    func beginTravelsWithTheFirstStatement() throws {
        let (connection, counter, table) = try counted()
        defer { try? drop(table) }
        let before = counter.value
        connection.begin("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try connection.update("INSERT INTO \(table) VALUES ($1)", [.int64(1)])
        #expect(try connection.query("SHOW transaction_isolation")[0].requiredText(0) == "serializable")
        try connection.commit()
        #expect(counter.value - before == 3)  // BEGIN+prepare+insert, SHOW, COMMIT
        let other = try connect()
        #expect(try other.query("SELECT n FROM \(table)").map { try $0.requiredInt64(0) } == [1])
    }

    @Test("a transaction in which nothing ran costs no round trip, committed or rolled back")
    func emptyTransactionIsFree() throws {
        let (connection, counter, table) = try counted()
        defer { try? drop(table) }
        let before = counter.value
        connection.begin("BEGIN")
        try connection.commit()
        connection.begin("BEGIN")
        try connection.rollback()
        connection.begin("BEGIN READ ONLY")
        connection.commitWithoutWaiting()
        #expect(counter.value == before)
        #expect(connection.isHealthy)
    }

    @Test("savepoints ride along; a statement failing in one is undone to it and the transaction goes on")
    func savepointsRideAlong() throws {
        let (connection, counter, table) = try counted()
        defer { try? drop(table) }
        let insert = "INSERT INTO \(table) VALUES ($1)"
        try connection.update(insert, [.int64(0)])  // prepared before counting
        let before = counter.value
        connection.begin("BEGIN")
        try connection.sendWithNextStatement("SAVEPOINT s")
        try connection.update(insert, [.int64(1)])
        try connection.sendWithNextStatement("RELEASE SAVEPOINT s")
        try connection.sendWithNextStatement("SAVEPOINT s")
        let duplicate = #expect(throws: PostgresError.self) { try connection.update(insert, [.int64(1)]) }
        #expect(duplicate?.sqlState == "23505")
        try connection.sendWithNextStatement("ROLLBACK TO SAVEPOINT s")
        try connection.sendWithNextStatement("RELEASE SAVEPOINT s")
        try connection.update(insert, [.int64(2)])
        try connection.commit()
        #expect(counter.value - before == 4)  // three statements and the commit
        let other = try connect()
        #expect(try other.query("SELECT n FROM \(table) ORDER BY n").map { try $0.requiredInt64(0) } == [0, 1, 2])
    }

    @Test("a queued statement with parameters (a transaction's setting) goes with the next statement")
    func queuedWithParameters() throws {
        let (connection, counter, table) = try counted()
        defer { try? drop(table) }
        let before = counter.value
        connection.begin("BEGIN")
        try connection.sendWithNextStatement("SELECT set_config('hearth.test', $1, true)", [.text("tenant-a")])
        #expect(try connection.query("SELECT current_setting('hearth.test')")[0].requiredText(0) == "tenant-a")
        try connection.commit()
        #expect(counter.value - before == 2)
        #expect(throws: PostgresError.self) { try connection.sendWithNextStatement("SELECT $1", [.text("nul\u{0}")]) }
    }

    @Test("an error in a pipeline is the first one; what the server skipped after it is not reported instead")
    func firstErrorWins() throws {
        let (connection, _, table) = try counted()
        defer { try? drop(table) }
        connection.begin("BEGIN")
        try connection.sendWithNextStatement("SAVEPOINT s")
        try connection.sendWithNextStatement("SELECT no_such_column FROM \(table)")
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.sqlState == "42703")
        try connection.rollback()
        #expect(connection.isHealthy)
        #expect(try connection.query("SELECT 7")[0].requiredInt64(0) == 7)
    }

    @Test("a commit not waited for is read before the next command; the connection goes back to its pool idle")
    func commitWithoutWaiting() throws {
        let table = uniqueTableName("pipeline")
        defer { try? drop(table) }
        let pool = try PostgresConnectionPool(url: testDatabaseURL(), size: 1)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE TABLE \(table) (n BIGINT PRIMARY KEY)") }
        let before = pool.roundTrips.value
        let read = try pool.withConnection { connection in
            connection.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let rows = try connection.query("SELECT count(*) FROM \(table)")
            connection.commitWithoutWaiting()
            #expect(connection.isHealthy)
            return try rows[0].requiredInt64(0)
        }
        #expect(read == 0)
        #expect(pool.roundTrips.value - before == 2)  // BEGIN+SELECT, and the COMMIT on its way
        try pool.withConnection { connection in
            // The same connection: the read-only transaction is over, so a write may begin.
            connection.begin("BEGIN")
            try connection.update("INSERT INTO \(table) VALUES ($1)", [.int64(5)])
            #expect(try connection.query("SELECT count(*) FROM \(table)")[0].requiredInt64(0) == 1)
            try connection.commit()
        }
    }

    @Test("behind a pooler in transaction mode (unnamed statements), pipelines work the same")
    func unnamedStatementsPipeline() throws {
        var components = try #require(URLComponents(string: try testDatabaseURL()))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pool_mode", value: "transaction")]
        let counter = PostgresRoundTripCounter()
        let connection = try PostgresConnection(url: try #require(components.string), roundTrips: counter)
        let table = uniqueTableName("pipeline")
        defer { try? drop(table) }
        try connection.execute("CREATE TABLE \(table) (n BIGINT PRIMARY KEY)")
        let before = counter.value
        connection.begin("BEGIN")
        try connection.sendWithNextStatement("SAVEPOINT s")
        try connection.update("INSERT INTO \(table) VALUES ($1)", [.int64(3)])
        try connection.sendWithNextStatement("RELEASE SAVEPOINT s")
        try connection.commit()
        #expect(counter.value - before == 2)
        #expect(try connection.query("SELECT n FROM \(table)").map { try $0.requiredInt64(0) } == [3])
        #expect(try connection.query("SELECT count(*) FROM pg_prepared_statements")[0].requiredInt64(0) == 0)
    }
}
