import Foundation
import HearthProtocol
import Synchronization
import Testing

@testable import HearthAuth

/// HearthAuth against a server that rotates refresh tokens: the single-flight refresh must present the
/// token the last refresh returned, store it, and carry on after a lost response.
@Suite("Refresh-token rotation")
struct TokenRotationTests {
    @Test("20 concurrent callers share each refresh; every rotated token is presented next, stored and restored")
    func rotatesAcrossRefreshes() async throws {
        let test = try await RotationHarness()
        for round in 1...4 {
            test.clock.advance(by: 3600)  // expired: the next getIDToken refreshes
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await test.user.getIDToken() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(test.server.presented == (0..<round).map { "refresh-\($0 + 1)" })
            #expect(test.user.refreshToken == "refresh-\(round + 1)")
            #expect(try test.storedRefreshToken() == "refresh-\(round + 1)")
        }
        #expect(test.server.reuses.isEmpty)

        // A later launch restores the newest token and goes on from it.
        let relaunched = Auth(
            options: Fixture.options, sessionStore: test.store, transport: test.server, clock: { test.clock.now })
        let restored = try #require(relaunched.currentUser)
        #expect(restored.refreshToken == "refresh-5")
        _ = try await restored.getIDToken(forcingRefresh: true)
        #expect(test.server.presented.last == "refresh-5")
        #expect(test.server.reuses.isEmpty)
    }

    @Test("after a lost response the retry presents the same token, gets the same successor, and carries on")
    func retryAfterLostResponse() async throws {
        let test = try await RotationHarness()
        let user = test.user
        test.clock.advance(by: 3600)

        test.server.loseNextResponse()
        #expect(await authError { _ = try await user.getIDToken() }?.code == .networkError)
        #expect(test.auth.currentUser === user)
        #expect(user.refreshToken == "refresh-1")
        #expect(try test.storedRefreshToken() == "refresh-1")

        _ = try await user.getIDToken()
        #expect(test.server.presented == ["refresh-1", "refresh-1"])
        #expect(user.refreshToken == "refresh-2")
        #expect(try test.storedRefreshToken() == "refresh-2")
        _ = try await user.getIDToken(forcingRefresh: true)
        #expect(test.server.presented.last == "refresh-2")
        #expect(user.refreshToken == "refresh-3")
        #expect(test.server.reuses.isEmpty)
    }
}

/// A user signed in through a `RotatingSecureToken` server, with a session store and a manual clock.
struct RotationHarness {
    let server = RotatingSecureToken(first: "refresh-1")
    let store = InMemorySessionStore()
    let clock = ManualClock()
    let auth: Auth
    let user: User

    /// Signs in through the server's scripted endpoints; the session's first refresh token is `refresh-1`.
    init() async throws {
        let clock = self.clock
        auth = Auth(options: Fixture.options, sessionStore: store, transport: server, clock: { clock.now })
        server.scripted.enqueue("verifyAssertion", json: Fixture.signInResponse(refreshToken: "refresh-1"))
        server.scripted.enqueue("getAccountInfo", json: Fixture.userRecord())
        user = try await auth.signIn(with: Fixture.googleCredential).user
    }

    /// The refresh token the session store holds.
    func storedRefreshToken() throws -> String? {
        let data = try store.load(key: StoredSession.storeKey(apiKey: Fixture.apiKey, name: Auth.defaultName))
        return try data.map { try JSONDecoder().decode(StoredSession.self, from: $0).refreshToken }
    }
}

/// A Secure Token endpoint that rotates as Hearth does: each refresh of the current token answers
/// `refresh-<n+1>`; the token it just replaced, presented again while its successor is unused (a
/// retry), is answered with the same successor; any other token is reuse: `TOKEN_EXPIRED`, recorded.
/// Other endpoints answer from `scripted`.
final class RotatingSecureToken: HTTPTransport {
    let scripted = FakeTransport()

    private struct State {
        var current: String
        var replaced: String?
        var issued = 1
        var presented: [String] = []
        var reuses: [String] = []
        var loseNext = false
    }

    private let state: Mutex<State>

    init(first: String) { state = Mutex(State(current: first)) }

    /// Every refresh token presented, in order.
    var presented: [String] { state.withLock { $0.presented } }
    /// Presented tokens that were neither current nor a retry of the last rotation.
    var reuses: [String] { state.withLock { $0.reuses } }

    /// The next refresh is done, but its response is lost on the way (a network error).
    func loseNextResponse() { state.withLock { $0.loseNext = true } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.lastPathComponent == "token" else { return try await scripted.send(request) }
        let token = request.json?["refreshToken"]?.stringValue ?? ""
        let (reply, lost) = state.withLock { state -> (JSONValue?, Bool) in
            state.presented.append(token)
            defer { state.loseNext = false }
            if token == state.current {
                state.issued += 1
                state.replaced = state.current
                state.current = "refresh-\(state.issued)"
            } else if token != state.replaced {
                state.reuses.append(token)
                return (nil, state.loseNext)
            }
            let idToken = Fixture.idToken(issuedAt: Fixture.startTime + Double(state.issued))
            return (Fixture.refreshResponse(idToken: idToken, refreshToken: state.current), state.loseNext)
        }
        if lost { throw URLError(.networkConnectionLost) }
        guard let reply else {
            return TransportResponse(status: 400, body: Fixture.errorEnvelope("TOKEN_EXPIRED").jsonData())
        }
        return TransportResponse(status: 200, body: reply.jsonData())
    }
}
