import Foundation
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

/// Accepts client secrets whose signature segment is `good-signature` (the seam HearthCrypto's ES256 check fills).
private struct FakeSecrets: AppleClientSecretChecking {
    static let signature = Base64URL.encode(Array("good-signature".utf8))
    func signatureIsValid(_ jwt: String, keyID: String) -> Bool {
        keyID == "HEARTHDEVKY" && jwt.hasSuffix("." + Self.signature)
    }
}

@Suite("Dev Apple routes")
struct DevAppleRouteTests {
    static let redirectURI = "http://127.0.0.1:53682/apple/callback"
    let form = ["Content-Type": "application/x-www-form-urlencoded"] as HTTPHeaders

    /// An authorization request's parameters; `extra` replaces parameters of the same name.
    func authorizeQuery(_ extra: [(String, String)] = []) -> String {
        let base = [
            ("response_type", "code id_token"), ("response_mode", "form_post"), ("client_id", "dev.hearth.portfolio"),
            ("redirect_uri", Self.redirectURI), ("scope", "name email"), ("state", "xyz"), ("nonce", "n-1"),
        ]
        return FormEncoding.encode(base.filter { pair in !extra.contains { $0.0 == pair.0 } } + extra)
    }

    static func secret(now: Int64 = Int64(Date().timeIntervalSince1970)) -> String {
        let header = #"{"alg":"ES256","kid":"HEARTHDEVKY"}"#
        let claims = #"{"iss":"HEARTHDEVTM","sub":"dev.hearth.portfolio","aud":"https://appleid.apple.com","iat":\#(now),"exp":\#(now + 3600)}"#
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "." + FakeSecrets.signature
    }

    /// The hidden inputs of the form_post page's form, and its action.
    static func formPost(_ page: HTTPResponse) -> (action: String?, fields: [String: String]) {
        let text = page.text
        func unescape(_ value: Substring) -> String {
            value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        var fields: [String: String] = [:]
        for match in text.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/) {
            fields[unescape(match.1)] = unescape(match.2)
        }
        let action = text.firstMatch(of: /<form method="post" action="([^"]*)"/).map { unescape($0.1) }
        return (action, fields)
    }

    @Test("headless form_post page → token exchange → revoke → listed → refresh refused, all over the routes")
    func flow() throws {
        let fixture = try ServerFixture(appleClientSecrets: FakeSecrets())
        let page = fixture.call(.get, "/dev/apple/auth/authorize?" + authorizeQuery([("login_hint", "Pat.Lee@example.com")]))
        #expect(page.status == 200)
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(page.text.contains("<button type=\"submit\">"))
        #expect(page.text.contains(".submit()"))
        let (action, fields) = Self.formPost(page)
        #expect(action == Self.redirectURI)
        #expect(fields["state"] == "xyz")
        #expect(fields["id_token"] != nil)
        let user = try JSONValue(parsing: Data(try #require(fields["user"]).utf8))
        #expect(user == ["name": ["firstName": "Pat", "lastName": "Lee"], "email": "pat.lee@example.com"])

        let exchange = fixture.call(
            .post, "/dev/apple/auth/token", headers: form,
            body: FormEncoding.encode([
                ("client_id", "dev.hearth.portfolio"), ("client_secret", Self.secret()), ("grant_type", "authorization_code"),
                ("code", try #require(fields["code"])), ("redirect_uri", Self.redirectURI),
            ]))
        #expect(exchange.status == 200, "\(exchange.text)")
        #expect(exchange.headers["Cache-Control"] == "no-store")
        let refreshToken = try #require(exchange.json["refresh_token"] as? String)

        let revoke = fixture.call(
            .post, "/dev/apple/auth/revoke", headers: form,
            body: FormEncoding.encode([
                ("client_id", "dev.hearth.portfolio"), ("client_secret", Self.secret()), ("token", refreshToken),
                ("token_type_hint", "refresh_token"),
            ]))
        #expect(revoke.status == 200)
        #expect(revoke.body.isEmpty)
        let listed = fixture.call(.get, "/dev/apple/revocations")
        let revocations = try #require(listed.json["revocations"] as? [[String: Any]])
        #expect(revocations.count == 1)
        #expect(revocations.first?["clientId"] as? String == "dev.hearth.portfolio")
        #expect(revocations.first?["tokenType"] as? String == "refresh_token")
        #expect((revocations.first?["sub"] as? String)?.hasPrefix("000") == true)
        #expect(revocations.first?["revokedAt"] as? Int != nil)
        #expect(!listed.text.contains(refreshToken))

        let refused = fixture.call(
            .post, "/dev/apple/auth/token", headers: form,
            body: FormEncoding.encode([
                ("client_id", "dev.hearth.portfolio"), ("client_secret", Self.secret()), ("grant_type", "refresh_token"),
                ("refresh_token", refreshToken),
            ]))
        #expect(refused.status == 400)
        #expect(refused.json["error"] as? String == "invalid_grant")
        #expect(fixture.log.all.allSatisfy { !$0.contains(refreshToken) })
    }

    @Test("Apple's errors: invalid_client for a bad secret, 400 JSON; the refusing checker refuses every secret")
    func errors() throws {
        let fixture = try ServerFixture()
        let page = fixture.call(.get, "/dev/apple/auth/authorize?" + authorizeQuery([("login_hint", "a@example.com")]))
        let code = try #require(Self.formPost(page).fields["code"])
        let exchange = fixture.call(
            .post, "/dev/apple/auth/token", headers: form,
            body: FormEncoding.encode([
                ("client_id", "dev.hearth.portfolio"), ("client_secret", Self.secret()), ("grant_type", "authorization_code"),
                ("code", code), ("redirect_uri", Self.redirectURI),
            ]))
        #expect(exchange.status == 400)
        #expect(exchange.json["error"] as? String == "invalid_client")
        let revoke = fixture.call(.post, "/dev/apple/auth/revoke", headers: form, body: "client_id=dev.hearth.portfolio&token=x")
        #expect(revoke.status == 400)
        #expect(revoke.json["error"] as? String == "invalid_client")
    }

    @Test("the chooser offers Hide my email; choosing it posts a private-relay address to the app")
    func chooser() throws {
        let fixture = try ServerFixture()
        let apple = try #require(fixture.devApple)
        let person = try apple.createAccount(email: "chosen@example.com", name: "<b>Chosen</b> One", pictureURL: nil)
        let page = fixture.call(.get, "/dev/apple/auth/authorize?" + authorizeQuery())
        #expect(page.status == 200)
        #expect(page.text.contains("chosen@example.com"))
        #expect(page.text.contains("&lt;b&gt;Chosen&lt;/b&gt;"))
        #expect(page.text.contains("name=\"hide_my_email\" value=\"true\""))
        #expect(page.text.contains("Sign in with Apple"))
        let answer = fixture.call(
            .post, "/dev/apple/auth/authorize", headers: form,
            body: authorizeQuery([("action", "choose"), ("subject", person.subject), ("hide_my_email", "true")]))
        let fields = Self.formPost(answer).fields
        let user = try JSONValue(parsing: Data(try #require(fields["user"]).utf8))
        #expect(user["email"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)
        #expect(user["name"] == ["firstName": "<b>Chosen</b>", "lastName": "One"])
        // The form_post page escapes what it echoes.
        #expect(!answer.text.contains("<b>Chosen"))

        let cancelled = fixture.call(.post, "/dev/apple/auth/authorize", headers: form, body: authorizeQuery([("action", "cancel")]))
        #expect(Self.formPost(cancelled).fields == ["error": "user_cancelled_authorize", "state": "xyz"])
        let added = fixture.call(
            .post, "/dev/apple/auth/authorize", headers: form,
            body: authorizeQuery([("action", "add"), ("email", "added@example.com"), ("name", "Ada Added")]))
        #expect(Self.formPost(added).fields["user"]?.contains("added@example.com") == true)
        let invalid = fixture.call(
            .post, "/dev/apple/auth/authorize", headers: form, body: authorizeQuery([("action", "add"), ("email", "nope")]))
        #expect(invalid.status == 400)
        #expect(invalid.text.contains("Enter an email address"))
    }

    @Test("untrusted clients and redirect URIs get an error page; query mode redirects; keys and discovery are served")
    func pages() throws {
        let fixture = try ServerFixture()
        for extra in [[("client_id", "com.evil")], [("redirect_uri", "https://evil.example.com/cb")]] {
            let page = fixture.call(.get, "/dev/apple/auth/authorize?" + authorizeQuery(extra))
            #expect(page.status == 400)
            #expect(page.headers["Location"] == nil)
        }
        let trusted = fixture.call(
            .get, "/dev/apple/auth/authorize?" + authorizeQuery([("redirect_uri", "https://app.example.com/cb"), ("login_hint", "t@example.com")]))
        #expect(Self.formPost(trusted).action == "https://app.example.com/cb")
        let query = fixture.call(
            .get, "/dev/apple/auth/authorize?" + FormEncoding.encode([
                ("response_type", "code"), ("response_mode", "query"), ("client_id", "dev.hearth.portfolio"),
                ("redirect_uri", Self.redirectURI), ("state", "s"), ("login_hint", "q@example.com"),
            ]))
        #expect(query.status == 302)
        #expect(query.headers["Location"]?.hasPrefix(Self.redirectURI + "?code=") == true)
        let scoped = fixture.call(.get, "/dev/apple/auth/authorize?" + authorizeQuery([("response_mode", "query")]))
        #expect(scoped.headers["Location"] == Self.redirectURI + "?error=invalid_request&state=xyz")

        let keys = fixture.call(.get, "/dev/apple/auth/keys")
        let published = try #require(keys.json["keys"] as? [[String: Any]])
        #expect(published.first?["alg"] as? String == "RS256")
        #expect((published.first?["kid"] as? String)?.hasPrefix("devapple-") == true)
        let sessionKeys = fixture.call(.get, "/.well-known/jwks.json")
        #expect(!sessionKeys.text.contains("devapple-"))
        let discovery = fixture.call(.get, "/dev/apple/.well-known/openid-configuration")
        #expect(discovery.json["jwks_uri"] as? String == "http://hearth.test/dev/apple/auth/keys")
    }

    @Test("without --dev the dev Apple answers 404")
    func notInProduction() throws {
        let fixture = try ServerFixture()
        let production = IdentityServer(
            platform: fixture.platform,
            options: ServerOptions(publicURL: ServerFixture.publicURL, development: false, devApple: fixture.devApple))
        for path in ["/dev/apple/auth/authorize", "/dev/apple/auth/keys", "/dev/apple/revocations"] {
            let request = HTTPRequest(method: .get, path: path, rawQuery: "", headers: [:], body: [], remoteAddress: nil)
            #expect(production.handle(request).status == 404, "\(path)")
        }
    }
}
