import Foundation
import HearthCrypto
import JOSE
import Testing

/// The dev Apple of the built `hearth serve --dev`, over HTTP: headless sign-in, the form_post page, ID tokens
/// that verify against `/dev/apple/auth/keys`, and client authentication at the token and revoke endpoints.
@Suite("Dev Apple (e2e)", .blocking)
struct DevAppleTests {
    @Test("headless form_post → ID token verifies against /dev/apple/auth/keys with Apple's claims; user only the first time")
    func signIn() throws {
        let server = HearthProcess()
        try server.start()
        let apple = DevApple(server: server)
        let nonce = SHA256.hash("raw-nonce").map { String(format: "%02x", $0) }.joined()
        let first = try apple.signIn(email: "apple.person@example.com", nonce: nonce)
        let code = try #require(first["code"])
        #expect(first["state"] == "st")
        let userJSON = try #require(first["user"])
        let user = try #require(try JSONSerialization.jsonObject(with: Data(userJSON.utf8)) as? [String: Any])
        #expect(user["email"] as? String == "apple.person@example.com")
        #expect((user["name"] as? [String: Any])?["firstName"] as? String == "Apple")

        let keys = try server.request("GET", "/dev/apple/auth/keys")
        let keySet = JWTKeySet(jwks: try JSONDecoder().decode(JSONWebKeySet.self, from: keys.body))
        let verified = try keySet.verify(try #require(first["id_token"]))
        let claims = try #require(try JSONSerialization.jsonObject(with: verified.payload) as? [String: Any])
        #expect(claims["iss"] as? String == "http://127.0.0.1:\(server.port)/dev/apple")
        #expect(claims["aud"] as? String == DevApple.clientID)
        #expect(claims["nonce"] as? String == nonce)
        #expect(claims["email_verified"] as? String == "true")
        #expect(claims["is_private_email"] as? String == "false")
        #expect(claims["c_hash"] as? String == Base64URL.encode(Array(SHA256.hash(code).prefix(16))))
        #expect((claims["sub"] as? String)?.wholeMatch(of: /000\d{3}\.[0-9a-f]{32}\.0\d{3}/) != nil)

        let again = try apple.signIn(email: "apple.person@example.com", nonce: nonce)
        #expect(again["user"] == nil)
        let hidden = try apple.signIn(email: "hidden.person@example.com", nonce: nonce, hideEmail: true)
        let hiddenToken = try #require(hidden["id_token"])
        let hiddenClaims = try #require(try JSONSerialization.jsonObject(with: keySet.verify(hiddenToken).payload) as? [String: Any])
        #expect((hiddenClaims["email"] as? String)?.hasSuffix("@privaterelay.appleid.com") == true)
        #expect(hiddenClaims["is_private_email"] as? String == "true")
    }

    @Test("the token and revoke endpoints refuse a client secret whose signature cannot be verified; nothing is revoked")
    func clientAuthentication() throws {
        let server = HearthProcess()
        try server.start()
        let apple = DevApple(server: server)
        let code = try #require(try apple.signIn(email: "secret.test@example.com", nonce: "n")["code"])
        let secret = DevApple.clientSecret(signature: SecureRandom.bytes(count: 64))
        let exchange = try apple.post("token", [
            ("client_id", DevApple.clientID), ("client_secret", secret), ("grant_type", "authorization_code"),
            ("code", code), ("redirect_uri", DevApple.redirectURI),
        ])
        #expect(exchange.status == 400)
        #expect(exchange.json["error"] as? String == "invalid_client", "\(exchange.text)")
        let revoke = try apple.post("revoke", [("client_id", DevApple.clientID), ("client_secret", secret), ("token", "r.x")])
        #expect(revoke.json["error"] as? String == "invalid_client")
        let grant = try apple.post("token", [("client_id", DevApple.clientID), ("client_secret", secret), ("grant_type", "password")])
        #expect(grant.status == 400)
        let revocations = try server.request("GET", "/dev/apple/revocations")
        #expect(revocations.status == 200)
        #expect((revocations.json["revocations"] as? [Any])?.isEmpty == true)
    }

    @Test("without --dev there is no dev Apple")
    func notInProduction() throws {
        let server = HearthProcess(
            arguments: ["--project-id", "apple-prod"],
            environment: ["HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"])
        try server.start()
        for path in ["/dev/apple/auth/keys", "/dev/apple/auth/authorize?client_id=dev.hearth.portfolio", "/dev/apple/revocations"] {
            #expect(try server.request("GET", path).status == 404, "\(path)")
        }
    }
}

/// The dev Apple's chooser in a real browser (headless Chromium driven by selenium).
@Suite("Dev Apple in a browser (e2e)", .blocking)
struct DevAppleBrowserTests {
    @Test("choosing an account with Hide my email: the form_post page's script POSTs a private-relay answer to the app")
    func chooser() throws {
        let server = HearthProcess()
        try server.start()
        // One person: the dev account made by a Google sign-in is on Apple's chooser too.
        _ = try DevGoogle(server: server).signIn(email: "browser.person@example.com")
        try PythonClients.browser.get()
        let answer = try PythonClients.run("apple_chooser.py", ["http://127.0.0.1:\(server.port)", "browser.person@example.com"])
        #expect(answer["path"] as? String == "/apple/callback")
        let fields = try #require(answer["fields"] as? [String: String])
        #expect(fields["state"] == "browser-state")
        #expect(fields["code"]?.isEmpty == false)
        let userJSON = try #require(fields["user"])
        let user = try #require(try JSONSerialization.jsonObject(with: Data(userJSON.utf8)) as? [String: Any])
        let relay = try #require(user["email"] as? String)
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        #expect((user["name"] as? [String: Any])?["lastName"] as? String == "Person")

        let keys = try server.request("GET", "/dev/apple/auth/keys")
        let keySet = JWTKeySet(jwks: try JSONDecoder().decode(JSONWebKeySet.self, from: keys.body))
        let idToken = try #require(fields["id_token"])
        let claims = try #require(try JSONSerialization.jsonObject(with: keySet.verify(idToken).payload) as? [String: Any])
        #expect(claims["email"] as? String == relay)
        #expect(claims["is_private_email"] as? String == "true")
        #expect(claims["nonce"] as? String == "browser-nonce")
    }
}
