import Foundation
import HearthProtocol
import Synchronization
import Testing

@testable import HearthAuth

@Suite("ID tokens")
struct TokenTests {
    @Test("getIDToken returns the cached token until fewer than 5 minutes remain, then refreshes")
    func refreshWindow() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let first = Fixture.idToken()

        harness.clock.advance(by: 3600 - 301)  // 5 min 1 s left
        #expect(try await user.getIDToken() == first)
        #expect(harness.transport.requests(to: "token").isEmpty)

        harness.clock.advance(by: 2)  // 4 min 59 s left
        let second = Fixture.idToken(issuedAt: Fixture.startTime + 3299)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: second))
        #expect(try await user.getIDToken() == second)
        #expect(harness.transport.requests(to: "token").count == 1)
        #expect(user.refreshToken == "refresh-2")

        // The new token's lifetime counts from the refresh.
        harness.clock.advance(by: 3600 - 301)
        #expect(try await user.getIDToken() == second)
        #expect(harness.transport.requests(to: "token").count == 1)
    }

    @Test("forcingRefresh refreshes a fresh token")
    func forced() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let second = Fixture.idToken(issuedAt: Fixture.startTime + 1)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: second))
        #expect(try await user.getIDToken(forcingRefresh: true) == second)
        #expect(harness.transport.requests(to: "token").count == 1)
        #expect(try await user.getIDToken() == second)
        #expect(harness.transport.requests(to: "token").count == 1)
    }

    @Test("without expiresIn the JWT's exp decides")
    func expFromJWT() async throws {
        let harness = Harness()
        var response = Fixture.signInResponse(idToken: Fixture.idToken(lifetime: 600)).objectValue ?? [:]
        response.removeValue(forKey: "expiresIn")
        harness.transport.enqueue("verifyAssertion", json: .object(response))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        #expect(try await user.getIDToken() == Fixture.idToken(lifetime: 600))
        harness.clock.advance(by: 301)  // 4 min 59 s before exp
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "new.token.x"))
        #expect(try await user.getIDToken() == "new.token.x")
    }

    @Test("20 concurrent getIDToken calls share exactly one refresh request")
    func coalescing() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.clock.advance(by: 3600)  // expired
        let fresh = Fixture.idToken(issuedAt: Fixture.startTime + 3600)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: fresh))

        // The refresh answer is held back until all 20 callers are waiting for a refresh; if each
        // started its own, the fake would record 20 requests.
        let gate = Gate()
        harness.transport.hold("token", until: gate)
        await user.coalescer.observeWaiting { waiting in
            if waiting == 20 { gate.open() }
        }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask { try await user.getIDToken(forcingRefresh: index.isMultiple(of: 2)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(tokens.count == 20)
        #expect(Set(tokens) == [fresh])
        #expect(harness.transport.requests(to: "token").count == 1)
    }

    @Test(
        "USER_DISABLED / USER_NOT_FOUND / TOKEN_EXPIRED / INVALID_ID_TOKEN on refresh sign out, clear the store, notify",
        arguments: [
            ("USER_DISABLED", AuthErrorCode.userDisabled), ("USER_NOT_FOUND", .userNotFound),
            ("TOKEN_EXPIRED", .userTokenExpired), ("INVALID_ID_TOKEN", .invalidUserToken),
        ])
    func forcedSignOut(serverCode: String, expected: AuthErrorCode) async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        let key = "hearth.auth.\(Fixture.apiKey).[DEFAULT]"
        #expect(try store.load(key: key) != nil)

        var states = harness.auth.authStateChanges.makeAsyncIterator()
        var tokens = harness.auth.idTokenChanges.makeAsyncIterator()
        #expect(await states.next()??.uid == Fixture.uid)
        #expect(await tokens.next()??.uid == Fixture.uid)

        harness.transport.enqueue("token", status: 400, json: Fixture.errorEnvelope("\(serverCode) : gone"))
        let error = try #require(await authError { _ = try await user.getIDToken(forcingRefresh: true) })
        #expect(error.code == expected)
        #expect(error.message == "gone")
        try #require(harness.auth.currentUser == nil)
        #expect(try store.load(key: key) == nil)
        #expect(await states.next().map { $0 == nil } == true)
        #expect(await tokens.next().map { $0 == nil } == true)
    }

    @Test("other refresh failures keep the user signed in")
    func otherFailuresKeepUser() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("token", status: 400, json: Fixture.errorEnvelope("INVALID_REFRESH_TOKEN"))
        #expect(await authError { _ = try await user.getIDToken(forcingRefresh: true) }?.code == .internalError)
        harness.transport.enqueue("token", .failure(URLError(.timedOut)))
        #expect(await authError { _ = try await user.getIDToken(forcingRefresh: true) }?.code == .networkError)
        #expect(harness.auth.currentUser === user)
        // A later refresh works again: a failed task is not kept.
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "later.token.x"))
        #expect(try await user.getIDToken(forcingRefresh: true) == "later.token.x")
    }

    @Test("a refresh saves the new tokens and tells ID-token listeners, not auth-state listeners")
    func refreshNotifies() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user

        let (stateEvents, stateSink) = AsyncStream<String>.makeStream()
        let (tokenEvents, tokenSink) = AsyncStream<String>.makeStream()
        harness.auth.addStateDidChangeListener { _, user in stateSink.yield("state:\(user?.uid ?? "nil")") }
        harness.auth.addIDTokenDidChangeListener { _, user in tokenSink.yield("token:\(user?.uid ?? "nil")") }
        var states = stateEvents.makeAsyncIterator()
        var tokens = tokenEvents.makeAsyncIterator()
        #expect(await states.next() == "state:\(Fixture.uid)")
        #expect(await tokens.next() == "token:\(Fixture.uid)")

        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "refreshed.token.x"))
        _ = try await user.getIDToken(forcingRefresh: true)
        harness.auth.queueMarker { tokenSink.yield("marker") }
        try #require(await tokens.next() == "token:\(Fixture.uid)")
        #expect(await tokens.next() == "marker")

        let data = try #require(try store.load(key: "hearth.auth.\(Fixture.apiKey).[DEFAULT]"))
        let saved = try JSONDecoder().decode(StoredSession.self, from: data)
        #expect(saved.idToken == "refreshed.token.x")
        #expect(saved.refreshToken == "refresh-2")
        #expect(saved.idTokenExpiration == Fixture.startTime + 3600)

        // Sign-out is the next state event: the refresh produced none.
        try harness.auth.signOut()
        try #require(harness.auth.currentUser == nil)
        #expect(await states.next() == "state:nil")
    }

    @Test("a refresh finishing after sign-out does not bring the session back")
    func lateRefresh() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        let gate = Gate()
        harness.transport.hold("token", until: gate)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "late.token.x"))
        let (started, startedSink) = AsyncStream<Void>.makeStream()
        await user.coalescer.observeWaiting { _ in startedSink.yield() }
        let refresh = Task { try await user.getIDToken(forcingRefresh: true) }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        try harness.auth.signOut()
        gate.open()
        #expect(try await refresh.value == "late.token.x")
        #expect(harness.auth.currentUser == nil)
        #expect(try store.load(key: "hearth.auth.\(Fixture.apiKey).[DEFAULT]") == nil)
    }

    @Test("getIDTokenResult decodes the payload: dates, provider, second factor, custom claims")
    func tokenResult() async throws {
        let harness = Harness()
        let token = Fixture.idToken(
            extra: [
                "role": "admin", "level": 3,
                "firebase": [
                    "sign_in_provider": "google.com", "sign_in_second_factor": "totp",
                    "identities": ["google.com": ["1234567890"]],
                ],
            ])
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse(idToken: token))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        let result = try await user.getIDTokenResult()
        #expect(result.token == token)
        #expect(result.issuedAtDate == Date(timeIntervalSince1970: Fixture.startTime))
        #expect(result.authDate == Date(timeIntervalSince1970: Fixture.startTime))
        #expect(result.expirationDate == Date(timeIntervalSince1970: Fixture.startTime + 3600))
        #expect(result.signInProvider == "google.com")
        #expect(result.signInSecondFactor == "totp")
        #expect(result.claims["role"] == "admin")
        #expect(result.claims["level"] == 3)
        #expect(result.claims["sub"] == .string(Fixture.uid))
        #expect(!result.description.contains(token))
    }

    @Test(
        "getIDTokenResult throws malformedJWT without exp, auth_time, iat or firebase.sign_in_provider",
        arguments: ["exp", "auth_time", "iat", "sign_in_provider", "not-a-jwt", "bad-base64", "not-json"])
    func malformed(defect: String) async throws {
        let token: String
        switch defect {
        case "sign_in_provider": token = Fixture.idToken(provider: nil)
        case "not-a-jwt": token = "opaque-token"
        case "bad-base64": token = "aGVhZA.!!!.c2ln"
        case "not-json": token = "aGVhZA.\(Fixture.base64URL("[1,2"))).c2ln"
        default: token = Fixture.idToken(omit: [defect])
        }
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse(idToken: token))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        let error = try #require(await authError { _ = try await user.getIDTokenResult() })
        #expect(error.code == .malformedJWT)
        #expect(error.code.rawValue == 18000)
    }
}
