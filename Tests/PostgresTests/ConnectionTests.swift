import Foundation
import Postgres
import Testing

@Suite("Connecting")
struct ConnectionTests {
    /// The test cluster's URL with `user:password` and `port` put in.
    func testURL(user: String, password: String, port: Int? = nil) throws -> String {
        var components = try #require(URLComponents(string: try testDatabaseURL()))
        components.user = user
        components.password = password
        if let port { components.port = port }
        return try #require(components.string)
    }

    @Test("an unreachable port fails in init as a connection failure, without the password")
    func unreachablePort() throws {
        let url = try testURL(user: "hearth", password: "pw-unreachable-9f3", port: 1)
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.sqlState == nil)
        #expect(error?.message.isEmpty == false)
        #expect(error.map { "\($0)" }?.contains("pw-unreachable-9f3") == false)
        #expect(throws: PostgresError.self) { try PostgresConnectionPool(url: url, size: 2) }
    }

    @Test("a multi-host URL with target_session_attrs=read-write skips a host that is down and finds the primary")
    func multiHostURL() throws {
        let cluster = try #require(URLComponents(string: try testDatabaseURL()))
        let port = try #require(cluster.port)
        let url = "postgres://hearth@127.0.0.1:1,127.0.0.1:\(port)/postgres?target_session_attrs=read-write&connect_timeout=5"
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        #expect(try connection.query("SELECT inet_server_port()")[0].requiredInt64(0) == Int64(port))
        #expect(try connection.query("SELECT pg_is_in_recovery()")[0].bool(0) == false)
        let bothDown = "postgres://hearth@127.0.0.1:1,127.0.0.1:2/postgres?target_session_attrs=read-write"
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: bothDown) }
        #expect(error?.isConnectionFailure == true)
    }

    @Test("a connection string libpq cannot parse fails without quoting it (libpq would quote the password)")
    func unparsableURL() throws {
        for url in [
            "postgres://hearth:pw-%zz-secret@127.0.0.1:5432/postgres",
            "host=127.0.0.1 password=pw-kv-secret oops",
            "postgres://hearth@127.0.0.1:5432/postgres?password=pw-query-secret&nonsense=1",
        ] {
            let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: url) }
            #expect(error?.isConnectionFailure == true)
            #expect(error.map { "\($0)" }?.contains("secret") == false, "\(error?.message ?? "")")
        }
    }

    @Test("a password that libpq's message does echo (here it is also the user name) is replaced by ***")
    func passwordInServerMessageIsRedacted() throws {
        let url = try testURL(user: "pw-also-user-7c1", password: "pw-also-user-7c1")
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.message.contains("pw-also-user-7c1") == false)
        #expect(error?.message.contains("***") == true)
    }

    @Test("the session uses UTF8 even when the URL asks for another client encoding")
    func clientEncoding() throws {
        let connection = try PostgresConnection(url: try testDatabaseURL() + "?client_encoding=LATIN1")
        #expect(try connection.query("SHOW client_encoding")[0].requiredText(0) == "UTF8")
        #expect(try connection.query("SELECT $1::text", [.text("ü€")])[0].requiredText(0) == "ü€")
    }

    @Test("server notices reach onNotice, not stderr")
    func notices() throws {
        let connection = try connect()
        var notices: [String] = []
        connection.onNotice = { notices.append($0) }
        try connection.execute("DO $$ BEGIN RAISE WARNING 'careful: %', 42; END $$")
        _ = try connection.query("SELECT 1")
        #expect(notices == ["WARNING:  careful: 42"])
        connection.onNotice = nil
        try connection.execute("DO $$ BEGIN RAISE WARNING 'dropped'; END $$")
        #expect(notices.count == 1)
    }
}
