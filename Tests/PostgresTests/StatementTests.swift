import Foundation
import Postgres
import Testing

@Suite("Statements")
struct StatementTests {
    static let countPrepared = "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1"

    @Test("the same SQL is prepared once per connection, by query and update alike; other SQL gets its own statement")
    func preparedOnce() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMPORARY TABLE counter (n BIGINT)")
        let insert = "INSERT INTO counter VALUES ($1)"
        let select = "SELECT n FROM counter WHERE n >= $1 ORDER BY n"
        for value in 1...3 {
            #expect(try connection.update(insert, [.int64(Int64(value))]) == 1)
            _ = try connection.query(insert, [.int64(Int64(value) * 10)])
        }
        #expect(try connection.query(select, [.int64(2)]).map { try $0.requiredInt64(0) } == [2, 3, 10, 20, 30])
        #expect(try connection.query(select, [.int64(20)]).map { try $0.requiredInt64(0) } == [20, 30])
        #expect(try connection.query(Self.countPrepared, [.text(insert)])[0].requiredInt64(0) == 1)
        #expect(try connection.query(Self.countPrepared, [.text(select)])[0].requiredInt64(0) == 1)
        #expect(try connection.query("SELECT count(*) FROM pg_prepared_statements")[0].requiredInt64(0) == 4)  // and these two counts
    }

    @Test("a statement that failed to prepare is prepared again the next time")
    func failedPrepareIsNotCached() throws {
        let connection = try connect()
        let sql = "SELECT n FROM created_later WHERE n = $1"
        let error = #expect(throws: PostgresError.self) { try connection.query(sql, [.int64(1)]) }
        #expect(error?.sqlState == "42P01")
        try connection.execute("CREATE TEMPORARY TABLE created_later (n BIGINT); INSERT INTO created_later VALUES (1)")
        #expect(try connection.query(sql, [.int64(1)]).map { try $0.requiredInt64(0) } == [1])
    }

    @Test("with pool_mode=transaction in the URL (a pooler in transaction mode), no statement is left on the session")
    func unnamedBehindPooler() throws {
        var components = try #require(URLComponents(string: try testDatabaseURL()))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pool_mode", value: "transaction")]
        let connection = try PostgresConnection(url: try #require(components.string))
        try connection.execute("CREATE TEMPORARY TABLE counter (n BIGINT)")
        let insert = "INSERT INTO counter VALUES ($1)"
        for value in 1...3 {
            #expect(try connection.update(insert, [.int64(Int64(value))]) == 1)
        }
        #expect(try connection.query("SELECT n FROM counter WHERE n >= $1 ORDER BY n", [.int64(2)]).map {
            try $0.requiredInt64(0)
        } == [2, 3])
        #expect(try connection.query("SELECT count(*) FROM pg_prepared_statements")[0].requiredInt64(0) == 0)
        let failing = "SELECT n FROM created_later WHERE n = $1"
        #expect(throws: PostgresError.self) { try connection.query(failing, [.int64(1)]) }
        try connection.execute("CREATE TEMPORARY TABLE created_later (n BIGINT); INSERT INTO created_later VALUES (1)")
        #expect(try connection.query(failing, [.int64(1)]).map { try $0.requiredInt64(0) } == [1])
    }

    @Test("update returns the rows affected; execute runs several statements; an empty query is fine")
    func updateAndExecute() throws {
        let connection = try connect()
        try connection.execute(
            "CREATE TEMPORARY TABLE items (n BIGINT); INSERT INTO items SELECT generate_series(1, 5); SET application_name = 'hearth-test'")
        #expect(try connection.update("UPDATE items SET n = n + 1 WHERE n > $1", [.int64(2)]) == 3)
        #expect(try connection.update("DELETE FROM items WHERE n = $1", [.int64(100)]) == 0)
        #expect(try connection.update("SELECT n FROM items") == 5)
        #expect(try connection.query("SHOW application_name")[0].requiredText(0) == "hearth-test")
        try connection.execute("")
        #expect(connection.isHealthy)
    }

    @Test("parameters are bound, never spliced into the SQL")
    func parametersAreBound() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMPORARY TABLE names (name TEXT)")
        let hostile = "x'); DROP TABLE names; --"
        try connection.update("INSERT INTO names VALUES ($1)", [.text(hostile)])
        #expect(try connection.query("SELECT name FROM names").map { try $0.requiredText(0) } == [hostile])
    }

    @Test("COPY, which needs a protocol of its own, is refused with a clear error and leaves the connection unhealthy")
    func copyRefused() throws {
        let connection = try connect()
        let error = #expect(throws: PostgresError.self) { try connection.execute("COPY (SELECT 1) TO STDOUT") }
        #expect(error?.message.contains("PGRES_COPY_OUT") == true)
        #expect(!connection.isHealthy)
    }

    @Test("a closed connection throws a connection failure")
    func closed() throws {
        let connection = try connect()
        connection.close()
        connection.close()
        #expect(!connection.isHealthy)
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.isConnectionFailure == true)
        #expect(throws: PostgresError.self) { try connection.execute("SELECT 1") }
    }
}
