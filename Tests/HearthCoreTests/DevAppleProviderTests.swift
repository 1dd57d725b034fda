import Foundation
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthProtocol
import JOSE
import Testing

/// Signs client secrets "for real" in these tests: the signature segment is `good-signature` for the key
/// `HEARTHDEVKY` (HearthCrypto's ES256 verification plugs into the same seam).
struct FakeClientSecretChecker: AppleClientSecretChecking {
    static let keyID = "HEARTHDEVKY"
    static let signature = Base64URL.encode(Array("good-signature".utf8))

    func signatureIsValid(_ jwt: String, keyID: String) -> Bool {
        keyID == Self.keyID && jwt.split(separator: ".").last.map(String.init) == Self.signature
    }
}

/// The dev Apple with a manual clock over the dev IdP's accounts, and an app's side of the flow.
struct DevAppleTest {
    static let clientID = DevAppleConfiguration.developmentClientID
    static let redirectURI = "http://127.0.0.1:53682/apple/callback"
    let test: TestPlatform
    let apple: DevAppleProvider

    init() throws {
        test = try TestPlatform(dev: true)
        apple = try DevAppleProvider(
            configuration: DevAppleConfiguration(
                issuer: "http://hearth.test/dev/apple", clientIDs: [Self.clientID, "com.example.other"],
                trustsOrigin: { $0 == "https://app.example.com" }),
            accounts: try #require(test.devIdentityProvider), store: test.store, time: test.time,
            clientSecrets: FakeClientSecretChecker())
    }

    func parameters(_ extra: [String: String] = [:]) -> [String: String] {
        var parameters = [
            "response_type": "code id_token", "response_mode": "form_post", "client_id": Self.clientID,
            "redirect_uri": Self.redirectURI, "scope": "name email", "state": "st-1", "nonce": "no-1",
        ]
        parameters.merge(extra, uniquingKeysWith: { _, new in new })
        return parameters
    }

    /// Signs `email` in headlessly and returns the form_post fields.
    func authorize(email: String = "jane.doe@example.com", _ extra: [String: String] = [:]) throws -> [String: String] {
        guard case .valid(let request) = apple.checkAuthorization(parameters(extra)) else { throw WireError(.invalidArgument) }
        guard case .formPost(let action, let fields) = try apple.approveHeadless(request, email: email) else {
            throw WireError(.invalidArgument, "not a form_post answer")
        }
        #expect(action == request.redirectURI)
        return Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func secret(_ overrides: [String: JSONValue] = [:], keyID: String? = FakeClientSecretChecker.keyID, alg: String = "ES256",
                signature: String = FakeClientSecretChecker.signature) -> String {
        let now = test.time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": .string(DevAppleConfiguration.developmentTeamID), "sub": .string(Self.clientID),
            "aud": "https://appleid.apple.com", "iat": .integer(now), "exp": .integer(now + 86400),
        ]
        claims.merge(overrides, uniquingKeysWith: { _, new in new })
        var header: [String: JSONValue] = ["alg": .string(alg)]
        if let keyID { header["kid"] = .string(keyID) }
        return Base64URL.encode(Array(JSONValue.object(header).jsonData())) + "."
            + Base64URL.encode(Array(JSONValue.object(claims).jsonData())) + "." + signature
    }

    func exchange(_ code: String, redirectURI: String? = redirectURI, clientID: String = clientID, secret: String? = nil)
        throws -> [String: JSONValue]
    {
        var form = [
            "grant_type": "authorization_code", "code": code, "client_id": clientID,
            "client_secret": secret ?? self.secret(["sub": .string(clientID)]),
        ]
        form["redirect_uri"] = redirectURI
        return try apple.token(form)
    }

    func refresh(_ token: String) throws -> [String: JSONValue] {
        try apple.token(["grant_type": "refresh_token", "refresh_token": token, "client_id": Self.clientID, "client_secret": secret()])
    }

    func claims(_ idToken: String) throws -> [String: JSONValue] {
        let verified = try apple.keys.verify(idToken)
        guard case .object(let claims) = try JSONValue(parsing: verified.payload) else { throw WireError(.invalidArgument) }
        return claims
    }
}

func oauthError(_ body: () throws -> Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as OAuthError {
        return error.error
    } catch {
        return "\(type(of: error))"
    }
}

@Suite("Dev Apple (local Sign in with Apple look-alike)")
struct DevAppleProviderTests {
    @Test("headless form_post: code, an ID token with Apple's claims and c_hash, state, and user only the first time")
    func formPost() throws {
        let dev = try DevAppleTest()
        let first = try dev.authorize()
        #expect(first["state"] == "st-1")
        let code = try #require(first["code"])
        let user = try JSONValue(parsing: Data(try #require(first["user"]).utf8))
        #expect(user == ["name": ["firstName": "Jane", "lastName": "Doe"], "email": "jane.doe@example.com"])

        let claims = try dev.claims(try #require(first["id_token"]))
        #expect(claims["iss"] == "http://hearth.test/dev/apple")
        #expect(claims["aud"] == .string(DevAppleTest.clientID))
        #expect(claims["nonce"] == "no-1")
        #expect(claims["nonce_supported"] == true)
        #expect(claims["email"] == "jane.doe@example.com")
        #expect(claims["email_verified"] == "true")
        #expect(claims["is_private_email"] == "false")
        #expect(claims["real_user_status"] == 2)
        #expect(claims["auth_time"] == .integer(dev.test.time.nowSeconds))
        let digest = SHA256.hash(code)
        #expect(claims["c_hash"] == .string(Base64URL.encode(digest.prefix(16))))
        let subject = try #require(claims["sub"]?.stringValue)
        #expect(subject.wholeMatch(of: /000\d{3}\.[0-9a-f]{32}\.0\d{3}/) != nil)

        let second = try dev.authorize()
        #expect(second["user"] == nil)
        #expect(try dev.claims(try #require(second["id_token"]))["sub"] == .string(subject))
        // Another client is a first authorization again.
        let other = try dev.authorize(["client_id": "com.example.other"])
        #expect(other["user"] != nil)
    }

    @Test("Hide my email: a private-relay address, stable per person and client, is_private_email true")
    func hiddenEmail() throws {
        let dev = try DevAppleTest()
        let first = try dev.authorize(email: "hider@example.com", ["hide_my_email": "true"])
        let firstToken = try #require(first["id_token"])
        let relay = try #require(try dev.claims(firstToken)["email"]?.stringValue)
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        #expect(relay != "hider@example.com")
        #expect(try dev.claims(try #require(first["id_token"]))["is_private_email"] == "true")
        #expect(first["user"]?.contains(relay) == true)
        // The first choice stays, as Apple asks only once; the address is the same every time.
        let again = try dev.authorize(email: "hider@example.com")
        #expect(try dev.claims(try #require(again["id_token"]))["email"] == .string(relay))
        // Another client gets another address; another person too.
        let other = try dev.authorize(email: "hider@example.com", ["client_id": "com.example.other", "hide_my_email": "true"])
        let otherRelay = try dev.claims(try #require(other["id_token"]))["email"]?.stringValue
        #expect(otherRelay?.hasSuffix("@privaterelay.appleid.com") == true)
        #expect(otherRelay != relay)
        // A new server (same store, so the same dev account) derives the same address.
        let restarted = try DevAppleProvider(
            configuration: dev.apple.configuration, accounts: try #require(dev.test.devIdentityProvider),
            store: dev.test.store, time: dev.test.time, clientSecrets: FakeClientSecretChecker())
        guard case .valid(let request) = restarted.checkAuthorization(dev.parameters(["hide_my_email": "true"])),
            case .formPost(_, let fields) = try restarted.approveHeadless(request, email: "hider@example.com"),
            let idToken = fields.first(where: { $0.name == "id_token" })?.value
        else { Issue.record("no answer"); return }
        #expect(try dev.claims(idToken)["email"] == .string(relay))
    }

    @Test("codes: single use, 5 minutes, same client and redirect URI; tokens as Apple answers them")
    func codes() throws {
        let dev = try DevAppleTest()
        let code = try #require(try dev.authorize()["code"])
        let tokens = try dev.exchange(code)
        #expect(tokens["token_type"] == "Bearer")
        #expect(tokens["expires_in"] == 3600)
        #expect(tokens["refresh_token"]?.stringValue != nil)
        let claims = try dev.claims(try #require(tokens["id_token"]?.stringValue))
        #expect(claims["nonce"] == "no-1")
        #expect(claims["at_hash"] != nil)
        #expect(oauthError { try dev.exchange(code) } == "invalid_grant")

        let expiring = try #require(try dev.authorize()["code"])
        dev.test.time.advance(by: 301)
        #expect(oauthError { try dev.exchange(expiring) } == "invalid_grant")

        let wrongRedirect = try #require(try dev.authorize()["code"])
        #expect(oauthError { try dev.exchange(wrongRedirect, redirectURI: "http://127.0.0.1:1/other") } == "invalid_grant")
        // The failed exchange used the code up.
        #expect(oauthError { try dev.exchange(wrongRedirect) } == "invalid_grant")
        // A code exchanged without a redirect URI (an app's native code, Firebase's revokeToken) is accepted.
        let native = try #require(try dev.authorize()["code"])
        #expect(try dev.exchange(native, redirectURI: nil)["refresh_token"]?.stringValue != nil)

        let otherClient = try #require(try dev.authorize()["code"])
        #expect(oauthError { try dev.exchange(otherClient, clientID: "com.example.other") } == "invalid_grant")

        #expect(oauthError { try dev.exchange("c.made-up") } == "invalid_grant")
        #expect(oauthError { try dev.apple.token(["grant_type": "password", "client_id": DevAppleTest.clientID, "client_secret": dev.secret()]) }
            == "unsupported_grant_type")
        #expect(oauthError { try dev.apple.token(["grant_type": "authorization_code", "client_id": DevAppleTest.clientID, "client_secret": dev.secret()]) }
            == "invalid_request")
    }

    @Test("client secrets: team, sub, aud, kid, alg, lifetime and signature are all checked")
    func clientSecrets() throws {
        let dev = try DevAppleTest()
        let now = dev.test.time.nowSeconds
        let refused: [(String, String?)] = [
            ("wrong team", dev.secret(["iss": "OTHERTEAM"])),
            ("sub is another client", dev.secret(["sub": "com.example.other"])),
            ("wrong audience", dev.secret(["aud": "https://appleid.apple.com/other"])),
            ("expired", dev.secret(["iat": .integer(now - 7200), "exp": .integer(now - 3600)])),
            ("longer than 180 days", dev.secret(["exp": .integer(now + 180 * 86400 + 1)])),
            ("issued in the future", dev.secret(["iat": .integer(now + 3600), "exp": .integer(now + 7200)])),
            ("no kid", dev.secret(keyID: nil)),
            ("unknown kid", dev.secret(keyID: "OTHERKEY")),
            ("RS256", dev.secret(alg: "RS256")),
            ("bad signature", dev.secret(signature: Base64URL.encode(Array("forged".utf8)))),
            ("not a JWT", "secret"),
            ("missing", nil),
        ]
        for (name, secret) in refused {
            let code = try #require(try dev.authorize()["code"])
            var form = [
                "grant_type": "authorization_code", "code": code, "redirect_uri": DevAppleTest.redirectURI,
                "client_id": DevAppleTest.clientID,
            ]
            form["client_secret"] = secret
            #expect(oauthError { try dev.apple.token(form) } == "invalid_client", "\(name)")
        }
        // The control: the same request with a good secret works, at the longest lifetime Apple allows.
        let code = try #require(try dev.authorize()["code"])
        #expect(try dev.exchange(code, secret: dev.secret(["exp": .integer(now + 180 * 86400)]))["id_token"] != nil)
        #expect(oauthError { try dev.exchange(code, clientID: "com.unknown") } == "invalid_client")
    }

    @Test("revocation: refresh then fails, the revocation is listed without the token, the next sign-in is a first one")
    func revocation() throws {
        let dev = try DevAppleTest()
        let first = try dev.authorize()
        let tokens = try dev.exchange(try #require(first["code"]))
        let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
        let refreshed = try dev.refresh(refreshToken)
        #expect(refreshed["access_token"] != nil)
        #expect(refreshed["refresh_token"] == nil)
        #expect(try dev.claims(try #require(refreshed["id_token"]?.stringValue))["nonce"] == nil)

        // Unknown tokens and other clients' tokens: accepted, nothing revoked.
        try dev.apple.revoke(["client_id": DevAppleTest.clientID, "client_secret": dev.secret(), "token": "r.unknown"])
        try dev.apple.revoke([
            "client_id": "com.example.other", "client_secret": dev.secret(["sub": "com.example.other"]), "token": refreshToken,
        ])
        #expect(dev.apple.revocations.isEmpty)
        #expect(oauthError { try dev.apple.revoke(["client_id": DevAppleTest.clientID, "token": refreshToken]) } == "invalid_client")
        #expect(oauthError { try dev.apple.revoke(["client_id": DevAppleTest.clientID, "client_secret": dev.secret()]) } == "invalid_request")
        #expect(try dev.refresh(refreshToken)["id_token"] != nil)

        try dev.apple.revoke([
            "client_id": DevAppleTest.clientID, "client_secret": dev.secret(), "token": refreshToken,
            "token_type_hint": "refresh_token",
        ])
        #expect(oauthError { try dev.refresh(refreshToken) } == "invalid_grant")
        let firstToken = try #require(first["id_token"])
        let sub = try #require(try dev.claims(firstToken)["sub"]?.stringValue)
        let expected = DevAppleRevocation(
            subject: sub, clientID: DevAppleTest.clientID, tokenType: "refresh_token", revokedAt: dev.test.time.nowSeconds)
        #expect(dev.apple.revocations == [expected])
        #expect(try dev.authorize()["user"] != nil)

        // Revoking the access token revokes the authorization too.
        let again = try dev.exchange(try #require(try dev.authorize()["code"]))
        try dev.apple.revoke([
            "client_id": DevAppleTest.clientID, "client_secret": dev.secret(),
            "token": try #require(again["access_token"]?.stringValue), "token_type_hint": "access_token",
        ])
        #expect(oauthError { try dev.refresh(try #require(again["refresh_token"]?.stringValue)) } == "invalid_grant")
        #expect(dev.apple.revocations.last?.tokenType == "access_token")
    }

    @Test("redirect URIs are read as browsers read them: their origin, scheme and host in any case, the default port left out")
    func redirectURIsAsBrowsersReadThem() {
        let configuration = DevAppleConfiguration(issuer: "http://hearth.test/dev/apple", trustsOrigin: { $0 == "https://app.example.com" })
        for accepted in ["https://app.example.com/cb", "HTTPS://App.Example.COM/cb", "https://app.example.com:443/cb",
                         "https://app.example.com?x=1", "HTTP://LOCALHOST:8080/cb"] {
            #expect(configuration.accepts(redirectURI: accepted), "\(accepted)")
        }
        for refused in ["https://evil.example\\@app.example.com/cb", "https://app.example.com:8443/cb", "https://app.example.com./cb",
                        "https://app.example.com/cb%zz", "https:app.example.com/cb", "https://app.example.com/cb#x",
                        "https://evil.example%2F@app.example.com/", "https://%61pp.example.com/", "http://0x7f.1/cb",
                        "http://localhost/\tcb"] {
            #expect(!configuration.accepts(redirectURI: refused), "\(refused.debugDescription)")
        }
    }

    @Test("authorization requests: Apple's rules for clients, redirect URIs, response types, modes and scopes")
    func authorizationRules() throws {
        let dev = try DevAppleTest()
        func rejected(_ extra: [String: String]) -> Bool {
            if case .rejected = dev.apple.checkAuthorization(dev.parameters(extra)) { return true }
            return false
        }
        func error(_ extra: [String: String]) -> String? {
            switch dev.apple.checkAuthorization(dev.parameters(extra)) {
            case .answer(.formPost(_, let fields)): return fields.first { $0.name == "error" }?.value
            case .answer(.redirect(let location)):
                let query = location.split(separator: location.contains("#") ? "#" : "?", maxSplits: 1).last.map(String.init) ?? ""
                return FormEncoding.decode(query).first { $0.0 == "error" }?.1
            default: return nil
            }
        }
        #expect(rejected(["client_id": "com.unknown"]))
        #expect(rejected(["client_id": ""]))
        #expect(rejected(["redirect_uri": "https://evil.example.com/cb"]))
        #expect(rejected(["redirect_uri": "http://app.example.com/cb"]))
        #expect(rejected(["redirect_uri": "http://127.0.0.1:70000/cb"]))
        #expect(rejected(["redirect_uri": "https://app.example.com/cb\r\nSet-Cookie: x"]))
        #expect(rejected(["response_mode": "web_message"]))
        #expect(!rejected(["redirect_uri": "https://app.example.com/apple/callback"]))
        #expect(!rejected(["redirect_uri": "http://[::1]:8080/cb"]))

        #expect(error(["response_type": "id_token"]) == "unsupported_response_type")
        #expect(error(["scope": "name phone"]) == "invalid_scope")
        #expect(error(["response_mode": "query"]) == "invalid_request")
        #expect(error(["response_mode": "fragment"]) == "invalid_request")
        #expect(error(["response_mode": "query", "scope": "", "response_type": "code id_token"]) == "invalid_request")

        guard case .valid(let query) = dev.apple.checkAuthorization(dev.parameters(["response_mode": "query", "scope": "", "response_type": "code"])),
            case .redirect(let location) = try dev.apple.approveHeadless(query, email: "q@example.com")
        else { Issue.record("query mode"); return }
        #expect(location.hasPrefix(DevAppleTest.redirectURI + "?code=c."))
        #expect(location.hasSuffix("&state=st-1"))
        #expect(!location.contains("user="))

        guard case .valid(let fragment) = dev.apple.checkAuthorization(dev.parameters(["response_mode": "fragment", "scope": ""])),
            case .redirect(let fragmentLocation) = try dev.apple.approveHeadless(fragment, email: "q@example.com")
        else { Issue.record("fragment mode"); return }
        #expect(fragmentLocation.hasPrefix(DevAppleTest.redirectURI + "#code=c."))
        #expect(fragmentLocation.contains("&id_token="))

        guard case .valid(let cancelled) = dev.apple.checkAuthorization(dev.parameters()),
            case .formPost(_, let fields) = dev.apple.cancel(cancelled)
        else { Issue.record("cancel"); return }
        #expect(fields.map(\.name) == ["error", "state"])
        #expect(fields.first?.value == "user_cancelled_authorize")
    }
}
