import Foundation
import Testing

/// `hearth serve --dev` on a primary with a synchronous streaming standby, through a libpq multi-host URL
/// (`target_session_attrs=read-write`): the primary crashes, the standby is promoted, and Hearth carries on without a
/// restart; meanwhile it answers 503, never 500, and never leaves a request without an answer. Every sign-in it
/// acknowledged was on the standby before the answer, so it refreshes afterwards.
@Suite("Failover to a synchronous standby (e2e)", .blocking, .serialized)
struct FailoverTests {
    /// What one sign-in request got: its status, and the refresh token of a 200.
    private struct Attempt: Sendable {
        var status: Int
        var refreshToken: String?
        /// The request got no HTTP answer (RawHTTP's timeout, or the connection closed without one).
        var unanswered: String?
    }

    @Test("sign-ins through a crash of the primary and the standby's promotion: 503s meanwhile, no 500, then resumed")
    func signInsThroughFailover() throws {
        let primary = try PostgresClusterScript.cluster()
        let standby = try PostgresClusterScript.standby(of: primary)
        let url = "postgres://hearth@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/postgres"
            + "?target_session_attrs=read-write&connect_timeout=5"
        let server = HearthProcess(arguments: ["--dev", "--database", url])
        try server.start()
        defer {
            server.stop()
            withExtendedLifetime((primary, standby)) {}
        }
        let client = FirebaseIOSClient(server: server)
        // Google ID tokens from the dev IdP, made while the primary is up (the dev IdP keeps its grants in the store).
        let googleTokens = try (0..<60).map { try DevGoogle(server: server).signIn(email: "failover\($0)@example.com").idToken }

        @Sendable func signIn(_ index: Int) -> Attempt {
            do {
                let result = index.isMultiple(of: 2)
                    ? try client.signUpAnonymously()
                    : try client.verifyAssertion(idToken: googleTokens[index / 2 % googleTokens.count], accessToken: nil)
                return Attempt(status: result.status, refreshToken: result.json["refreshToken"] as? String)
            } catch {
                return Attempt(status: 0, unanswered: "\(error)")
            }
        }

        // Sign-ins run on their own thread from before the crash until after the recovery.
        let attempts = Locked<[Attempt]>([])
        let stopSigningIn = Locked(false)
        let signingIn = DispatchGroup()
        signingIn.enter()
        Thread {
            var index = 0
            while !stopSigningIn.value {
                let attempt = signIn(index)
                attempts.withLock { $0.append(attempt) }
                index += 1
            }
            signingIn.leave()
        }.start()
        func waitForAttempts(_ predicate: ([Attempt]) -> Bool) {
            let deadline = Date().addingTimeInterval(30)
            while !predicate(attempts.value), Date() < deadline { usleep(20_000) }
        }

        waitForAttempts { $0.filter { $0.status == 200 }.count >= 6 }
        try primary.crash()
        // Only the standby is left, and it is read-only: no server fits the URL.
        let duringOutage = (0..<4).map { signIn($0) }
        #expect(duringOutage.allSatisfy { $0.status == 503 }, "\(duringOutage.map { $0.unanswered ?? "\($0.status)" })")
        try standby.promote()
        let promotedAt = attempts.value.count
        waitForAttempts { $0.count >= promotedAt + 3 && $0.suffix(3).allSatisfy { $0.status == 200 } }
        stopSigningIn.withLock { $0 = true }
        signingIn.wait()

        let all = duringOutage + attempts.value
        let statuses = Dictionary(grouping: all, by: \.status).mapValues(\.count)
        #expect(all.compactMap(\.unanswered).isEmpty, "requests without an answer: \(all.compactMap(\.unanswered))")
        #expect(Set(statuses.keys).isSubset(of: [200, 503]), "statuses: \(statuses)")
        #expect(statuses[500] == nil, "statuses: \(statuses)")
        #expect(all.suffix(3).allSatisfy { $0.status == 200 }, "Hearth resumed without a restart; statuses: \(statuses)")

        // Commands take the same multi-host URL, and find the new primary.
        let listed = try HearthProcess.run(["users", "list", "--database", url])
        #expect(listed.status == 0, "\(listed.output)")

        // Every acknowledged sign-in survived the failover.
        let acknowledged = all.filter { $0.status == 200 }
        #expect(acknowledged.count >= 9)
        for attempt in acknowledged {
            let token = try #require(attempt.refreshToken)
            let refreshed = try client.refresh(token)
            #expect(refreshed.status == 200, "\(refreshed.text)")
        }
    }
}
