import Postgres
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test("a unique violation has SQLSTATE 23505 and the constraint's name, and not the duplicate value")
    func uniqueViolation() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMPORARY TABLE accounts (email TEXT CONSTRAINT accounts_email_unique UNIQUE)")
        try connection.update("INSERT INTO accounts VALUES ($1)", [.text("dup@example.com")])
        let error = #expect(throws: PostgresError.self) {
            try connection.update("INSERT INTO accounts VALUES ($1)", [.text("dup@example.com")])
        }
        #expect(error?.sqlState == "23505")
        #expect(error?.isUniqueViolation == true)
        #expect(error?.constraint == "accounts_email_unique")
        #expect(error?.isSerializationFailure == false)
        #expect(error?.isConnectionFailure == false)
        #expect(error.map { "\($0)" }?.contains("dup@example.com") == false)
        #expect(connection.isHealthy)
    }

    @Test("a data exception's message does not quote the parameter value")
    func dataExceptionHidesValue() throws {
        let connection = try connect()
        let error = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::text::bigint", [.text("s3cret-token")])
        }
        #expect(error?.sqlState == "22P02")
        #expect(error?.message.contains("s3cret-token") == false)
        #expect(error?.message.contains("invalid input syntax for type bigint") == true)
        let overflow = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::text::integer", [.text("98765432109")])
        }
        #expect(overflow?.sqlState == "22003")
        #expect(overflow?.message.contains("98765432109") == false)
    }

    @Test("a syntax error in a transaction leaves the connection unhealthy until ROLLBACK, then healthy")
    func syntaxErrorInTransaction() throws {
        let connection = try connect()
        try connection.execute("BEGIN")
        let error = #expect(throws: PostgresError.self) { try connection.query("SELEC 1") }
        #expect(error?.sqlState == "42601")
        #expect(error?.isConnectionFailure == false)
        #expect(!connection.isHealthy)
        #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }  // 25P02: only ROLLBACK now
        try connection.execute("ROLLBACK")
        #expect(connection.isHealthy)
        #expect(try connection.query("SELECT 1")[0].requiredInt64(0) == 1)
    }

    @Test("write skew between two SERIALIZABLE transactions fails one of them with a serialization failure")
    func serializationFailure() throws {
        let table = uniqueTableName("on_call")
        let setup = try connect()
        try setup.execute("CREATE TABLE \(table) (doctor TEXT PRIMARY KEY, on_call BOOLEAN NOT NULL)")
        defer { try? setup.execute("DROP TABLE \(table)") }
        try setup.execute("INSERT INTO \(table) VALUES ('alice', true), ('bob', true)")

        let first = try connect()
        let second = try connect()
        let countOnCall = "SELECT count(*) FROM \(table) WHERE on_call"
        let goOff = "UPDATE \(table) SET on_call = false WHERE doctor = $1"
        try first.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try second.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        #expect(try first.query(countOnCall)[0].requiredInt64(0) == 2)
        #expect(try second.query(countOnCall)[0].requiredInt64(0) == 2)
        try first.update(goOff, [.text("alice")])
        try first.execute("COMMIT")
        let error = #expect(throws: PostgresError.self) {
            try second.update(goOff, [.text("bob")])
            try second.execute("COMMIT")
        }
        #expect(error?.sqlState == "40001")
        #expect(error?.isSerializationFailure == true)
        #expect(error?.isConnectionFailure == false)
        try second.execute("ROLLBACK")
        #expect(second.isHealthy)
        #expect(try setup.query(countOnCall)[0].requiredInt64(0) == 1)
    }

    @Test("a terminated session is a connection failure and leaves the connection unhealthy")
    func terminatedSession() throws {
        let connection = try connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        #expect(error?.isConnectionFailure == true)
        #expect(!connection.isHealthy)
    }
}

@Suite("Sessions that cannot be used again")
struct UnusableSessionTests {
    @Test("a write on a read-only session (a standby, as after a failover) is a connection failure and drops it")
    func readOnlySession() throws {
        let connection = try connect()
        try connection.execute("SET default_transaction_read_only = on")
        let error = #expect(throws: PostgresError.self) {
            try connection.query("CREATE TEMPORARY TABLE t (n BIGINT)")
        }
        #expect(error?.sqlState == "25006")
        #expect(error?.isConnectionFailure == true)
        #expect(!connection.isHealthy)
    }

    @Test("the pool drops a session that turned read-only, and the next call gets a new one")
    func poolDropsReadOnlySession() throws {
        let pool = try PostgresConnectionPool(url: testDatabaseURL(), size: 1)
        defer { pool.close() }
        let first = try pool.withConnection { connection in
            try connection.execute("SET default_transaction_read_only = on")
            #expect(throws: PostgresError.self) { try connection.query("CREATE TEMPORARY TABLE t (n BIGINT)") }
            return try connection.query("SELECT pg_backend_pid()")[0].requiredInt64(0)
        }
        let second = try pool.withConnection { connection in
            try connection.query("SELECT pg_backend_pid()")[0].requiredInt64(0)
        }
        #expect(first != second)
    }
}
