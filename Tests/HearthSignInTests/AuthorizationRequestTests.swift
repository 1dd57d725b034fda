import Foundation
import HearthCrypto
import Testing
@testable import HearthSignIn

@Suite("Authorization request")
struct AuthorizationRequestTests {
    /// Runs a sign-in whose browser only records the URL, then lets it finish.
    private func authorizationURL(
        configuration: (TestProvider) -> SignInConfiguration = { $0.configuration }, hint: String? = nil,
        additionalScopes: [String] = [], nonce: String? = nil, headless: Bool = false
    ) async throws -> (URL, ScriptedBrowser) {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser, configuration: configuration(provider))
        _ = try await signIn.signIn(hint: hint, additionalScopes: additionalScopes, nonce: nonce, headless: headless)
        return (try #require(browser.opened.current.first), browser)
    }

    @Test("carries code flow, PKCE S256, state, nonce, scopes and include_granted_scopes")
    func baseParameters() async throws {
        let (url, _) = try await authorizationURL()
        #expect(url.absoluteString.hasPrefix("https://idp.test/google/o/oauth2/v2/auth?"))
        let query = queryParameters(url)
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "test-client.apps.googleusercontent.com")
        let redirect = try #require(query["redirect_uri"])
        #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/oauth2callback"))
        #expect(query["scope"] == "openid email profile")
        #expect(query["include_granted_scopes"] == "true")
        #expect(query["code_challenge_method"] == "S256")
        for name in ["state", "nonce", "code_challenge"] {
            let value = try #require(query[name])
            #expect(value.count == 43, "\(name) is 32 random bytes in base64url")
            #expect(Base64URL.decode(value)?.count == 32)
        }
        #expect(query["state"] != query["nonce"])
        for absent in ["login_hint", "hd", "audience", "prompt"] { #expect(query[absent] == nil, "\(absent)") }
    }

    @Test("the code challenge is base64url(SHA-256(verifier)) of the verifier sent to the token endpoint")
    func pkceChallengeMatchesVerifier() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        _ = try await signIn.signIn()
        let opened = try #require(browser.opened.current.first)
        let challenge = try #require(queryParameters(opened)["code_challenge"])
        let verifier = try #require(provider.requests(to: "/token").first?.form["code_verifier"])
        #expect(verifier.count == 43)
        #expect(Base64URL.encode(SHA256.hash(verifier)) == challenge)
    }

    @Test("each flow has fresh state, nonce and verifier")
    func freshSecrets() async throws {
        let (first, _) = try await authorizationURL()
        let (second, _) = try await authorizationURL()
        for name in ["state", "nonce", "code_challenge"] {
            #expect(queryParameters(first)[name] != queryParameters(second)[name])
        }
    }

    @Test("hint, hosted domain, audience, extra scopes and the caller's nonce")
    func optionalParameters() async throws {
        let (url, _) = try await authorizationURL(
            configuration: { provider in
                var configuration = provider.configuration
                configuration.hostedDomain = "example.com"
                configuration.serverClientID = "backend.apps.googleusercontent.com"
                return configuration
            },
            hint: "jane@example.com",
            additionalScopes: ["https://www.googleapis.com/auth/drive.readonly", "email", "https://www.googleapis.com/auth/userinfo.profile"],
            nonce: "caller-nonce-0123456789")
        let query = queryParameters(url)
        #expect(query["login_hint"] == "jane@example.com")
        #expect(query["hd"] == "example.com")
        #expect(query["audience"] == "backend.apps.googleusercontent.com")
        #expect(query["scope"] == "openid email profile https://www.googleapis.com/auth/drive.readonly")
        #expect(query["nonce"] == "caller-nonce-0123456789")
    }

    @Test("headless adds prompt=none and uses the headless opener, not the configured browser")
    func headlessUsesPromptNone() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let configured = ParkedBrowser()
        let headless = ScriptedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: configured, headlessBrowser: headless)
        _ = try await signIn.signIn(hint: "jane@example.com", headless: true)
        let query = queryParameters(try #require(headless.opened.current.first))
        #expect(query["prompt"] == "none")
        #expect(query["login_hint"] == "jane@example.com")
    }

    @Test("headless without a hint is refused before anything is sent")
    func headlessNeedsHint() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn(headless: true) }
        #expect(error?.code == .unknown)
        #expect(provider.requests.isEmpty)
    }

    @Test("a headless fetch that does not end at the redirect URI fails at once")
    func headlessThatDoesNotReturn() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let lost = ScriptedBrowser(provider: provider) { _, _ in }  // the "IdP" showed a page instead of redirecting
        let signIn = makeSignIn(provider: provider, clock: clock, browser: lost, headlessBrowser: lost)
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn(hint: "jane@example.com", headless: true) }
        #expect(error?.message.contains("did not come back") == true)
    }

    @Test("discovery is fetched once per instance, and its issuer must be the configured one")
    func discovery() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider))
        _ = try await signIn.signIn()
        _ = try await signIn.signIn()
        #expect(provider.requests(to: "/.well-known/openid-configuration").count == 1)
        #expect(provider.requests(to: "/.well-known/openid-configuration").first?.url.absoluteString
            == "https://idp.test/google/.well-known/openid-configuration")

        let impostor = TestProvider(now: clock.closure)
        impostor.state.withLock { $0.discoveryIssuer = "https://evil.test/google" }
        let refused = makeSignIn(provider: impostor, clock: clock, browser: ScriptedBrowser(provider: impostor))
        let error = await #expect(throws: SignInError.self) { try await refused.signIn() }
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("https://evil.test/google") == true)
        #expect(impostor.requests(to: "/token").isEmpty)
    }

    @Test("the reversed client ID scheme")
    func customSchemeRedirectURI() {
        let configuration = SignInConfiguration(clientID: "1234-Abc.apps.googleusercontent.com")
        #expect(configuration.customSchemeRedirectURI == "com.googleusercontent.apps.1234-abc:/oauth2callback")
    }
}
