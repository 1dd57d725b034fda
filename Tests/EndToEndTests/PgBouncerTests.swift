import Foundation
import Testing

/// `hearth serve --dev` behind PgBouncer in transaction pooling mode (the usual front of a shared PostgreSQL): the
/// pooler may run each transaction on another server session, so nothing Hearth relies on may outlive a transaction
/// on the session. The URL says `pool_mode=transaction`, and Hearth sends its statements unnamed (without it, named
/// prepared statements went to sessions that did not have them, and the second sign-in answered 500).
@Suite("Behind PgBouncer in transaction pooling mode (e2e)", .serialized)
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

    @Test("PostgreSQL restarted behind PgBouncer: its errors are answered 503 at worst, never 500, and Hearth goes on")
    func restartBehindPgBouncer() throws {
        let cluster = try PostgresClusterScript.cluster()
        let bouncer = try PostgresClusterScript.pgbouncer(inFrontOfPort: cluster.port)
        let server = HearthProcess(arguments: ["--dev", "--database", bouncer.url + "?pool_mode=transaction"])
        try server.start()
        defer {
            server.stop()
            withExtendedLifetime((bouncer, cluster)) {}
        }
        let client = FirebaseIOSClient(server: server)
        let before = try SignedIn(
            client.verifyAssertion(idToken: try DevGoogle(server: server).signIn(email: "bounced@example.com").idToken, accessToken: nil))
        try cluster.restart()
        // PgBouncer's server sessions died with the restart; the first requests may meet that (SQLSTATE 08P01).
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
