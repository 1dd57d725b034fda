import Foundation
import HearthProtocol
import Testing
@testable import HearthSignIn

@Suite("Token exchange")
struct TokenExchangeTests {
    @Test("posts the code grant with the identical redirect URI, client ID and PKCE verifier")
    func exchangeBody() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider)
        _ = try await makeSignIn(provider: provider, clock: clock, browser: browser).signIn()
        let request = try #require(provider.requests(to: "/token").first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://idp.test/google/token")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let redirect = try #require(provider.state.current.authorization["redirect_uri"])
        let verifier = try #require(request.form["code_verifier"])
        #expect(request.formPairs == [
            "grant_type=authorization_code", "code=4/test-code", "redirect_uri=\(redirect)",
            "client_id=test-client.apps.googleusercontent.com", "code_verifier=\(verifier)",
        ])
    }

    @Test("adds client_secret and audience when configured, and returns server_code as serverAuthCode")
    func secretAndAudience() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        var configuration = provider.configuration
        configuration.clientSecret = "GOCSPX-not-secret"
        configuration.serverClientID = "backend.apps.googleusercontent.com"
        // With an audience, Google mints aud = server client, azp = this client.
        provider.state.withLock { $0.adjustClaims = { claims in
            var claims = claims
            claims["aud"] = "backend.apps.googleusercontent.com"
            return claims
        } }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), configuration: configuration)
        let result = try await signIn.signIn()
        let form = try #require(provider.requests(to: "/token").first?.form)
        #expect(form["client_secret"] == "GOCSPX-not-secret")
        #expect(form["audience"] == "backend.apps.googleusercontent.com")
        #expect(result.serverAuthCode == "server-code-1")
        #expect(!String(describing: configuration).contains("GOCSPX"))
    }

    @Test("an OAuth error from the token endpoint becomes a SignInError with the server's error and description")
    func tokenError() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.tokenAnswer = { _ in
            (400, ["error": "invalid_grant", "error_description": "The code is invalid or expired."])
        } }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn() }
        #expect(error?.code == .unknown)
        #expect(error?.oauthError == "invalid_grant")
        #expect(error?.oauthErrorDescription == "The code is invalid or expired.")
        #expect(error?.message.contains("invalid_grant: The code is invalid or expired.") == true)
        #expect(signIn.currentUser == nil)
        #expect(!signIn.hasPreviousSignIn())
    }

    @Test("tokens, expiries and scopes of the signed-in user")
    func userTokens() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        #expect(user.accessToken.tokenString == "access-1")
        #expect(user.accessToken.expirationDate == clock.now.addingTimeInterval(3599))
        #expect(user.refreshToken == SignInToken(tokenString: "refresh-1", expirationDate: nil))
        #expect(user.idToken?.expirationDate == Date(timeIntervalSince1970: clock.now.timeIntervalSince1970 + 3600))
        #expect(user.grantedScopes == [
            "openid", "https://www.googleapis.com/auth/userinfo.email", "https://www.googleapis.com/auth/userinfo.profile",
        ])
        #expect(user.configuration.clientID == provider.clientID)
    }
}

@Suite("ID token verification")
struct IDTokenVerificationTests {
    enum Tamper: String, CaseIterable, Sendable {
        case badSignature, wrongIssuer, wrongAudienceAndParty, expired, issuedInTheFuture, issuedLongAgo, nonceMismatch,
            nonceMissing, noSubject
        // Numeric claims that are not whole seconds between 1970 and 9999 (exp 1e300 used to pass as "never expires").
        case expiryHuge, expiryInt64Max, expiry1e20, expiryInt64Min, issuedAtInt64Min, issuedAtHuge, expiryFraction
    }

    /// Signs in with ID tokens changed by `tamper`; returns the error.
    private func signIn(_ tamper: Tamper) async -> SignInError? {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let now = Int64(clock.now.timeIntervalSince1970)
        if tamper == .badSignature {
            // Same kid, other key: the signature cannot verify.
            provider.state.withLock { $0.tokenAnswer = { [provider] form in
                var json = provider.mintTokens(form: form, snapshot: provider.state.current).objectValue!
                json["id_token"] = .string(provider.sign(provider.defaultClaims(), key: TestKeys.other))
                return (200, .object(json))
            } }
        }
        provider.state.withLock { $0.adjustClaims = { claims in
            var claims = claims
            switch tamper {
            case .badSignature: break
            case .wrongIssuer: claims["iss"] = "https://accounts.google.com"
            case .wrongAudienceAndParty:
                claims["aud"] = "someone-else.apps.googleusercontent.com"
                claims["azp"] = "someone-else.apps.googleusercontent.com"
            case .expired:
                claims["iat"] = .integer(now - 300)
                claims["exp"] = .integer(now - 1)
            case .issuedInTheFuture: claims["iat"] = .integer(now + 601)
            case .issuedLongAgo: claims["iat"] = .integer(now - 601)
            case .nonceMismatch: claims["nonce"] = "replayed-nonce"
            case .nonceMissing: claims["nonce"] = nil
            case .noSubject: claims["sub"] = nil
            case .expiryHuge: claims["exp"] = .double(1e300)
            case .expiryInt64Max: claims["exp"] = .integer(Int64.max)
            case .expiry1e20: claims["exp"] = .double(1e20)
            case .expiryInt64Min: claims["exp"] = .integer(Int64.min)
            case .issuedAtInt64Min: claims["iat"] = .integer(Int64.min)
            case .issuedAtHuge: claims["iat"] = .double(-1e300)
            case .expiryFraction: claims["exp"] = .double(Double(now) + 3600.5)
            }
            return claims
        } }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        do {
            _ = try await signIn.signIn()
            return nil
        } catch {
            #expect(signIn.currentUser == nil)
            return error as? SignInError
        }
    }

    @Test("each bad ID token is rejected with code unknown", arguments: Tamper.allCases)
    func rejected(_ tamper: Tamper) async throws {
        let error = try #require(await signIn(tamper))
        #expect(error.code == .unknown)
        #expect(error.message.hasPrefix("The ID token was rejected"), "\(error.message)")
        let expected: [Tamper: String] = [
            .badSignature: "signature", .wrongIssuer: "iss", .wrongAudienceAndParty: "aud", .expired: "expired",
            .issuedInTheFuture: "iat", .issuedLongAgo: "iat", .nonceMismatch: "nonce", .nonceMissing: "nonce", .noSubject: "sub",
            .expiryHuge: "exp", .expiryInt64Max: "exp", .expiry1e20: "exp", .expiryInt64Min: "exp", .issuedAtInt64Min: "iat",
            .issuedAtHuge: "iat", .expiryFraction: "exp",
        ]
        #expect(error.message.contains(expected[tamper]!), "\(error.message)")
    }

    @Test("iat exactly 600 seconds away is still accepted")
    func issuedAtBoundary() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let now = Int64(clock.now.timeIntervalSince1970)
        provider.state.withLock { $0.adjustClaims = { claims in
            var claims = claims
            claims["iat"] = .integer(now - 600)
            return claims
        } }
        _ = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn()
    }

    @Test("aud as an array, or azp alone naming the client, is accepted")
    func audienceForms() async throws {
        for adjust: @Sendable ([String: JSONValue]) -> [String: JSONValue] in [
            { var c = $0; c["aud"] = ["other", "test-client.apps.googleusercontent.com"]; c["azp"] = nil; return c },
            { var c = $0; c["aud"] = "backend.apps.googleusercontent.com"; return c },
        ] {
            let clock = TestClock()
            let provider = TestProvider(now: clock.closure)
            provider.state.withLock { $0.adjustClaims = adjust }
            _ = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn()
        }
    }

    @Test("Google's legacy issuer spelling is accepted for Google only")
    func legacyGoogleIssuer() async throws {
        let clock = TestClock()
        let google = TestProvider(issuer: "https://accounts.google.com", now: clock.closure)
        google.state.withLock { $0.adjustClaims = { var c = $0; c["iss"] = "accounts.google.com"; return c } }
        _ = try await makeSignIn(provider: google, clock: clock, browser: ScriptedBrowser(provider: google)).signIn()

        let other = TestProvider(now: clock.closure)
        other.state.withLock { $0.adjustClaims = { var c = $0; c["iss"] = "idp.test/google"; return c } }
        await #expect(throws: SignInError.self) {
            try await makeSignIn(provider: other, clock: clock, browser: ScriptedBrowser(provider: other)).signIn()
        }
    }

    @Test("a kid the cached key set lacks refetches it once (the keys rotated), then verifies")
    func unknownKeyRefetch() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock {
            $0.keySets = [TestProvider.keySet([(TestKeys.other, "old-key")]), TestProvider.keySet([(TestKeys.signing, TestKeys.keyID)])]
        }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        // A key set fetched for this very verification is not fetched again at once.
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn() }
        #expect(error?.message.contains("not in the issuer's key set") == true)
        #expect(provider.requests(to: "/oauth2/v3/certs").count == 1)
        _ = try await signIn.signIn()
        #expect(provider.requests(to: "/oauth2/v3/certs").count == 2)
    }

    @Test("unknown kids refetch the key set at most once per 30 seconds")
    func unknownKeyRefetchInterval() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.keySets = [TestProvider.keySet([(TestKeys.other, "old-key")])] }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        for _ in 0..<5 {
            await #expect(throws: SignInError.self) { try await signIn.signIn() }
        }
        #expect(provider.requests(to: "/oauth2/v3/certs").count == 2)
        clock.advance(30)
        await #expect(throws: SignInError.self) { try await signIn.signIn() }
        #expect(provider.requests(to: "/oauth2/v3/certs").count == 3)
    }

    @Test("the key set is cached between verifications")
    func keySetCached() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        _ = try await signIn.signIn()
        _ = try await signIn.signIn()
        #expect(provider.requests(to: "/oauth2/v3/certs").count == 1)
    }
}
