import Foundation
import Postgres
import Synchronization
import Testing

@Suite("Connection pool")
struct PoolTests {
    @Test("more threads than connections: every thread is served, on at most `size` sessions")
    func moreThreadsThanConnections() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 3)
        defer { pool.close() }
        let pids = Collected<Int64>()
        let failures = Collected<String>()
        onThreads(12) { index in
            do {
                let pid = try pool.withConnection { connection in
                    _ = try connection.query("SELECT pg_sleep(0.02)")
                    return try backendPID(connection)
                }
                pids.add(pid)
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(pids.all.count == 12)
        #expect(Set(pids.all).count <= 3)
    }

    @Test("a session the server ended while idle is replaced before the next caller sees it")
    func terminatedWhileIdle() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 1)
        defer { pool.close() }
        let first = try pool.withConnection(backendPID)
        try terminateBackend(first)
        let second = try pool.withConnection(backendPID)
        #expect(second != first)
    }

    @Test("a session that breaks inside the body is replaced, and the next call works")
    func brokenInsideBody() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 1)
        defer { pool.close() }
        let first = try pool.withConnection(backendPID)
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { try $0.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        #expect(error?.isConnectionFailure == true)
        let second = try pool.withConnection(backendPID)
        #expect(second != first)
    }

    @Test("every session ended at once (as by a server restart): the pool recovers without being reopened")
    func allSessionsEnded() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 4)
        defer { pool.close() }
        let before = Collected<Int64>()
        onThreads(4) { _ in
            if let pid = try? pool.withConnection({ connection in
                _ = try connection.query("SELECT pg_sleep(0.05)")
                return try backendPID(connection)
            }) {
                before.add(pid)
            }
        }
        for pid in Set(before.all) { try terminateBackend(pid) }
        let after = Collected<Int64>()
        onThreads(8) { _ in
            if let pid = try? pool.withConnection(backendPID) { after.add(pid) }
        }
        #expect(after.all.count == 8)
        #expect(Set(after.all).isDisjoint(with: before.all))
    }

    @Test("a transaction left open by the body is rolled back before the connection is reused")
    func openTransactionRolledBack() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 1)
        defer { pool.close() }
        let table = uniqueTableName("left_open")
        try pool.withConnection { try $0.execute("CREATE TABLE \(table) (n BIGINT)") }
        defer { try? pool.withConnection { try $0.execute("DROP TABLE \(table)") } }
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try pool.withConnection { connection in
                try connection.execute("BEGIN")
                try connection.update("INSERT INTO \(table) VALUES ($1)", [.int64(1)])
                throw Abandoned()
            }
        }
        try pool.withConnection { connection in
            #expect(try connection.query("SELECT count(*) FROM \(table)")[0].requiredInt64(0) == 0)
            try connection.execute("BEGIN")  // would warn "already a transaction in progress" if one were open
            try connection.execute("COMMIT")
        }
    }

    @Test("after close, withConnection throws PostgresPoolClosedError, and the sessions are gone")
    func close() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 2)
        let pid = try pool.withConnection(backendPID)
        pool.close()
        pool.close()
        #expect(throws: PostgresPoolClosedError.self) { try pool.withConnection { _ in 1 } }
        let admin = try connect()
        while try admin.query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int", [.int64(pid)])[0]
            .requiredInt64(0) > 0
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    @Test("a size below 1 is refused with a clear error")
    func badSize() throws {
        let error = #expect(throws: PostgresError.self) { try PostgresConnectionPool(url: try testDatabaseURL(), size: 0) }
        #expect(error?.message.contains("size") == true)
    }

    @Test("without HEARTH_TEST_POSTGRES_URL the tests fail and say how to run them")
    func missingURLMessage() {
        #expect("\(MissingTestDatabase())".contains("scripts/test"))
    }
}
