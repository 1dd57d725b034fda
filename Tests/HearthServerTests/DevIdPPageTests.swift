import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

@Suite("Dev IdP pages")
struct DevIdPPageTests {
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    func authorizeQuery(_ extra: [(String, String)] = []) -> String {
        FormEncoding.encode([
            ("response_type", "code"), ("client_id", "hearth-dev.apps.googleusercontent.com"),
            ("redirect_uri", "http://127.0.0.1:4567/oauth2callback"), ("scope", "openid email profile"),
            ("state", "xyz"), ("code_challenge", Self.challenge), ("code_challenge_method", "S256"),
        ] + extra)
    }

    @Test("the chooser lists accounts, pre-fills the hint and escapes everything it echoes")
    func chooser() throws {
        let fixture = try ServerFixture()
        let dev = try #require(fixture.devIdentityProvider)
        _ = try dev.createAccount(email: "shown@example.com", name: "<b>Shown</b>", pictureURL: nil, emailVerified: true)
        let page = fixture.call(.get, "/dev/google/o/oauth2/v2/auth?" + authorizeQuery([("login_hint", "\"><script>x</script>")]))
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(page.text.contains("shown@example.com"))
        #expect(page.text.contains("&lt;b&gt;Shown&lt;/b&gt;"))
        #expect(!page.text.contains("<script>x</script>"))
        #expect(page.text.contains("Auto-generate user information"))
        #expect(page.text.contains("name=\"state\" value=\"xyz\""))
    }

    @Test("adding an account redirects with a code; Cancel redirects with access_denied")
    func formActions() throws {
        let fixture = try ServerFixture()
        let form = ["Content-Type": "application/x-www-form-urlencoded"] as HTTPHeaders
        let added = fixture.call(
            .post, "/dev/google/o/oauth2/v2/auth", headers: form,
            body: authorizeQuery([("action", "add"), ("email", "new@example.com"), ("name", "New Person")]))
        #expect(added.status == 303)
        let location = try #require(added.headers["Location"])
        #expect(location.hasPrefix("http://127.0.0.1:4567/oauth2callback?code="))
        #expect(location.hasSuffix("&state=xyz"))
        #expect(try fixture.devIdentityProvider?.accounts().first?.emailVerified == false)

        let cancelled = fixture.call(.post, "/dev/google/o/oauth2/v2/auth", headers: form, body: authorizeQuery([("action", "cancel")]))
        #expect(cancelled.status == 303)
        #expect(cancelled.headers["Location"]?.contains("error=access_denied") == true)

        let invalid = fixture.call(
            .post, "/dev/google/o/oauth2/v2/auth", headers: form, body: authorizeQuery([("action", "add"), ("email", "nope")]))
        #expect(invalid.status == 400)
        #expect(invalid.text.contains("Enter an email address"))
    }

    @Test("untrusted clients and redirect URIs get an error page, never a redirect")
    func rejected() throws {
        let fixture = try ServerFixture()
        let query = authorizeQuery().replacingOccurrences(of: "127.0.0.1%3A4567", with: "evil.example")
        let response = fixture.call(.get, "/dev/google/o/oauth2/v2/auth?" + query)
        #expect(response.status == 400)
        #expect(response.headers["Location"] == nil)
    }

    @Test("prompt=none: with login_hint it signs in at once, without it answers login_required")
    func headless() throws {
        let fixture = try ServerFixture()
        let signedIn = fixture.call(.get, "/dev/google/o/oauth2/v2/auth?" + authorizeQuery([("login_hint", "cli@example.com"), ("prompt", "none")]))
        #expect(signedIn.status == 302, "\(signedIn.text)")
        #expect(signedIn.headers["Location"]?.contains("code=") == true)
        let refused = fixture.call(.get, "/dev/google/o/oauth2/v2/auth?" + authorizeQuery([("prompt", "none")]))
        #expect(refused.headers["Location"]?.contains("error=login_required") == true)
    }

    @Test("discovery, certs, token errors, userinfo without a token")
    func endpoints() throws {
        let fixture = try ServerFixture()
        let discovery = fixture.call(.get, "/dev/google/.well-known/openid-configuration")
        #expect(discovery.json["issuer"] as? String == "http://hearth.test/dev/google")
        #expect(discovery.json["jwks_uri"] as? String == "http://hearth.test/dev/google/oauth2/v3/certs")
        let certs = fixture.call(.get, "/dev/google/oauth2/v3/certs")
        #expect((certs.json["keys"] as? [[String: Any]])?.first?["kid"] is String)
        #expect(certs.headers["Cache-Control"]?.hasPrefix("public") == true)
        let token = fixture.call(
            .post, "/dev/google/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "grant_type=authorization_code&code=bogus&client_id=hearth-dev.apps.googleusercontent.com&code_verifier=v")
        #expect(token.status == 400)
        #expect(token.json["error"] as? String == "invalid_grant")
        let userInfo = fixture.call(.get, "/dev/google/oauth2/v3/userinfo")
        #expect(userInfo.status == 401)
        #expect(userInfo.headers["WWW-Authenticate"] != nil)
    }

    @Test("the playground runs the documents' whole flow and shows the claims")
    func playground() throws {
        let fixture = try ServerFixture()
        let start = fixture.call(.get, "/dev/google/try")
        #expect(start.status == 302)
        let authorize = try #require(start.headers["Location"])
        let signIn = fixture.call(.get, authorize + "&login_hint=play@example.com&prompt=none")
        let location = try #require(signIn.headers["Location"])
        let callback = try #require(URLComponents(string: location))
        #expect(callback.path == "/dev/google/callback")
        let done = fixture.call(.get, "/dev/google/callback?" + (callback.percentEncodedQuery ?? ""))
        #expect(done.status == 200)
        #expect(done.text.contains("Welcome, <strong>play@example.com</strong>"))
        #expect(done.text.contains("sign_in_provider"))
        let replay = fixture.call(.get, "/dev/google/callback?" + (callback.percentEncodedQuery ?? ""))
        #expect(replay.status == 400)
    }
}
