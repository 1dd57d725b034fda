import Foundation
import Postgres
import Testing

/// `hearth serve --dev` behind PgBouncer in transaction pooling mode (the usual front of a shared PostgreSQL): the
/// pooler may run each transaction on another server session, so nothing Hearth relies on may outlive a transaction
/// on the session. The URL says `pool_mode=transaction`, and Hearth sends its statements unnamed (without it, named
/// prepared statements went to sessions that did not have them, and the second sign-in answered 500).
@Suite("Behind PgBouncer in transaction pooling mode (e2e)", .blocking, .serialized)
struct PgBouncerTests {
    @Test("sign-ins, refreshes and lookups of several users through PgBouncer all answer 200")
    func signInsRefreshesAndLookups() throws {
        let database = try TestPostgresDatabase()
        let components = try #require(URLComponents(string: database.url))
        let clusterPort = try #require(components.port.flatMap { UInt16(exactly: $0) })
        let bouncer = try PostgresClusterScript.pgbouncer(inFrontOfPort: clusterPort)
        let server = HearthProcess(
            arguments: [
                "--dev", "--database", bouncer.url(database: String(components.path.dropFirst())) + "?pool_mode=transaction",
            ])
        try server.start()
        defer {
            server.stop()
            withExtendedLifetime((bouncer, database)) {}
        }
        let client = FirebaseIOSClient(server: server)
        let google = DevGoogle(server: server)
        for round in 1...3 {
            for user in 1...3 {
                let email = "pooled\(user)@example.com"
                let signedIn = try SignedIn(
                    client.verifyAssertion(idToken: try google.signIn(email: email).idToken, accessToken: nil))
                let lookup = try client.getAccountInfo(idToken: signedIn.idToken)
                #expect(lookup.status == 200, "round \(round), \(email): \(lookup.text)")
                let refreshed = try client.refresh(signedIn.refreshToken)
                #expect(refreshed.status == 200, "round \(round), \(email): \(refreshed.text)")
                #expect(refreshed.json["user_id"] as? String == signedIn.localID)
            }
        }
        let anonymous = try SignedIn(client.signUpAnonymously())
        #expect(try client.refresh(anonymous.refreshToken).status == 200)
    }

    @Test("PgBouncer's server sessions ended under it: at worst 503, never 500, and Hearth goes on")
    func serverSessionsEnded() throws {
        let database = try TestPostgresDatabase()
        let components = try #require(URLComponents(string: database.url))
        let clusterPort = try #require(components.port.flatMap { UInt16(exactly: $0) })
        let name = String(components.path.dropFirst())
        let bouncer = try PostgresClusterScript.pgbouncer(inFrontOfPort: clusterPort)
        let server = HearthProcess(arguments: ["--dev", "--database", bouncer.url(database: name) + "?pool_mode=transaction"])
        try server.start()
        defer {
            server.stop()
            withExtendedLifetime((bouncer, database)) {}
        }
        let client = FirebaseIOSClient(server: server)
        let before = try SignedIn(
            client.verifyAssertion(idToken: try DevGoogle(server: server).signIn(email: "ended@example.com").idToken, accessToken: nil))
        // As an administrator or a restart would: every server session PgBouncer holds to the database ends (57P01).
        // From the cluster's own database, so the session that asks is not one of them.
        let admin = try PostgresConnection(url: try #require(ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"]))
        defer { admin.close() }
        let ended = try admin.query(
            // CASE, because PostgreSQL may evaluate the conditions of a WHERE in any order.
            """
            SELECT count(*) FILTER (WHERE CASE WHEN datname = $1 AND pid <> pg_backend_pid() THEN pg_terminate_backend(pid)
                ELSE false END)
            FROM pg_stat_activity
            """, [.text(name)])
        #expect(try ended[0].requiredInt64(0) > 0)
        var statuses: [Int] = []
        var refreshToken = before.refreshToken
        for _ in 0..<6 {
            let refreshed = try client.refresh(refreshToken)
            statuses.append(refreshed.status)
            refreshToken = refreshed.json["refresh_token"] as? String ?? refreshToken
            statuses.append(try client.getAccountInfo(idToken: before.idToken).status)
        }
        #expect(Set(statuses).isSubset(of: [200, 503]), "\(statuses)")
        #expect(statuses.suffix(2) == [200, 200], "\(statuses)")
    }
}
