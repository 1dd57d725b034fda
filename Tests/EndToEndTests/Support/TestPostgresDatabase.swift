import Foundation
import Postgres

/// A PostgreSQL database of one test's own, made on the test cluster (`HEARTH_TEST_POSTGRES_URL`, which
/// `scripts/test` exports) and dropped when the test is done.
final class TestPostgresDatabase {
    /// The database's URL, for `--database` / `HEARTH_DATABASE_URL`.
    let url: String
    private let clusterURL: String
    private let name: String

    init() throws {
        guard let clusterURL = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"], !clusterURL.isEmpty else {
            throw RawHTTP.Failure(
                description: "HEARTH_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a "
                    + "throwaway PostgreSQL cluster (or export the URL of one whose user may create databases)")
        }
        guard var components = URLComponents(string: clusterURL) else {
            throw RawHTTP.Failure(description: "HEARTH_TEST_POSTGRES_URL is not a URL")
        }
        name = "hearth_e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PostgresConnection(url: clusterURL)
        defer { connection.close() }
        // A name cannot be a parameter; this one is made of hex digits only. Hearth needs UTF8.
        try connection.execute("CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'")
        components.path = "/" + name
        self.clusterURL = clusterURL
        url = components.string ?? clusterURL
    }

    deinit {
        guard let connection = try? PostgresConnection(url: clusterURL) else { return }
        try? connection.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        connection.close()
    }
}
