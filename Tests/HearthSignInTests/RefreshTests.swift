import Foundation
import HearthProtocol
import Testing
@testable import HearthSignIn

@Suite("Token refresh")
struct RefreshTests {
    private func signedIn(store: any SignInSessionStore = InMemorySignInSessionStore()) async throws
        -> (GoogleSignIn, GoogleUser, TestProvider, TestClock)
    {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store)
        let user = try await signIn.signIn().user
        return (signIn, user, provider, clock)
    }

    @Test("no request while both tokens have more than 60 seconds left")
    func noRefreshWhenFresh() async throws {
        let (_, user, provider, clock) = try await signedIn()
        clock.advance(3599 - 61)
        try await user.refreshTokensIfNeeded()
        #expect(provider.requests(to: "/token").count == 1)
        #expect(user.accessToken.tokenString == "access-1")
    }

    @Test("refreshes when the access token expires within 60 seconds, and updates the user in place")
    func refreshWhenAccessTokenExpiring() async throws {
        let (signIn, user, provider, clock) = try await signedIn()
        clock.advance(3599 - 59)
        let returned = try await user.refreshTokensIfNeeded()
        #expect(returned === user)
        let refresh = try #require(provider.requests(to: "/token").last)
        #expect(refresh.formPairs == ["grant_type=refresh_token", "refresh_token=refresh-1", "client_id=test-client.apps.googleusercontent.com"])
        #expect(user.accessToken.tokenString == "access-2")
        #expect(user.accessToken.expirationDate == clock.now.addingTimeInterval(3599))
        #expect(user.refreshToken.tokenString == "refresh-1", "the refresh token is kept when none is returned")
        #expect(user.idToken?.expirationDate == clock.now.addingTimeInterval(3600))
        #expect(signIn.currentUser === user)
    }

    @Test("refreshes when only the ID token expires within 60 seconds")
    func refreshWhenIDTokenExpiring() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let now = Int64(clock.now.timeIntervalSince1970)
        provider.state.withLock { $0.adjustClaims = { var c = $0; c["exp"] = .integer(now + 100); return c } }
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        provider.state.withLock { $0.adjustClaims = { $0 } }
        clock.advance(39)
        try await user.refreshTokensIfNeeded()
        #expect(provider.requests(to: "/token").count == 1, "61 s left: no refresh")
        clock.advance(2)
        try await user.refreshTokensIfNeeded()
        #expect(provider.requests(to: "/token").count == 2)
    }

    @Test("20 concurrent callers share one refresh request")
    func coalescing() async throws {
        let (_, user, provider, clock) = try await signedIn()
        let gate = Gate()
        provider.state.withLock { $0.tokenGate = gate }
        clock.advance(3599)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await user.refreshTokensIfNeeded().accessToken.tokenString }
            }
            // Hold the refresh until the other 19 callers are waiting for it (or, if coalescing were broken, until
            // a second request shows up); then let it finish.
            while await user.refresher.joinedCallers < 19, provider.requests(to: "/token").count < 3 {
                try await Task.sleep(for: .milliseconds(1))
            }
            gate.open()
            for try await token in group { #expect(token == "access-2") }
        }
        #expect(await user.refresher.joinedCallers == 19)
        #expect(provider.requests(to: "/token").count == 2, "the sign-in's code exchange and one refresh")
        #expect(provider.requests(to: "/token").last?.form["grant_type"] == "refresh_token")
    }

    @Test("invalid_grant on refresh is refreshTokenExpired, carrying the server's error")
    func invalidGrant() async throws {
        let (_, user, provider, clock) = try await signedIn()
        provider.state.withLock {
            $0.tokenAnswer = { _ in (400, ["error": "invalid_grant", "error_description": "Token has been expired or revoked."]) }
        }
        clock.advance(3600)
        let error = await #expect(throws: SignInError.self) { try await user.refreshTokensIfNeeded() }
        #expect(error?.code == .refreshTokenExpired)
        #expect(error?.oauthError == "invalid_grant")
        #expect(user.accessToken.tokenString == "access-1")
    }

    @Test("a refresh token with a known past expiry fails without a request")
    func knownExpiredRefreshToken() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.tokenAnswer = { [provider] form in
            var json = provider.mintTokens(form: form, snapshot: provider.state.current).objectValue!
            json["refresh_token_expires_in"] = 1000
            return (200, .object(json))
        } }
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        #expect(user.refreshToken.expirationDate == clock.now.addingTimeInterval(1000))
        clock.advance(3600)
        let error = await #expect(throws: SignInError.self) { try await user.refreshTokensIfNeeded() }
        #expect(error?.code == .refreshTokenExpired)
        #expect(provider.requests(to: "/token").count == 1)
    }

    @Test("a refreshed ID token for another subject is rejected")
    func subjectMustNotChange() async throws {
        let (_, user, provider, clock) = try await signedIn()
        provider.state.withLock { $0.adjustClaims = { var c = $0; c["sub"] = "someone-else"; return c } }
        clock.advance(3600)
        let error = await #expect(throws: SignInError.self) { try await user.refreshTokensIfNeeded() }
        #expect(error?.message.contains("sub changed") == true)
        #expect(user.userID == "110169484474386276334")
    }

    @Test("the refreshed session is saved")
    func refreshSaves() async throws {
        let store = InMemorySignInSessionStore()
        let (_, user, _, clock) = try await signedIn(store: store)
        clock.advance(3600)
        try await user.refreshTokensIfNeeded()
        let data = try #require(try store.load())
        let saved = try #require(SessionState.decode(data))
        #expect(saved.accessToken == "access-2")
    }
}
