import Foundation
import Postgres
import Synchronization
import Testing

/// The test cluster's superuser URL, from `HEARTH_TEST_POSTGRES_URL` (set by `scripts/test`).
///
/// - Throws: `MissingTestDatabase` when it is unset, so a test that needs PostgreSQL fails (never skips) and says
///   how to run it.
func testDatabaseURL() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"], !url.isEmpty else {
        throw MissingTestDatabase()
    }
    return url
}

struct MissingTestDatabase: Error, CustomStringConvertible {
    var description: String {
        "HEARTH_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throwaway PostgreSQL "
            + "cluster (or start one with scripts/postgres-cluster start DIR and export the URL it prints)"
    }
}

/// A new connection to the test cluster.
func connect() throws -> PostgresConnection {
    try PostgresConnection(url: testDatabaseURL())
}

/// A table name no other test uses, for tables that several connections share (temporary tables are per session).
func uniqueTableName(_ prefix: String) -> String {
    "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
}

/// Runs `body` on `count` threads at once and returns what each of them returned or threw.
func resultsOnThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable () throws -> T) -> [Result<T, any Error>] {
    let results = ThreadResults<T>()
    let group = DispatchGroup()
    for _ in 0..<count {
        group.enter()
        Thread {
            let result = Result { try body() }
            results.list.withLock { $0.append(result) }
            group.leave()
        }.start()
    }
    group.wait()
    return results.list.withLock { $0 }
}

final class ThreadResults<T: Sendable>: Sendable {
    let list = Mutex<[Result<T, any Error>]>([])
}

/// Ends the session of the server process `pid` from a connection of its own, and waits until the server has
/// finished with it (it is gone from pg_stat_activity).
func terminateBackend(_ pid: Int64) throws {
    let admin = try connect()
    defer { admin.close() }
    #expect(try admin.query("SELECT pg_terminate_backend($1::int)", [.int64(pid)]).first?.bool(0) == true)
    while try admin.query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int", [.int64(pid)])[0]
        .requiredInt64(0) > 0
    {
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// Runs `threads` calls on `pool` at once, each holding its connection a moment, and returns the server process
/// each was served by.
func backendPIDsOnThreads(_ pool: PostgresConnectionPool, threads: Int) throws -> [Int64] {
    try resultsOnThreads(threads) {
        try pool.withConnection { connection in
            _ = try connection.query("SELECT pg_sleep(0.02)")
            return try backendPID(connection)
        }
    }.map { try $0.get() }
}

/// The server process serving `connection`.
func backendPID(_ connection: PostgresConnection) throws -> Int64 {
    try connection.query("SELECT pg_backend_pid()")[0].requiredInt64(0)
}
