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
