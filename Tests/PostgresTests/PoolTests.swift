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
        let pids = try backendPIDsOnThreads(pool, threads: 12)
        #expect(pids.count == 12)
        #expect(Set(pids).count <= 3)
    }

    @Test("a session the server ended, while idle or inside the body, is replaced and the next call works")
    func endedSessionReplaced() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 1)
        defer { pool.close() }
        let first = try pool.withConnection(backendPID)
        try terminateBackend(first)
        let second = try pool.withConnection(backendPID)  // not an error: the ended session was noticed first
        #expect(second != first)

        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { try $0.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        #expect(error?.isConnectionFailure == true)
        let third = try pool.withConnection(backendPID)
        #expect(third != second)
    }

    @Test("every session ended at once (as by a server restart): the pool recovers without being reopened")
    func allSessionsEnded() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 4)
        defer { pool.close() }
        let before = try backendPIDsOnThreads(pool, threads: 4)
        for pid in Set(before) { try terminateBackend(pid) }
        let after = try backendPIDsOnThreads(pool, threads: 8)
        #expect(after.count == 8)
        #expect(Set(after).isDisjoint(with: before))
    }

    @Test("a transaction left open by the body is rolled back before the connection is reused")
    func openTransactionRolledBack() throws {
        let pool = try PostgresConnectionPool(url: try testDatabaseURL(), size: 1)
        defer { pool.close() }
        let table = uniqueTableName("left_open")
        try pool.withConnection { try $0.execute("CREATE TABLE \(table) (n BIGINT)") }
        defer { try? pool.withConnection { try $0.execute("DROP TABLE \(table)") } }
        struct Abandoned: Error {}
        let pid = try pool.withConnection(backendPID)
        #expect(throws: Abandoned.self) {
            try pool.withConnection { connection in
                try connection.execute("BEGIN")
                try connection.update("INSERT INTO \(table) VALUES ($1)", [.int64(1)])
                throw Abandoned()
            }
        }
        let (pidAfter, count) = try pool.withConnection { connection in
            (try backendPID(connection), try connection.query("SELECT count(*) FROM \(table)")[0].requiredInt64(0))
        }
        #expect(pidAfter == pid)  // rolled back, not thrown away
        #expect(count == 0)
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
