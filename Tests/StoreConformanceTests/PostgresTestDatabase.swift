import Foundation
import Postgres

/// A database of its own for each test directory, on the server `HEARTH_TEST_POSTGRES_URL` names (a superuser URL
/// such as `postgres://hearth@127.0.0.1:PORT/postgres`; `scripts/test` starts a throwaway cluster and sets it).
///
/// The database's name is derived from the directory's path, so reopening a store of the same directory reaches
/// the same data. It is created with an ICU collation that does not sort by bytes (`en-US`: `a` < `B`), so that the
/// store's byte-order guarantees are tested, and dropped when the `TemporaryDirectory` goes.
enum PostgresTestDatabase {
    static let environmentVariable = "HEARTH_TEST_POSTGRES_URL"

    struct MissingURL: Error, CustomStringConvertible {
        var description: String {
            "\(PostgresTestDatabase.environmentVariable) is not set: the PostgreSQL store tests need a server. Run "
                + "them with scripts/test (which starts a throwaway cluster), or set it to a superuser URL such as "
                + "postgres://hearth@127.0.0.1:55432/postgres"
        }
    }

    /// The superuser URL of the test server.
    static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[environmentVariable], !url.isEmpty else {
            throw MissingURL()
        }
        return url
    }

    /// `hearth_test_` and 16 hex digits of a stable hash (FNV-1a) of `directory`.
    static func name(forDirectory directory: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in directory.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "hearth_test_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The URL of the server with `database` in place of the one it names.
    static func url(database: String) throws -> String {
        guard var components = URLComponents(string: try serverURL()) else {
            throw PostgresError(message: "\(environmentVariable) is not a postgres:// URL")
        }
        components.path = "/" + database
        return components.string!
    }

    /// The URL of the database of `directory`, created (empty) if it does not exist yet; its name is kept in the
    /// directory so that the directory's removal drops it.
    static func url(forDirectory directory: String) throws -> String {
        let database = name(forDirectory: directory)
        try withServer { server in
            guard try server.query("SELECT 1 FROM pg_database WHERE datname = $1", [.text(database)]).isEmpty else {
                return
            }
            // Names are [a-z0-9_] by construction, so the identifier needs no quoting.
            try server.execute(
                "CREATE DATABASE \(database) TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'")
        }
        try Data(database.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(markerFile))
        return try url(database: database)
    }

    /// The file in a test directory that names its database.
    static let markerFile = "postgres-database"

    /// Drops the database named in `directory`'s marker file, if there is one, ending its connections first.
    static func dropDatabase(ofDirectory directory: String) {
        let marker = URL(fileURLWithPath: directory).appendingPathComponent(markerFile)
        guard let database = try? String(contentsOf: marker, encoding: .utf8),
            database.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { return }
        try? withServer { try $0.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
    }

    /// Runs `body` with a connection to the server's maintenance database.
    static func withServer<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresConnection(url: try serverURL())
        defer { connection.close() }
        return try body(connection)
    }
}
