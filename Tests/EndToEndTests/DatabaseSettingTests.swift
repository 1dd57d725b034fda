import Foundation
import Postgres
import Testing

/// `--database` / `HEARTH_DATABASE_URL` / `database`: which store `hearth serve` and the other commands open.
@Suite("Database setting (e2e)", .blocking)
struct DatabaseSettingTests {
    @Test("--database sqlite:PATH puts the database there, and the commands find it through HEARTH_DATABASE_URL")
    func sqlitePath() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("elsewhere/users.sqlite").path
        let server = HearthProcess(arguments: ["--dev", "--database", "sqlite:" + path])
        try server.start()
        #expect(server.lines.contains { $0.contains("Database           SQLite \(path)") }, "\(server.lines)")
        let session = try SignedIn(
            FirebaseIOSClient(server: server).verifyAssertion(
                idToken: try DevGoogle(server: server).signIn(email: "path@example.com").idToken, accessToken: nil))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: server.dataDirectory.appendingPathComponent("hearth.sqlite").path))
        let shown = try HearthProcess.run(["users", "show", session.localID], environment: ["HEARTH_DATABASE_URL": path])
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("path@example.com"))
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: ["database": "sqlite:" + path]).write(to: config)
        let listed = try HearthProcess.run(["keys", "list", "--config", config.path])
        #expect(listed.status == 0 && listed.output.contains("current"), "\(listed.output)")
        // A directory named by --database may hold other things: its mode stays, the database is the owner's alone.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let copyPath = directory.appendingPathComponent("copy.sqlite").path
        server.stop()  // `db copy` refuses a source that a server has open
        let copied = try HearthProcess.run(["db", "copy", "--from", path, "--to", "sqlite:" + copyPath])
        #expect(copied.status == 0, "\(copied.output)")
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(directory.path) == 0o755)
        #expect(try mode(copyPath) == 0o600)
        let elsewhere = try HearthProcess.run(["users", "list", "--database", directory.appendingPathComponent("none.sqlite").path])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.output.contains("no Hearth database at"), "\(elsewhere.output)")
    }

    @Test("--dev with --database sqlite:PATH makes the data directory it keeps the dev Apple's key in")
    func sqlitePathWithNewDataDirectory() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataDirectory = directory.appendingPathComponent("not-yet")
        let server = HearthProcess(
            arguments: ["--dev", "--database", "sqlite:" + directory.appendingPathComponent("users.sqlite").path],
            dataDirectory: dataDirectory)
        try server.start()
        #expect(FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("dev-apple-client-key.p8").path))
        _ = try DevGoogle(server: server).signIn(email: "new-dir@example.com")
    }

    @Test("PostgreSQL: the banner names the store with its password hidden, which no output ever shows")
    func postgresBannerHidesPassword() throws {
        let database = try TestPostgresDatabase()
        var components = try #require(URLComponents(string: database.url))
        components.password = "pw-not-to-print"  // the test cluster trusts local connections: any password works
        let url = try #require(components.string)
        let server = HearthProcess(arguments: ["--dev", "--database", url])
        try server.start()
        components.password = "***"
        let redacted = try #require(components.string)
        #expect(server.lines.contains { $0.contains("Database           PostgreSQL \(redacted)") }, "\(server.lines)")
        _ = try DevGoogle(server: server).signIn(email: "pg@example.com")
        let listed = try HearthProcess.run(["keys", "list", "--database", url])
        #expect(listed.status == 0, "\(listed.output)")
        server.stop()
        #expect(!(server.lines + [listed.output]).joined().contains("pw-not-to-print"))
    }

    @Test("PostgreSQL: /metrics shows the connection pool (threads + 3 connections), and the in-use gauge returns to 0")
    func postgresPoolMetrics() throws {
        let database = try TestPostgresDatabase()
        let server = HearthProcess(arguments: ["--dev", "--database", database.url, "--threads", "6"])
        try server.start()
        _ = try DevGoogle(server: server).signIn(email: "pool@example.com")
        // The maintenance task's passes hold a connection now and then, so a scrape may see it in use: the gauge must
        // come back to 0 (a leaked connection never would), not read 0 at one instant.
        func idle(_ result: HTTPResult) -> Bool {
            let samples = try? OperationsTests.samples(result.text)
            return samples?["hearth_store_connections_in_use"] == 0 && samples?["hearth_store_connections_waiting"] == 0
        }
        let scrape = OperationsTests.poll({ try server.request("GET", "/metrics") }, until: idle)
        let samples = try OperationsTests.samples(try #require(scrape, "the pool never came back to idle").text)
        #expect(samples["hearth_store_connections_max"] == 9)
        server.stop()

        let sqlite = HearthProcess(arguments: ["--dev"])
        try sqlite.start()
        let plain = try OperationsTests.samples(try sqlite.request("GET", "/metrics").text)
        #expect(plain["hearth_store_connections_max"] == nil, "SQLite has no pool to show")
        #expect(plain["hearth_store_round_trips_total"] == nil)
        sqlite.stop()
    }

    @Test("PostgreSQL: /metrics counts round trips; a returning sign-in takes at most 6, a lookup 2, a refresh 4")
    func postgresRoundTrips() throws {
        let database = try TestPostgresDatabase()
        let server = HearthProcess(arguments: ["--dev", "--database", database.url])
        try server.start()
        defer { server.stop() }
        let client = FirebaseIOSClient(server: server)
        let googleToken = try DevGoogle(server: server).signIn(email: "trips@example.com").idToken
        let first = try client.verifyAssertion(idToken: googleToken, accessToken: nil)
        #expect(first.status == 200, "\(first.text)")
        func roundTrips() throws -> Double {
            try #require(OperationsTests.samples(try server.request("GET", "/metrics").text)["hearth_store_round_trips_total"])
        }
        // The counter is the whole server's: the key ring's reload and the maintenance task count too when they
        // happen to run meanwhile (on a busy machine a request takes long enough for that), so each operation runs
        // three times and its cheapest run is its cost.
        func cost(_ operation: () throws -> HTTPResult) throws -> Double {
            var cheapest = Double.infinity
            for _ in 0..<3 {
                let before = try roundTrips()
                let result = try operation()
                #expect(result.status == 200, "\(result.text)")
                cheapest = min(cheapest, try roundTrips() - before)
            }
            return cheapest
        }
        let signIn = try cost { try client.verifyAssertion(idToken: googleToken, accessToken: nil) }
        #expect(signIn >= 1 && signIn <= 6, "a returning sign-in took \(signIn) round trips")
        let idToken = try #require(first.json["idToken"] as? String)
        let lookup = try cost { try client.getAccountInfo(idToken: idToken) }
        #expect(lookup >= 1 && lookup <= 2, "a lookup took \(lookup) round trips")
        var refreshToken = try #require(first.json["refreshToken"] as? String)
        let refresh = try cost {
            let result = try client.refresh(refreshToken)
            if let next = result.json["refresh_token"] as? String { refreshToken = next }
            return result
        }
        #expect(refresh >= 1 && refresh <= 4, "a refresh took \(refresh) round trips")
    }

    @Test("an unreachable PostgreSQL server or a bad URL is a clear error, without the password")
    func unreachable() throws {
        let url = "postgres://hearth:pw-not-to-print@127.0.0.1:\(try unusedPort())/hearth"
        let served = try HearthProcess.run(["serve", "--dev", "--port", "0", "--database", url])
        #expect(served.status == 1)
        #expect(served.output.contains("cannot open database postgres://hearth:***@127.0.0.1"), "\(served.output)")
        #expect(!served.output.contains("pw-not-to-print"))
        let listed = try HearthProcess.run(["users", "list"], environment: ["HEARTH_DATABASE_URL": "mysql://h/db"])
        #expect(listed.status == 64)
        #expect(listed.output.contains("HEARTH_DATABASE_URL: unknown kind of database"), "\(listed.output)")
        let badPoolMode = try HearthProcess.run(
            ["users", "list", "--database", "postgres://hearth:pw-not-to-print@h1:5432,h2:5432/hearth?pool_mode=statement"])
        #expect(badPoolMode.status == 64)
        #expect(badPoolMode.output.contains("--database: the PostgreSQL URL's pool_mode must be session or transaction"),
                "\(badPoolMode.output)")
        #expect(!badPoolMode.output.contains("pw-not-to-print"))
    }

    @Test("PostgreSQL: keys reencrypt seals the secrets a server wrote in the clear; without the key the server is refused")
    func reencryptOnPostgres() throws {
        let database = try TestPostgresDatabase()
        let plainServer = HearthProcess(arguments: ["--dev", "--database", database.url])
        try plainServer.start()
        plainServer.stop()
        func storedKeys() throws -> [String] {
            let connection = try PostgresConnection(url: database.url)
            defer { connection.close() }
            return try connection.query("SELECT private_key_pem FROM signing_keys").map { try $0.requiredText(0) }
        }
        #expect(try storedKeys().allSatisfy { $0.contains("PRIVATE KEY") }, "the reproduction: keys in the clear")

        let environment = ["HEARTH_ENCRYPTION_KEY": "q2kN8I7mZl8m0wYq8x2L7WnK1dZb6bJ1l3O9m1Qm0pE="]
        let reencrypt = try HearthProcess.run(["keys", "reencrypt", "--database", database.url], environment: environment)
        #expect(reencrypt.status == 0, "\(reencrypt.output)")
        #expect(reencrypt.output.contains("(0 under a previous key, "), "\(reencrypt.output)")
        let sealed = try storedKeys()
        #expect(!sealed.isEmpty && sealed.allSatisfy { $0.hasPrefix("hearth-sealed:v1:") })

        let withoutKey = try HearthProcess.run(["serve", "--dev", "--port", "0", "--database", database.url])
        #expect(withoutKey.status == 1)
        #expect(withoutKey.output.contains("cannot read the secrets in postgres://"), "\(withoutKey.output)")
        let withKey = HearthProcess(arguments: ["--dev", "--database", database.url], environment: environment)
        try withKey.start()
        _ = try DevGoogle(server: withKey).signIn(email: "sealed@example.com")
    }
}
