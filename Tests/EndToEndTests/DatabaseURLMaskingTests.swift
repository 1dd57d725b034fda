import Foundation
import Postgres
import Testing

/// A PostgreSQL URL's password never reaches the output of the built `hearth` (production mode), however it is
/// written: with unencoded `/ # ? @ :` in it (which libpq misreads, then quotes pieces of as a host or port),
/// percent-encoded, as a query parameter, for several hosts; whether the server is unreachable, refuses the
/// password, or accepts it.
@Suite("Database URLs shown masked (e2e)", .blocking)
struct DatabaseURLMaskingTests {
    static let production = ["HEARTH_API_KEYS": "mask-key", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"]
    /// Every password below is made of these two pieces; neither may ever be printed.
    static let fragments = ["Zq7x", "Wv9k"]

    /// `user`'s URLs of `database` at `127.0.0.1:port`, each with the password `Zq7x`·`Wv9k` written another way.
    static func urls(user: String, port: Int, database: String) -> [String] {
        let host = "127.0.0.1:\(port)"
        return ["/", "#", "?", "@", ":"].map { "postgres://\(user):Zq7x\($0)Wv9k@\(host)/\(database)" } + [
            "postgresql://\(user):Zq7x%2FWv9k%40@\(host)/\(database)",
            "postgres://\(user):Zq7x/Wv9k@\(host),\(host)/\(database)",
            "postgres://\(user):Zq7x:Wv9k@\(host),\(host)/\(database)?target_session_attrs=read-write",
            "postgres://\(user)@\(host),\(host)/\(database)?target_session_attrs=read-write&password=Zq7x/Wv9k",
            "postgres://\(user)@\(host)/\(database)?sslmode=disable&password=Zq7x@Wv9k",
        ]
    }

    /// Runs `hearth serve` in production mode on `url`, to the end (it fails to open the database).
    static func refusedServe(_ url: String) throws -> (status: Int32, output: String) {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try HearthProcess.run(
            ["serve", "--port", "0", "--project-id", "mask", "--data-dir", directory.path, "--database", url],
            environment: production)
    }

    static func expectNothingOfThePassword(in output: String, _ url: String) {
        for fragment in fragments {
            #expect(!output.contains(fragment), "\(url) printed: \(output)")
        }
    }

    @Test("an unreachable server: users list and serve fail, naming the database without any of the password")
    func unreachable() throws {
        let port = Int(try unusedPort())
        for url in Self.urls(user: "hearth", port: port, database: "hearth") {
            for result in [try HearthProcess.run(["users", "list", "--database", url]), try Self.refusedServe(url)] {
                #expect(result.status == 1, "\(url): \(result.output)")
                #expect(result.output.contains("cannot open database postgres"), "\(url): \(result.output)")
                Self.expectNothingOfThePassword(in: result.output, url)
            }
        }
        let keywords = "host=127.0.0.1 port=\(port) user=hearth password=Zq7x/Wv9k"
        let refused = try HearthProcess.run(["users", "list", "--database", keywords])
        #expect(refused.status == 64)
        #expect(refused.output.contains("keyword/value strings (host=… dbname=…) are not accepted"), "\(refused.output)")
        Self.expectNothingOfThePassword(in: refused.output, keywords)
    }

    @Test("the test cluster refusing a wrong password: the same, and libpq's explanation loses what it quotes")
    func wrongPassword() throws {
        let role = try PasswordRole(password: "the-right-one")
        for url in Self.urls(user: role.name, port: role.port, database: role.databaseName) {
            for result in [try HearthProcess.run(["users", "list", "--database", url]), try Self.refusedServe(url)] {
                #expect(result.status == 1, "\(url): \(result.output)")
                Self.expectNothingOfThePassword(in: result.output, url)
                // Forms libpq reads as the URL means them reach the server, which refuses the password.
                if !url.contains(":Zq7x/") && !url.contains(":Zq7x@") {
                    #expect(result.output.contains("password authentication failed for user \"***\""), "\(url): \(result.output)")
                }
            }
        }
    }

    @Test("a password with # that libpq reads: serve runs, and its banner shows the URL masked")
    func acceptedPassword() throws {
        let role = try PasswordRole(password: "Zq7x#Wv9k")
        let url = "postgres://\(role.name):Zq7x#Wv9k@127.0.0.1:\(role.port)/\(role.databaseName)"
        let server = HearthProcess(arguments: ["--project-id", "mask", "--database", url], environment: Self.production)
        try server.start()
        let listed = try HearthProcess.run(["users", "list", "--database", url])
        server.stop()
        #expect(listed.status == 0, "\(listed.output)")
        let banner = "Database           PostgreSQL postgres://\(role.name):***@127.0.0.1:\(role.port)/\(role.databaseName)"
        #expect(server.lines.contains { $0.contains(banner) }, "\(server.lines)")
        Self.expectNothingOfThePassword(in: (server.lines + [listed.output]).joined(separator: "\n"), url)
    }
}

/// A login role of the test cluster that must give its password (a member of `hearth_password_roles`, which
/// `scripts/postgres-cluster` does not trust), with a database of its own; both dropped at the end.
final class PasswordRole {
    let name = "hearth_pw_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let port: Int
    let databaseName: String
    private let database: TestPostgresDatabase
    private let clusterURL: String

    /// `password` goes into SQL as a literal: no `'` or `\` in it.
    init(password: String) throws {
        database = try TestPostgresDatabase()
        clusterURL = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"] ?? ""
        guard let components = URLComponents(string: database.url), let port = components.port else {
            throw RawHTTP.Failure(description: "the test database's URL names no port")
        }
        self.port = port
        databaseName = String(components.path.dropFirst())
        let connection = try PostgresConnection(url: clusterURL)
        defer { connection.close() }
        // Names cannot be parameters; these are made of letters, digits and `_`.
        try connection.execute("""
            DO $$ BEGIN CREATE ROLE hearth_password_roles NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
            """)
        try connection.execute("CREATE ROLE \(name) LOGIN PASSWORD '\(password)' IN ROLE hearth_password_roles")
        try connection.execute("ALTER DATABASE \(databaseName) OWNER TO \(name)")
    }

    deinit {
        guard let connection = try? PostgresConnection(url: clusterURL) else { return }
        try? connection.execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        try? connection.execute("DROP ROLE IF EXISTS \(name)")
        connection.close()
    }
}
