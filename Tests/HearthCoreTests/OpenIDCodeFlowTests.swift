import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import HearthProviders
import JOSE
import OutboundTesting
import Synchronization
import Testing

/// The `oidc.*` code flow: `signInWithIdp` with the provider's authorization code instead of an ID token, exchanged
/// at the provider's token endpoint with the project's client secret, the ID token it returns then verified like any.
@Suite("OpenID providers: authorization-code sign-in")
struct OpenIDCodeFlowTests {
    static let tokenURL = URL(string: "https://id.acme.test/token")!
    /// The acme issuer, its claims and clock.
    let base = IdentityProviderRegistryTests()
    let acme: StaticIssuer

    init() throws {
        acme = StaticIssuer(issuerNames: [IdentityProviderRegistryTests.acmeIssuer], key: try Fixture.otherKey())
    }

    func exchange(_ poster: any OutboundHTTP, tokenEndpoint: @escaping @Sendable () throws -> URL = { tokenURL })
        -> OpenIDCodeExchange
    {
        OpenIDCodeExchange(clientID: "acme-client", clientSecret: "s3cret", tokenEndpoint: tokenEndpoint, http: poster)
    }

    /// A platform whose `oidc.acme` (client IDs `acme-client`, `acme-web`) exchanges codes with `exchange`, if given.
    func accounts(_ exchange: OpenIDCodeExchange?, limits: OutboundCallLimits = OutboundCallLimits()) throws -> AccountService {
        let project = ProjectConfiguration(
            projectID: "code-flow", issuer: "http://hearth.test/code-flow", apiKeys: .anyNonEmpty, googleClientIDs: [])
        var configuration = IdentityPlatform.Configuration(project: project, passwords: TestPasswordHasher())
        configuration.otherProviders = [
            .openID(id: "oidc.acme", issuer: acme, clientIDs: ["acme-client", "acme-web"], codeExchange: exchange)
        ]
        configuration.outboundLimits = limits
        return try IdentityPlatform(configuration, store: InMemoryStore(), time: base.time).accounts
    }

    /// The token endpoint's answer carrying an ID token with `claims`.
    func answer(_ claims: [String: JSONValue], accessToken: String = "at-1") throws -> FakeOutboundHTTP.Reply {
        let body = JSONValue.object([
            "id_token": .string(try acme.sign(claims)), "access_token": .string(accessToken), "token_type": "Bearer",
            "expires_in": 3600,
        ]).jsonData()
        return .text(status: 200, String(decoding: body, as: UTF8.self))
    }

    /// What the web SDK sends after the provider redirected to `https://app.test/__/auth/handler?code=…&state=…`.
    func request(postBody: String = "providerId=oidc.acme", query: String = "code=c-1&state=st") -> SignInWithIdpRequest {
        SignInWithIdpRequest(
            requestUri: "https://app.test/__/auth/handler?\(query)#frag", postBody: postBody, returnSecureToken: true,
            returnIdpCredential: true)
    }

    @Test("the code in the requestUri is exchanged with the exact form, and the returned ID token signs in")
    func signsIn() throws {
        let poster = FakeOutboundHTTP(try answer(base.acmeClaims(subject: "acme-7")))
        let accounts = try accounts(exchange(poster))
        let response = try accounts.signInWithIdp(request(postBody: "providerId=oidc.acme&code_verifier=v-1"), by: .user(client: nil))
        #expect(response.providerId == "oidc.acme" && response.federatedId == "acme-7")
        #expect(response.email == "wile@acme.test" && response.isNewUser == true && response.idToken != nil)
        #expect(response.oauthAccessToken == "at-1" && response.oauthIdToken != nil, "the provider's tokens are echoed")
        let call = try #require(poster.requests.first)
        #expect(poster.requests.count == 1)
        #expect(call.url == Self.tokenURL)
        #expect(call.formFields.map(\.name) == ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier"])
        #expect(call.formValues == [
            "grant_type": "authorization_code", "code": "c-1", "redirect_uri": "https://app.test/__/auth/handler",
            "client_id": "acme-client", "client_secret": "s3cret", "code_verifier": "v-1",
        ])
    }

    @Test("a code in the postBody, without PKCE, sends no code_verifier")
    func codeInPostBody() throws {
        let poster = FakeOutboundHTTP(try answer(base.acmeClaims(subject: "acme-8")))
        let accounts = try accounts(exchange(poster))
        _ = try accounts.signInWithIdp(request(postBody: "providerId=oidc.acme&code=c-2", query: "state=st"), by: .user(client: nil))
        let call = try #require(poster.requests.first)
        #expect(call.formValues["code"] == "c-2" && call.formValues["code_verifier"] == nil)
        #expect(call.formFields.map(\.name) == ["grant_type", "code", "redirect_uri", "client_id", "client_secret"])
    }

    @Test("the returned ID token passes the same check: audience = the exchanging client ID, nonce, expiry, issuer")
    func returnedTokenVerified() throws {
        let now = base.time.nowSeconds
        let cases: [(String, [String: JSONValue], String, ErrorCode)] = [
            ("another client ID of the project", base.acmeClaims(subject: "a", overrides: ["aud": "acme-web"]), "", .invalidIdpResponse),
            ("expired", base.acmeClaims(subject: "a", overrides: ["iat": .integer(now - 7200), "exp": .integer(now - 3600)]), "", .invalidIdpResponse),
            ("another issuer", base.acmeClaims(subject: "a", overrides: ["iss": "https://evil.test"]), "", .invalidIdpResponse),
            ("nonce mismatch", base.acmeClaims(subject: "a", overrides: ["nonce": "other"]), "&nonce=n-1", .missingOrInvalidNonce),
        ]
        for (name, claims, extra, code) in cases {
            let accounts = try accounts(exchange(FakeOutboundHTTP(try answer(claims))))
            #expect(wireErrorCode { _ = try accounts.signInWithIdp(request(postBody: "providerId=oidc.acme" + extra), by: .user(client: nil)) } == code, "\(name)")
        }
        let forged = FakeOutboundHTTP(.text(status: 200, #"{"id_token":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."}"#))
        #expect(wireErrorCode { _ = try accounts(exchange(forged)).signInWithIdp(request(), by: .user(client: nil)) } == .invalidIdpResponse)
        let matching = try accounts(exchange(FakeOutboundHTTP(try answer(base.acmeClaims(subject: "a", overrides: ["nonce": "n-1"])))))
        #expect(try matching.signInWithIdp(request(postBody: "providerId=oidc.acme&nonce=n-1"), by: .user(client: nil)).federatedId == "a")
    }

    @Test("refusals and failures are INVALID_IDP_RESPONSE naming the OAuth error, never the code or the secret", arguments: [
        (FakeOutboundHTTP.Reply.text(status: 400, #"{"error":"invalid_grant","error_description":"code c-1 used"}"#), "refused the authorization code (invalid_grant)"),
        (.text(status: 401, #"{"error":"invalid_client"}"#), "refused the authorization code (invalid_client)"),
        (.text(status: 400, #"{"error":"c-1 s3cret"}"#), "answered HTTP 400"),
        (.text(status: 503, "down"), "answered HTTP 503"),
        (.text(status: 200, #"{"access_token":"at"}"#), "answered without an id_token"),
        (.text(status: 200, "not json"), "answered without an id_token"),
        (.unreachable, "could not be reached"),
    ])
    func failures(answer: FakeOutboundHTTP.Reply, detail: String) throws {
        let accounts = try accounts(exchange(FakeOutboundHTTP(answer)))
        let error = try #require(wireError { _ = try accounts.signInWithIdp(request(), by: .user(client: nil)) })
        #expect(error.code == .invalidIdpResponse && error.httpStatus == 400)
        #expect(error.detail == "The identity provider's token endpoint \(detail).")
    }

    @Test("exchanges are bounded like access-token checks: a second one from the same client while one runs is refused at once")
    func bounded() throws {
        // The token endpoint holds each call until the test releases it, so a second exchange comes while one runs.
        let poster = FakeOutboundHTTP(try answer(base.acmeClaims(subject: "held")))
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        poster.onSend { _ in
            entered.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        let accounts = try accounts(exchange(poster), limits: OutboundCallLimits(maxConcurrentChecks: 2, maxConcurrentChecksPerClient: 1))
        let first = Mutex<Result<SignInWithIdpResponse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let held = request()
        DispatchQueue.global().async {
            let result = Result { try accounts.signInWithIdp(held, by: .user(client: "10.0.0.1")) }
            first.withLock { $0 = result }
            done.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success, "the first exchange reached the provider")
        #expect(wireErrorCode { _ = try accounts.signInWithIdp(request(), by: .user(client: "10.0.0.1")) } == .tooManyAttemptsTryLater)
        release.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(try first.withLock { try $0?.get() }?.federatedId == "held")
        #expect(poster.count == 1, "the refused one posted nothing")
    }

    @Test("an unknown token endpoint is INVALID_IDP_RESPONSE before anything is posted")
    func unknownTokenEndpoint() throws {
        let poster = FakeOutboundHTTP()
        let exchange = exchange(poster) { throw WireError(.invalidIdpResponse, "The identity provider's token endpoint is not known.") }
        #expect(wireErrorCode { _ = try accounts(exchange).signInWithIdp(request(), by: .user(client: nil)) } == .invalidIdpResponse)
        #expect(poster.requests.isEmpty)
    }

    @Test("a provider without a client secret refuses a code-only credential clearly; an ID token with a code is not exchanged")
    func withoutSecret() throws {
        let error = try #require(wireError { _ = try accounts(nil).signInWithIdp(request(), by: .user(client: nil)) })
        #expect(error.code == .invalidIdpResponse)
        #expect(error.detail == "oidc.acme has no client secret configured, so its authorization code cannot be exchanged; send an id_token.")

        let poster = FakeOutboundHTTP()
        let token = try acme.sign(base.acmeClaims(subject: "both"))
        let response = try accounts(exchange(poster)).signInWithIdp(request(postBody: "providerId=oidc.acme&id_token=\(token)"), by: .user(client: nil))
        #expect(response.federatedId == "both" && poster.requests.isEmpty)
    }

    @Test("the token endpoint is configured or discovered with the keys from one discovery document")
    func tokenEndpoint() throws {
        let issuer = IdentityProviderRegistryTests.acmeIssuer
        let discoveryURL = "https://id.acme.test/.well-known/openid-configuration"
        let document = JSONValue.object([
            "issuer": .string(issuer), "jwks_uri": "https://id.acme.test/keys", "token_endpoint": "https://id.acme.test/oauth/token",
        ]).jsonData()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: acme.key.publicKey, keyID: acme.keyID)]))
        let fetcher = routedHTTP([discoveryURL: (200, document), "https://id.acme.test/keys": (200, jwks)])
        let discovered = RemoteOpenIDIssuer(
            issuerNames: [issuer], keys: .discovery(issuer: issuer), tokenEndpoint: .discovery(issuer: issuer), http: fetcher,
            time: base.time)
        #expect(try discovered.tokenEndpoint().absoluteString == "https://id.acme.test/oauth/token")
        _ = try discovered.verificationKeys(forceRefresh: false)
        #expect(try discovered.tokenEndpoint().absoluteString == "https://id.acme.test/oauth/token")
        #expect(fetcher.count(discoveryURL) == 1, "one discovery document for both")

        let configured = RemoteOpenIDIssuer(
            issuerNames: [issuer], keys: .discovery(issuer: issuer), tokenEndpoint: .url(Self.tokenURL), http: fetcher,
            time: base.time)
        #expect(try configured.tokenEndpoint() == Self.tokenURL)
        let none = RemoteOpenIDIssuer(issuerNames: [issuer], keys: .discovery(issuer: issuer), http: fetcher, time: base.time)
        #expect(wireErrorCode { _ = try none.tokenEndpoint() } == .invalidIdpResponse)
    }

    @Test("a discovered token endpoint over plain http for an https issuer, or from another issuer's document, is refused")
    func untrustedTokenEndpoint() throws {
        let issuer = IdentityProviderRegistryTests.acmeIssuer
        let discoveryURL = "https://id.acme.test/.well-known/openid-configuration"
        for (named, endpoint) in [(issuer, "http://id.acme.test/token"), ("https://evil.test", "https://id.acme.test/token")] {
            let document = JSONValue.object(["issuer": .string(named), "token_endpoint": .string(endpoint)]).jsonData()
            let fetcher = routedHTTP([discoveryURL: (200, document)])
            let misled = RemoteOpenIDIssuer(
                issuerNames: [issuer], keys: .jwks(URL(string: "https://id.acme.test/keys")!),
                tokenEndpoint: .discovery(issuer: issuer), http: fetcher, time: base.time)
            let error = try #require(wireError { _ = try misled.tokenEndpoint() })
            #expect(error.code == .invalidIdpResponse && error.detail == "The identity provider's token endpoint is not known.")
        }
    }
}
