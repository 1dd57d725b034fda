import Foundation
import HearthAuth
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refresh-token rotation, reuse detection, the per-account session cap and the background purge,
/// against the built `hearth` with the exact refresh requests of the iOS SDK (JSON) and the web SDK (form).
@Suite("Sessions: rotation, reuse, cap, purge (e2e)", .blocking)
struct SessionRotationTests {
    /// `hearth serve --dev` with a `sessions` section in its config file.
    private func server(sessions: [String: Any] = [:], environment: [String: String] = [:]) throws -> HearthProcess {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: ["sessions": sessions]).write(to: config)
        let server = HearthProcess(
            arguments: ["--dev", "--config", config.path], environment: environment, dataDirectory: directory)
        try server.start()
        return server
    }

    private func signIn(_ server: HearthProcess, email: String) throws -> SignedIn {
        try SignedIn(
            FirebaseIOSClient(server: server).verifyAssertion(
                idToken: try DevGoogle(server: server).signIn(email: email).idToken, accessToken: nil))
    }

    @Test("each refresh (iOS JSON, web form) returns a new refresh token; a retried lost response gets the same one")
    func rotationAndRetry() throws {
        let server = try server()
        let client = FirebaseIOSClient(server: server)
        let session = try signIn(server, email: "rotate@example.com")

        let first = try client.refresh(session.refreshToken)
        #expect(first.status == 200)
        let next = try #require(first.json["refresh_token"] as? String)
        #expect(next != session.refreshToken)
        // The response was lost; the client retries with the token it still has.
        let retried = try client.refresh(session.refreshToken)
        #expect(retried.status == 200)
        #expect(retried.json["refresh_token"] as? String == next)
        #expect(try client.getAccountInfo(idToken: try #require(retried.json["id_token"] as? String)).status == 200)

        let viaForm = try client.refreshWithForm(next)
        #expect(viaForm.status == 200)
        let afterForm = try #require(viaForm.json["refresh_token"] as? String)
        #expect(afterForm != next)
        let third = try client.refresh(afterForm)
        #expect(third.status == 200)
        let last = try #require(third.json["refresh_token"] as? String)

        let log = server.lines.joined(separator: "\n")
        for token in [session.refreshToken, next, afterForm, last] { #expect(!log.contains(token)) }
    }

    @Test("reuse after the grace window revokes the whole session: the newest token is TOKEN_EXPIRED too")
    func reuseRevokesSession() throws {
        let server = try server(sessions: ["reuseGraceSeconds": 0])
        let client = FirebaseIOSClient(server: server)
        let other = try signIn(server, email: "reuse@example.com")
        let stolen = try signIn(server, email: "reuse@example.com")
        let second = try #require(try client.refresh(stolen.refreshToken).json["refresh_token"] as? String)
        let newest = try #require(try client.refresh(second).json["refresh_token"] as? String)

        let reuse = try client.refresh(stolen.refreshToken)
        #expect(reuse.status == 400)
        #expect(reuse.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(try client.refresh(newest).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(try client.refreshWithForm(second).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        // The account's other session and new sign-ins are unaffected.
        #expect(try client.refresh(other.refreshToken).status == 200)
        #expect(try client.refresh(try signIn(server, email: "reuse@example.com").refreshToken).status == 200)
    }

    @Test("one Google ID token replayed beyond the cap leaves the newest sessions; the oldest are revoked")
    func sessionCap() throws {
        let server = try server(sessions: ["maxPerAccount": 3])
        let client = FirebaseIOSClient(server: server)
        let google = try DevGoogle(server: server).signIn(email: "cap@example.com")
        let sessions = try (0..<6).map { _ in try SignedIn(client.verifyAssertion(idToken: google.idToken, accessToken: nil)) }
        let answers = try sessions.map { try client.refresh($0.refreshToken) }
        #expect(answers.filter { $0.status == 200 }.count == 3)
        #expect(answers.first?.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(answers.last?.status == 200)
    }

    @Test("HEARTH_ROTATE_REFRESH_TOKENS=0 keeps the refresh token across refreshes")
    func rotationOff() throws {
        let server = try server(environment: ["HEARTH_ROTATE_REFRESH_TOKENS": "0"])
        let client = FirebaseIOSClient(server: server)
        let session = try signIn(server, email: "static@example.com")
        for _ in 0..<3 {
            #expect(try client.refresh(session.refreshToken).json["refresh_token"] as? String == session.refreshToken)
        }
    }

    @Test("the background purge deletes a revoked session; the server stops cleanly")
    func backgroundPurge() throws {
        let server = try server(sessions: ["reuseGraceSeconds": 0, "revokedRetentionSeconds": 0, "purgeIntervalSeconds": 1])
        let client = FirebaseIOSClient(server: server)
        let session = try signIn(server, email: "purge@example.com")
        let next = try #require(try client.refresh(session.refreshToken).json["refresh_token"] as? String)
        #expect(try client.refresh(session.refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        // Revoked tokens are answered TOKEN_EXPIRED until the purge deletes them; then they are unknown.
        var answer = try client.refresh(next).errorMessage ?? ""
        for _ in 0..<120 where answer.hasPrefix("TOKEN_EXPIRED") {
            Thread.sleep(forTimeInterval: 0.25)
            answer = try client.refresh(next).errorMessage ?? ""
        }
        #expect(answer == "INVALID_REFRESH_TOKEN")
        #expect(server.waitForLine { $0.contains("event=maintenance sessions_deleted=1 legacy_refresh_tokens_deleted=0") })
        #expect(server.stop() == 0)
        #expect(server.waitForLine { $0 == "event=stopped" })
    }

    @Test("bad session settings are usage errors")
    func badSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        try Data(#"{"sessions":{"maxPerAccount":0}}"#.utf8).write(to: file)
        let zeroCap = try HearthProcess.run(["serve", "--dev", "--config", file.path, "--data-dir", directory.path])
        #expect(zeroCap.status == 64)
        #expect(zeroCap.output.contains("sessions.maxPerAccount"))
        let badGrace = try HearthProcess.run(
            ["serve", "--dev", "--data-dir", directory.path], environment: ["HEARTH_REFRESH_REUSE_GRACE_SECONDS": "soon"])
        #expect(badGrace.status == 64)
        #expect(badGrace.output.contains("HEARTH_REFRESH_REUSE_GRACE_SECONDS"))
    }

    // MARK: HearthAuth

    private func auth(
        _ server: HearthProcess, email: String, transport: any HTTPTransport, clock: TestClock = TestClock()
    ) async throws -> Auth {
        let auth = Auth(
            options: HearthOptions(apiKey: "e2e-key", projectID: "demo-hearth"), sessionStore: InMemorySessionStore(),
            transport: transport, clock: { clock.now })
        auth.useEmulator(withHost: "127.0.0.1", port: Int(server.port))
        let google = try DevGoogle(server: server).signIn(email: email)
        try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: google.idToken, accessToken: google.accessToken))
        return auth
    }

    @Test("HearthAuth stores each rotated token, shares one refresh among callers, and recovers from a lost response")
    func hearthAuthKeepsWorking() async throws {
        let server = try server()
        let transport = LosingTransport()
        let clock = TestClock()
        let auth = try await auth(server, email: "lib-rotate@example.com", transport: transport, clock: clock)
        let user = try #require(auth.currentUser)
        var seen = [try #require(user.refreshToken)]
        for round in 0..<4 {
            clock.advance(by: 3600)  // the ID token has expired: the next getIDToken refreshes
            if round == 2 {
                // The server rotates, but the answer never arrives: the next refresh retries the same token.
                transport.loseNextTokenResponse()
                await #expect(throws: AuthError.self) { _ = try await user.getIDToken() }
                #expect(user.refreshToken == seen.last)
            }
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 { group.addTask { try await user.getIDToken() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            let current = try #require(user.refreshToken)
            #expect(!seen.contains(current))
            seen.append(current)
            #expect(try FirebaseIOSClient(server: server).getAccountInfo(idToken: try #require(tokens.first)).status == 200)
        }
        #expect(auth.currentUser === user)
        #expect(transport.tokenRequests == 5, "one request per refresh, plus the lost one")
    }

    @Test("a thief using the library's token signs the library out at its next refresh, and the thief's token dies")
    func hearthAuthSignsOutOnReuse() async throws {
        let server = try server(sessions: ["reuseGraceSeconds": 0])
        let auth = try await auth(server, email: "lib-thief@example.com", transport: URLSessionTransport())
        let user = try #require(auth.currentUser)
        _ = try await user.getIDToken(forcingRefresh: true)
        let stolen = try #require(user.refreshToken)
        let client = FirebaseIOSClient(server: server)
        let thiefToken = try #require(try client.refresh(stolen).json["refresh_token"] as? String)
        await #expect {
            _ = try await user.getIDToken(forcingRefresh: true)
        } throws: { error in
            (error as? AuthError)?.code == .userTokenExpired
        }
        #expect(auth.currentUser == nil)
        #expect(try client.refresh(thiefToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
    }
}

/// `URLSessionTransport` that can drop one token response after the server answered it, as a
/// connection lost on the way back would.
final class LosingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let state = Mutex((loseNext: false, tokenRequests: 0))

    func loseNextTokenResponse() { state.withLock { $0.loseNext = true } }

    var tokenRequests: Int { state.withLock { $0.tokenRequests } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await inner.send(request)
        guard request.url.path.hasSuffix("/securetoken.googleapis.com/v1/token") else { return response }
        let lose = state.withLock { state -> Bool in
            state.tokenRequests += 1
            defer { state.loseNext = false }
            return state.loseNext
        }
        if lose { throw URLError(.networkConnectionLost) }
        return response
    }
}
