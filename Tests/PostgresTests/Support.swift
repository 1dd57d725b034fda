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

/// Values collected from several threads.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func add(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// Runs `body(index)` on `count` new threads and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
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

/// The server process serving `connection`.
func backendPID(_ connection: PostgresConnection) throws -> Int64 {
    try connection.query("SELECT pg_backend_pid()")[0].requiredInt64(0)
}
