import Foundation
import HearthAuth
import Testing

/// A clock tests move by hand (the server keeps real time).
final class TestClock: @unchecked Sendable {
    // @unchecked: `offset` is guarded by `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func advance(by seconds: TimeInterval) {
        lock.lock()
        offset += seconds
        lock.unlock()
    }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return Date().addingTimeInterval(offset)
    }
}

/// HearthAuth against a real `hearth serve --dev`: the library refreshes near expiry, shares one refresh
/// among concurrent callers, and signs out when Hearth ends the session.
@Suite("HearthAuth against the server (e2e)", .blocking)
struct ClientLibraryTests {
    private func signedIn(_ server: HearthProcess, email: String, clock: TestClock) async throws -> Auth {
        let auth = Auth(
            options: HearthOptions(apiKey: "e2e-key", projectID: "demo-hearth"), sessionStore: InMemorySessionStore(),
            clock: { clock.now })
        auth.useEmulator(withHost: "127.0.0.1", port: Int(server.port))
        let google = try DevGoogle(server: server).signIn(email: email)
        try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: google.idToken, accessToken: google.accessToken))
        return auth
    }

    private func refreshRequests(_ server: HearthProcess) -> Int {
        server.lines.filter { $0.contains("path=/securetoken.googleapis.com/v1/token") }.count
    }

    @Test("no refresh while the token is fresh; one refresh within 5 minutes of expiry, shared by 20 callers")
    func refreshNearExpiry() async throws {
        let server = HearthProcess()
        try server.start()
        let clock = TestClock()
        let auth = try await signedIn(server, email: "lib@example.com", clock: clock)
        let user = try #require(auth.currentUser)
        _ = try await user.getIDToken()
        #expect(refreshRequests(server) == 0)

        clock.advance(by: 3600 - 240)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await user.getIDToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        try await Task.sleep(for: .milliseconds(200))  // let the server's log line arrive
        #expect(refreshRequests(server) == 1)
        let result = try await user.getIDTokenResult()
        #expect(result.signInProvider == "google.com")
    }

    @Test("revocation on the server signs the library out and tells listeners")
    func revocationSignsOut() async throws {
        let server = HearthProcess()
        try server.start()
        let clock = TestClock()
        let auth = try await signedIn(server, email: "gone@example.com", clock: clock)
        let user = try #require(auth.currentUser)
        let signedOut = Locked(false)
        auth.addStateDidChangeListener { _, current in if current == nil { signedOut.withLock { $0 = true } } }
        #expect(try server.runCommand(["users", "revoke", user.uid]).status == 0)
        await #expect {
            _ = try await user.getIDToken(forcingRefresh: true)
        } throws: { error in
            (error as? AuthError)?.code == .userTokenExpired
        }
        #expect(auth.currentUser == nil)
        for _ in 0..<50 where !signedOut.value { try await Task.sleep(for: .milliseconds(20)) }
        #expect(signedOut.value)
    }
}
