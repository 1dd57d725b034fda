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
}
