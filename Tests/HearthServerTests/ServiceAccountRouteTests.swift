import Foundation
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthProtocol
import JOSE
import Testing

/// `POST /oauth2/token` and `accounts:signInWithCustomToken` as HTTP routes: bodies, paths, the API key,
/// OAuth's error shape and the per-client limit on failed token requests.
@Suite("Service-account routes")
struct ServiceAccountRouteTests {
    static let customTokenV1 = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken"
    static let customTokenLegacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyCustomToken"

    /// A service account stored in `fixture`, with its private key.
    struct Account {
        let record: ServiceAccountRecord
        let key: RSAPrivateKey

        init(_ fixture: ServerFixture) throws {
            let made = try NewServiceAccount.make(
                name: "backend-api", projectID: "demo-hearth", tokenURI: ServerFixture.publicURL + "/oauth2/token",
                createdAt: fixture.platform.time.nowSeconds)
            let file = try JSONDecoder().decode([String: String].self, from: made.keyFile)
            key = try RSAPrivateKey(pemRepresentation: file["private_key"] ?? "")
            record = made.record
            try fixture.platform.store.write { try $0.insertServiceAccount(made.record) }
        }

        func sign(_ claims: [String: JSONValue]) throws -> String {
            try JWTSigner(privateKey: key, keyID: record.keyID).sign(payload: JSONValue.object(claims).jsonData())
        }

        /// google-auth's assertion.
        func assertion(now: Int64) throws -> String {
            try sign([
                "iat": .integer(now), "exp": .integer(now + 3600), "iss": .string(record.email),
                "aud": "https://oauth2.googleapis.com/token", "scope": "https://www.googleapis.com/auth/cloud-platform",
            ])
        }
    }

    /// The request google-auth's `_client.jwt_grant` sends.
    private func tokenRequest(_ fixture: ServerFixture, assertion: String, grantType: String = ServiceAccountTokenIssuer.grantType,
                              from address: String = "192.0.2.1") -> HTTPResponse {
        let body = FormEncoding.encode([("assertion", assertion), ("grant_type", grantType)])
        return fixture.call(
            .post, "/oauth2/token",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "x-goog-api-client": "gl-python/3.11 auth/2.40.0 auth-request-type/at cred-type/sa"],
            body: body, from: address)
    }

    @Test("google-auth's form request gets access_token, expires_in and token_type, not cached, without an API key")
    func tokenEndpoint() throws {
        let fixture = try ServerFixture(development: false, apiKeys: .only(["real-key"]))
        let account = try Account(fixture)
        let response = tokenRequest(fixture, assertion: try account.assertion(now: fixture.platform.time.nowSeconds))
        #expect(response.status == 200)
        #expect(response.headers["Cache-Control"] == "no-store")
        let token = try #require(response.json["access_token"] as? String)
        #expect(response.json["expires_in"] as? Int == 3600)
        #expect(response.json["token_type"] as? String == "Bearer")
        #expect(try fixture.platform.serviceAccountTokenVerifier.caller(bearerToken: token) == .serviceAccount(email: account.record.email))
    }

    @Test("errors are OAuth's JSON, not Firebase's envelope")
    func oauthErrors() throws {
        let fixture = try ServerFixture(development: false)
        let account = try Account(fixture)
        let assertion = try account.assertion(now: fixture.platform.time.nowSeconds)
        let unsupported = tokenRequest(fixture, assertion: assertion, grantType: "password")
        #expect(unsupported.status == 400)
        #expect(unsupported.json["error"] as? String == "unsupported_grant_type")
        #expect(unsupported.json["error_description"] is String)
        let invalid = tokenRequest(fixture, assertion: assertion + "x")
        #expect(invalid.status == 400)
        #expect(invalid.json["error"] as? String == "invalid_grant")
        let empty = fixture.call(.post, "/oauth2/token", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(empty.json["error"] as? String == "invalid_request")
        #expect(fixture.call(.get, "/oauth2/token").status == 405)
    }

    @Test("failed token requests are limited per client; successes cost nothing; other clients are not affected")
    func failuresLimited() throws {
        var rules = RateLimiter.Rules()
        rules.serviceAccountTokenFailuresPerClient = .burst(2, perMinute: 1)
        let fixture = try ServerFixture(development: false, rateLimits: rules)
        let account = try Account(fixture)
        let good = try account.assertion(now: fixture.platform.time.nowSeconds)
        for _ in 0..<3 { #expect(tokenRequest(fixture, assertion: good).status == 200) }
        #expect(tokenRequest(fixture, assertion: "forged").status == 400)
        #expect(tokenRequest(fixture, assertion: "forged").status == 400)
        let refused = tokenRequest(fixture, assertion: good)
        #expect(refused.status == 429)
        #expect(refused.json["error"] as? String == "invalid_request")
        #expect(tokenRequest(fixture, assertion: good, from: "192.0.2.2").status == 200)
    }

    @Test("signInWithCustomToken answers on the v1 and the legacy path, and needs an API key", arguments: [
        customTokenV1, customTokenLegacy,
    ])
    func customTokenPaths(path: String) throws {
        let fixture = try ServerFixture(development: false, apiKeys: .only(["real-key"]))
        let account = try Account(fixture)
        let now = fixture.platform.time.nowSeconds
        let token = try account.sign([
            "iss": .string(account.record.email), "sub": .string(account.record.email),
            "aud": .string(CustomTokenSignIn.audience), "uid": "u-1", "iat": .integer(now), "exp": .integer(now + 3600),
        ])
        let body = #"{"token":"\#(token)","returnSecureToken":true}"#
        #expect(fixture.postJSON(path, body).status == 403)
        let response = fixture.postJSON("\(path)?key=real-key", body)
        #expect(response.status == 200)
        #expect(response.json["kind"] as? String == "identitytoolkit#VerifyCustomTokenResponse")
        #expect(response.json["isNewUser"] as? Bool == true)
        #expect(response.json["idToken"] is String)
        #expect(response.json["refreshToken"] is String)
        #expect(response.json["expiresIn"] as? String == "3600")
        let missing = fixture.postJSON("\(path)?key=real-key", "{}")
        #expect(missing.error["message"] as? String == "MISSING_CUSTOM_TOKEN")
    }

    @Test("an unsigned custom token signs in on a development server only")
    func unsignedCustomTokens() throws {
        let header = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Data(
            #"{"aud":"\#(CustomTokenSignIn.audience)","iss":"firebase-auth-emulator@example.com","sub":"firebase-auth-emulator@example.com","uid":"dev-1","iat":1,"exp":3601}"#.utf8))
        let body = #"{"token":"\#(header).\#(payload).","returnSecureToken":true}"#
        let production = try ServerFixture(development: false)
        let refused = production.postJSON(Self.customTokenV1 + "?key=k", body)
        #expect(refused.status == 400)
        #expect((refused.error["message"] as? String)?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
        let development = try ServerFixture(development: true)
        #expect(development.postJSON(Self.customTokenV1 + "?key=k", body).json["isNewUser"] as? Bool == true)
    }
}
