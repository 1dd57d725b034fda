import Foundation
import HearthCrypto
import Testing

/// Sign in with Apple and a generic OpenID provider against the built `hearth serve` WITHOUT `--dev`: Apple's tokens
/// come from a fake Apple issuer the test serves (Hearth fetches its JWKS at `<apple.endpoint>/auth/keys`), the
/// `oidc.second` provider is a second `hearth serve --dev` whose dev Google look-alike issues real RS256 ID tokens.
@Suite("Sign in with Apple and OpenID providers (e2e)", .blocking)
struct OpenIDProviderTests {
    static let apiKey = "AIzaSyTest-iOS-key"

    /// A production server configured with `config` (and `environment`), API key `apiKey`.
    static func server(config: [String: Any], environment: [String: String] = [:]) throws -> HearthProcess {
        let directory = ServiceProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("hearth-providers.json")
        var settings = config
        settings["apiKeys"] = [apiKey]
        settings["projectId"] = "providers-e2e"
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        // The config file sits in the data directory, removed with it.
        let server = HearthProcess(arguments: ["--config", file.path], environment: environment, dataDirectory: directory)
        try server.start()
        return server
    }

    static func appleServer(_ apple: FakeAppleIssuer) throws -> HearthProcess {
        try server(config: ["apple": ["clientIds": [FakeAppleIssuer.clientID], "endpoint": apple.endpoint]])
    }

    static func user(_ client: FirebaseIOSClient, _ idToken: String) throws -> [String: Any] {
        let answer = try client.getAccountInfo(idToken: idToken)
        return try #require((answer.json["users"] as? [[String: Any]])?.first, "\(answer.text)")
    }

    @Test("first sign-in with the name, later ones without it keep it; a private-relay email is verified")
    func nameOnFirstSignIn() throws {
        let apple = try FakeAppleIssuer()
        let server = try Self.appleServer(apple)
        let client = FirebaseIOSClient(server: server)
        let relay = "q8z1@privaterelay.appleid.com"

        let first = try client.verifyAppleAssertion(
            idToken: try apple.sign(apple.claims(subject: "000123.abc", email: relay, rawNonce: "raw-nonce-1")),
            rawNonce: "raw-nonce-1", firstName: "Ada", lastName: "Lovelace")
        #expect(first.status == 200, "\(first.text)")
        #expect(apple.keyFetches >= 1, "Hearth fetched the fake Apple's keys over HTTP")
        #expect(first.json["providerId"] as? String == "apple.com")
        #expect(first.json["isNewUser"] as? Bool == true)
        #expect(first.json["displayName"] as? String == "Ada Lovelace")
        #expect(first.json["firstName"] as? String == "Ada" && first.json["lastName"] as? String == "Lovelace")
        #expect(first.json["email"] as? String == relay && first.json["emailVerified"] as? Bool == true)
        let signedIn = try SignedIn(first)

        let later = try client.verifyAppleAssertion(
            idToken: try apple.sign(apple.claims(subject: "000123.abc", email: relay, rawNonce: "raw-nonce-2")),
            rawNonce: "raw-nonce-2")
        #expect(later.status == 200, "\(later.text)")
        #expect(later.json["localId"] as? String == signedIn.localID && later.json["isNewUser"] as? Bool == false)
        let record = try Self.user(client, try SignedIn(later).idToken)
        #expect(record["displayName"] as? String == "Ada Lovelace")
        #expect(record["email"] as? String == relay && record["emailVerified"] as? Bool == true)
        let identity = try #require((record["providerUserInfo"] as? [[String: Any]])?.first)
        #expect(identity["providerId"] as? String == "apple.com" && identity["federatedId"] as? String == "000123.abc")
        #expect(identity["displayName"] as? String == "Ada Lovelace")
    }

    @Test("nonce mismatch, wrong audience, expired and forged Apple tokens are refused in Firebase's envelope; Google is not enabled")
    func refused() throws {
        let apple = try FakeAppleIssuer()
        let server = try Self.appleServer(apple)
        let client = FirebaseIOSClient(server: server)
        var wrongAudience = apple.claims(subject: "r.1", email: nil, rawNonce: "n")
        wrongAudience["aud"] = "com.someone.else"
        var expired = apple.claims(subject: "r.1", email: nil, rawNonce: "n")
        expired["iat"] = Int(Date().timeIntervalSince1970) - 7200
        expired["exp"] = Int(Date().timeIntervalSince1970) - 3600
        let cases: [(String, String, String?, String)] = [
            ("nonce mismatch", try apple.sign(apple.claims(subject: "r.1", email: nil, rawNonce: "other")), "n", "MISSING_OR_INVALID_NONCE"),
            ("nonce missing", try apple.sign(apple.claims(subject: "r.1", email: nil, rawNonce: "n")), nil, "MISSING_OR_INVALID_NONCE"),
            ("wrong audience", try apple.sign(wrongAudience), "n", "INVALID_IDP_RESPONSE"),
            ("expired", try apple.sign(expired), "n", "INVALID_IDP_RESPONSE"),
            ("forged", try apple.sign(apple.claims(subject: "r.1", email: nil, rawNonce: "n"), with: try RSAPrivateKey.generate()), "n", "INVALID_IDP_RESPONSE"),
            ("not a JWT", "{\"sub\":\"r.1\"}", "n", "INVALID_IDP_RESPONSE"),
        ]
        for (name, token, rawNonce, code) in cases {
            let response = try client.verifyAppleAssertion(idToken: token, rawNonce: rawNonce)
            #expect(response.status == 400, "\(name): \(response.text)")
            #expect(response.errorMessage?.hasPrefix(code) == true, "\(name): \(response.text)")
            #expect((response.json["error"] as? [String: Any])?["errors"] != nil, "\(name): Firebase's envelope")
        }
        let google = try client.verifyAssertion(idToken: "x.y.z", accessToken: nil)
        #expect(google.status == 400 && google.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(google.text)")
        let good = try client.verifyAppleAssertion(
            idToken: try apple.sign(apple.claims(subject: "r.1", email: nil, rawNonce: "n")), rawNonce: "n")
        #expect(good.json["isNewUser"] as? Bool == true, "nothing was created by the refused attempts: \(good.text)")
    }

    @Test("--dev adds the dev Apple client ID dev.hearth.portfolio to the configured ones")
    func developmentClientID() throws {
        let apple = try FakeAppleIssuer()
        let directory = ServiceProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("hearth-dev-apple.json")
        try JSONSerialization.data(withJSONObject: ["apple": ["endpoint": apple.endpoint]]).write(to: file)
        let server = HearthProcess(arguments: ["--dev", "--config", file.path], dataDirectory: directory)
        try server.start()
        var claims = apple.claims(subject: "dev.1", email: nil, rawNonce: "n")
        claims["aud"] = "dev.hearth.portfolio"
        let response = try FirebaseIOSClient(server: server).verifyAppleAssertion(idToken: try apple.sign(claims), rawNonce: "n")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["providerId"] as? String == "apple.com")
    }

    @Test("a guest (signupNewUser) links Apple and keeps its uid (Apple's client IDs from HEARTH_APPLE_CLIENT_IDS)")
    func guestUpgrade() throws {
        let apple = try FakeAppleIssuer()
        let server = try Self.server(
            config: ["apple": ["endpoint": apple.endpoint]],
            environment: ["HEARTH_APPLE_CLIENT_IDS": "com.example.other, \(FakeAppleIssuer.clientID)"])
        let client = FirebaseIOSClient(server: server)
        let guest = try SignedIn(try client.signUpAnonymously())
        let linked = try client.verifyAppleAssertion(
            idToken: try apple.sign(apple.claims(subject: "g.1", email: "guest@example.com", rawNonce: "gn")),
            rawNonce: "gn", firstName: "Guest", linking: guest.idToken)
        #expect(linked.status == 200, "\(linked.text)")
        let upgraded = try SignedIn(linked)
        #expect(upgraded.localID == guest.localID)
        let record = try Self.user(client, upgraded.idToken)
        #expect(record["email"] as? String == "guest@example.com" && record["displayName"] as? String == "Guest")
        #expect((record["providerUserInfo"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["apple.com"])
    }

    @Test("oidc.second: a second hearth serve --dev is the OpenID provider, found by discovery; its tokens sign in")
    func genericProvider() throws {
        let idp = HearthProcess()
        try idp.start()
        let server = try Self.server(config: [
            "oidcProviders": [[
                "providerId": "oidc.second", "issuer": "\(idp.baseURL)/dev/google", "clientIds": [DevGoogle.clientID],
                "clientSecret": "second-secret",
            ]],
        ])
        #expect(server.waitForLine { $0 == "  Sign-in providers  oidc.second" }, "the banner names the enabled providers")
        let tokens = try DevGoogle(server: idp).signIn(email: "second@example.com")
        let body: [String: Any] = [
            "requestUri": "http://localhost", "postBody": "providerId=oidc.second&id_token=\(tokens.idToken)",
            "returnSecureToken": true, "returnIdpCredential": true,
        ]
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=\(Self.apiKey)"
        let response = try server.postJSON(path, body)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["providerId"] as? String == "oidc.second")
        #expect(response.json["email"] as? String == "second@example.com")
        #expect(response.json["isNewUser"] as? Bool == true)
        let raw = try #require((response.json["rawUserInfo"] as? String).flatMap { Data($0.utf8) })
        #expect((try JSONSerialization.jsonObject(with: raw) as? [String: Any])?["iss"] as? String == "\(idp.baseURL)/dev/google")
        let claims = JWTParts.claims(try SignedIn(response).idToken)
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "oidc.second")

        // The same IdP's token is no Google sign-in here, and a tampered one is refused.
        let asGoogle = try server.postJSON(path, ["requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=\(tokens.idToken)"])
        #expect(asGoogle.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(asGoogle.text)")
        let tampered = String(tokens.idToken.dropLast(4)) + (tokens.idToken.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let forged = try server.postJSON(path, ["requestUri": "http://localhost", "postBody": "providerId=oidc.second&id_token=\(tampered)"])
        #expect(forged.status == 400 && forged.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(forged.text)")
    }

    @Test("bad provider settings stop the server at startup with a clear message", arguments: [
        (#"{"oidcProviders": [{"providerId": "acme", "issuer": "https://id.acme.test", "clientIds": ["c"]}]}"#, "must start with 'oidc.'"),
        (#"{"oidcProviders": [{"providerId": "oidc.acme", "issuer": "http://id.acme.test", "clientIds": ["c"]}]}"#, "absolute https URL"),
        (#"{"oidcProviders": [{"providerId": "oidc.acme", "issuer": "https://id.acme.test", "clientIds": []}]}"#, "clientIds"),
        (#"{"oidcProviders": [{"providerId": "oidc.acme", "issuer": "https://id.acme.test", "clientIds": ["c"], "jwks": "x"}]}"#, "unknown setting 'oidcProviders[].jwks'"),
        (#"{"apple": {"clientIds": ["com.example.app"], "privateKeyFile": "/nonexistent/AuthKey_X.p8"}}"#, "cannot read /nonexistent/AuthKey_X.p8"),
        (#"{"apple": {"clientIds": ["com.example.app"], "endpoint": "ftp://apple.test"}}"#, "apple.endpoint"),
        (#"{"apple": {"clientId": ["com.example.app"]}}"#, "unknown setting 'apple.clientId'"),
        (#"{"apple": {"teamId": "ABCDE12345"}}"#, "no sign-in provider configured"),
    ])
    func startupErrors(config: String, message: String) throws {
        let directory = ServiceProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = try #require(try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any])
        settings["apiKeys"] = ["k"]
        settings["projectId"] = "p"
        let file = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        let result = try HearthProcess.run(["serve", "--config", file.path, "--data-dir", directory.path])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
    }
}
