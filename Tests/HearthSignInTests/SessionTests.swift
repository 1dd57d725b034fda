import Foundation
import HearthProtocol
import Testing
@testable import HearthSignIn

@Suite("Restore, sign-out and disconnect")
struct SessionTests {
    @Test("hasPreviousSignIn reads the store without network; restore brings the user back without a refresh")
    func restore() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let store = InMemorySignInSessionStore()
        let first = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store)
        #expect(!first.hasPreviousSignIn())
        let original = try await first.signIn().user

        let laterProvider = TestProvider(now: clock.closure)
        let later = makeSignIn(provider: laterProvider, clock: clock, browser: ParkedBrowser(), store: store)
        #expect(later.hasPreviousSignIn())
        #expect(later.currentUser == nil)
        #expect(laterProvider.requests.isEmpty)
        clock.advance(3599 - 601)
        let restored = try await later.restorePreviousSignIn()
        #expect(laterProvider.requests.isEmpty, "601 s left: no refresh")
        #expect(later.currentUser === restored)
        #expect(restored.userID == original.userID)
        #expect(restored.accessToken == original.accessToken)
        #expect(restored.refreshToken == original.refreshToken)
        #expect(restored.idToken == original.idToken)
        #expect(restored.profile == original.profile)
        #expect(restored.grantedScopes == original.grantedScopes)
    }

    @Test("restore refreshes when the access token expires within 600 seconds")
    func restoreRefreshes() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let store = InMemorySignInSessionStore()
        _ = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store).signIn()
        clock.advance(3599 - 599)
        let later = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser(), store: store)
        let user = try await later.restorePreviousSignIn()
        #expect(provider.requests(to: "/token").last?.form["grant_type"] == "refresh_token")
        #expect(user.accessToken.tokenString == "access-2")
        let stored = try #require(try store.load())
        #expect(SessionState.decode(stored)?.accessToken == "access-2")
    }

    @Test("restore with nothing stored, or a session of another client, is hasNoAuthInKeychain")
    func restoreWithoutSession() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let empty = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser())
        let error = await #expect(throws: SignInError.self) { try await empty.restorePreviousSignIn() }
        #expect(error?.code == .hasNoAuthInKeychain)

        let store = InMemorySignInSessionStore()
        _ = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store).signIn()
        var otherClient = provider.configuration
        otherClient.clientID = "another.apps.googleusercontent.com"
        let other = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser(), store: store, configuration: otherClient)
        #expect(!other.hasPreviousSignIn())
        await #expect(throws: SignInError(.hasNoAuthInKeychain, "There is no stored sign-in for another.apps.googleusercontent.com.")) {
            try await other.restorePreviousSignIn()
        }

        let corrupt = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser(), store: InMemorySignInSessionStore(data: Data("{".utf8)))
        #expect(!corrupt.hasPreviousSignIn())
    }

    @Test("signOut forgets the user and removes the stored session, without telling the server")
    func signOut() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let store = InMemorySignInSessionStore()
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store)
        let user = try await signIn.signIn().user
        let before = provider.requests.count
        signIn.signOut()
        #expect(signIn.currentUser == nil)
        #expect(!signIn.hasPreviousSignIn())
        #expect(try store.load() == nil)
        #expect(provider.requests.count == before)
        // A refresh of the signed-out user does not bring the session back.
        clock.advance(3600)
        try await user.refreshTokensIfNeeded()
        #expect(try store.load() == nil)
    }

    @Test("disconnect revokes the access token at the revocation endpoint, then signs out")
    func disconnect() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let store = InMemorySignInSessionStore()
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store)
        _ = try await signIn.signIn()
        try await signIn.disconnect()
        let revoke = try #require(provider.requests(to: "/revoke").first)
        #expect(revoke.method == "POST")
        #expect(revoke.url.absoluteString == "https://idp.test/google/revoke")
        #expect(revoke.formPairs == ["token=access-1"])
        #expect(provider.requests(to: "/revoke").count == 1)
        #expect(signIn.currentUser == nil)
        #expect(try store.load() == nil)
    }

    @Test("disconnect falls back to the refresh token when the access token is already invalid")
    func disconnectFallsBack() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.revokeAnswer = { token in
            token.hasPrefix("access") ? (400, ["error": "invalid_token", "error_description": "Token expired or revoked"]) : (200, [:])
        } }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        _ = try await signIn.signIn()
        try await signIn.disconnect()
        #expect(provider.requests(to: "/revoke").map { $0.form["token"] } == ["access-1", "refresh-1"])
        #expect(signIn.currentUser == nil)
    }

    @Test("a failed revocation keeps the session")
    func disconnectFailure() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.revokeAnswer = { _ in (503, [:]) } }
        let store = InMemorySignInSessionStore()
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store)
        _ = try await signIn.signIn()
        await #expect(throws: SignInError.self) { try await signIn.disconnect() }
        #expect(signIn.currentUser != nil)
        #expect(try store.load() != nil)
    }

    @Test("disconnect works on a stored session that was not restored")
    func disconnectStored() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let store = InMemorySignInSessionStore()
        _ = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store).signIn()
        let later = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser(), store: store)
        try await later.disconnect()
        #expect(provider.requests(to: "/revoke").map { $0.form["token"] } == ["access-1"])
        #expect(try store.load() == nil)
    }

    @Test("a session that cannot be saved fails the sign-in with keychain")
    func saveFailure() async throws {
        struct BrokenStore: SignInSessionStore {
            func load() throws -> Data? { nil }
            func save(_ data: Data) throws { throw CocoaError(.fileWriteNoPermission) }
            func remove() throws {}
        }
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: BrokenStore())
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn() }
        #expect(error?.code == .keychain)
        #expect(signIn.currentUser == nil)
    }
}

@Suite("Custom-scheme redirects")
struct HandleURLTests {
    @Test("handle(_:) resumes the pending flow only for its redirect URI and state")
    func handleCustomScheme() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        var configuration = provider.configuration
        configuration.redirectMethod = .customScheme
        let browser = ParkedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser, configuration: configuration)
        #expect(!signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?code=x&state=y")!), "nothing pending")

        let task = Task { try await signIn.signIn() }
        let query = queryParameters(await browser.nextURL())
        let state = try #require(query["state"])
        #expect(query["redirect_uri"] == "com.googleusercontent.apps.test-client:/oauth2callback")
        #expect(!signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/emmcallback?code=x&state=\(state)")!))
        #expect(!signIn.handle(URL(string: "com.example.other:/oauth2callback?code=x&state=\(state)")!))
        #expect(!signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?code=x&state=wrong")!))
        #expect(!signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?code=x")!))
        #expect(signIn.handle(URL(string: "COM.googleusercontent.apps.test-client:/oauth2callback?code=4%2Fscheme-code&state=\(state)")!))
        let result = try await task.value
        #expect(result.user.userID == "110169484474386276334")
        #expect(provider.requests(to: "/token").first?.form["code"] == "4/scheme-code")
        #expect(provider.requests(to: "/token").first?.form["redirect_uri"] == "com.googleusercontent.apps.test-client:/oauth2callback")
        #expect(!signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?code=x&state=\(state)")!), "already finished")
    }

    @Test("handle(_:) with access_denied cancels the pending flow")
    func handleAccessDenied() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        var configuration = provider.configuration
        configuration.redirectMethod = .customScheme
        let browser = ParkedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser, configuration: configuration)
        let task = Task { try await signIn.signIn() }
        let state = try #require(queryParameters(await browser.nextURL())["state"])
        #expect(signIn.handle(URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?error=access_denied&state=\(state)")!))
        let error = await #expect(throws: SignInError.self) { try await task.value }
        #expect(error?.code == .canceled)
    }

    @Test("wrong-state URLs given to handle(_:) end in a state mismatch error at the timeout")
    func handleStateMismatch() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        var configuration = provider.configuration
        configuration.redirectMethod = .customScheme
        let instance = Locked<GoogleSignIn?>(nil)
        let handled = Locked<Bool?>(nil)
        // The "app" receives a forged redirect while the browser is open.
        let browser = ScriptedBrowser(provider: provider) { _, _ in
            let forged = URL(string: "com.googleusercontent.apps.test-client:/oauth2callback?code=x&state=forged")!
            handled.withLock { $0 = instance.current?.handle(forged) }
        }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser, configuration: configuration)
        instance.withLock { $0 = signIn }
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn(timeout: .milliseconds(20)) }
        #expect(handled.current == false)
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("State mismatch: 1 authorization response") == true)
        #expect(provider.requests(to: "/token").isEmpty)
    }

    @Test("a loopback flow also accepts its redirect through handle(_:)")
    func handleLoopback() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ParkedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let task = Task { try await signIn.signIn() }
        let query = queryParameters(await browser.nextURL())
        let redirect = try #require(query["redirect_uri"])
        #expect(signIn.handle(URL(string: "\(redirect)?code=abc&state=\(query["state"]!)")!))
        _ = try await task.value
    }
}
