import Foundation
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthProtocol
import JOSE
import Testing

@Suite("Dev IdP (local Google look-alike)")
struct DevIdentityProviderTests {
    static let clientID = "hearth-dev.apps.googleusercontent.com"
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    var challenge: String { Base64URL.encode(SHA256.hash(verifier)) }

    func parameters(redirect: String = "http://127.0.0.1:53682/oauth2callback", extra: [String: String] = [:]) -> [String: String] {
        var parameters = [
            "response_type": "code", "client_id": Self.clientID, "redirect_uri": redirect, "scope": "email profile",
            "state": "st-1", "nonce": "no-1", "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        parameters.merge(extra, uniquingKeysWith: { _, new in new })
        return parameters
    }

    func provider(_ test: TestPlatform) throws -> DevIdentityProvider {
        try #require(test.devIdentityProvider)
    }

    /// Runs the flow up to the code and returns it.
    func code(_ dev: DevIdentityProvider, email: String = "dev@example.com") throws -> (code: String, request: DevIdentityProvider.AuthorizationRequest) {
        guard case .valid(let request) = dev.checkAuthorization(parameters()) else { throw WireError(.invalidArgument) }
        let account = try dev.account(forEmail: email)
        let location = try dev.approve(request, subject: account.subject)
        let query = try #require(URLComponents(string: location)?.queryItems)
        #expect(query.first { $0.name == "state" }?.value == "st-1")
        return (try #require(query.first { $0.name == "code" }?.value), request)
    }

    /// The token request an app sends for `code` with the right verifier.
    func exchange(_ dev: DevIdentityProvider, _ code: String, _ request: DevIdentityProvider.AuthorizationRequest) throws -> [String: JSONValue] {
        try dev.token([
            "grant_type": "authorization_code", "code": code, "redirect_uri": request.redirectURI, "client_id": Self.clientID,
            "code_verifier": verifier,
        ])
    }

    @Test("redirect URIs: the development client takes any loopback port and path, as Google's desktop clients")
    func redirectMatching() throws {
        let client = DevIdPClient.development(clientID: Self.clientID)
        #expect(client.accepts(redirectURI: "http://127.0.0.1:8765/oauth2callback"))
        #expect(client.accepts(redirectURI: "http://127.0.0.1/oauth2callback"))
        #expect(client.accepts(redirectURI: "http://[::1]:9/"))
        #expect(client.accepts(redirectURI: "com.googleusercontent.apps.hearth-dev:/oauth2callback"))
        // google-auth-oauthlib's installed-app flow and authlib's defaults.
        #expect(client.accepts(redirectURI: "http://localhost:8765/"))
        #expect(client.accepts(redirectURI: "http://localhost:53682/auth/callback"))
        #expect(client.accepts(redirectURI: "http://127.0.0.1:8765/other/path"))
        #expect(!client.accepts(redirectURI: "http://127.0.0.1.evil.example/oauth2callback"))
        #expect(!client.accepts(redirectURI: "http://localhost.evil.example/"))
        #expect(!client.accepts(redirectURI: "http://127.0.0.1@evil.example/"))
        #expect(!client.accepts(redirectURI: "http://localhost:80@evil.example/"))
        #expect(!client.accepts(redirectURI: "http://127.0.0.1:80x/oauth2callback"))
        #expect(!client.accepts(redirectURI: "http://127.0.0.1:8765/cb#fragment"))
        #expect(!client.accepts(redirectURI: "https://evil.example/oauth2callback"))
        #expect(!client.accepts(redirectURI: "com.example.other:/oauth2callback"))
        // The URI becomes a Location header: no control characters, spaces or non-ASCII (found by fuzz-router).
        for injected in ["http://127.0.0.1:53682/cb\u{0}k", "http://127.0.0.1/cb\r\nSet-Cookie: a=b", "http://localhost/a b",
                         "http://localhost/caf\u{E9}", "http://127.0.0.1:\u{0663}/cb", "http://127.0.0.1:99999/cb"] {
            #expect(!client.accepts(redirectURI: injected), "\(injected.debugDescription)")
        }
        #expect(client.accepts(redirectURI: "http://localhost/caf%C3%A9?x=1&y=%20"))
        #expect(client.acceptedRedirectsDescription.contains("http://localhost with any port and path"))

        // Other clients still match exactly, ignoring only a loopback port.
        let registered = DevIdPClient(clientID: "other", redirectURIs: ["http://127.0.0.1/cb"])
        #expect(registered.accepts(redirectURI: "http://127.0.0.1:99/cb"))
        #expect(!registered.accepts(redirectURI: "http://127.0.0.1:99/other"))
        #expect(!registered.accepts(redirectURI: "http://localhost:99/cb"))
    }

    @Test("loopback redirect URIs are read as browsers read them (BrowserURL); registered ones still match exactly")
    func loopbackRedirectsAsBrowsersReadThem() {
        let client = DevIdPClient.development(clientID: Self.clientID)
        #expect(client.accepts(redirectURI: "HTTP://LOCALHOST:8765/cb"))
        #expect(client.accepts(redirectURI: "http://127.0.0.1:8765?x=1"))
        for refused in ["http://localhost\\@evil.example/", "http://127.0.0.1:8765\\@evil.example/", "http:127.0.0.1/cb",
                        "http:///127.0.0.1/cb", "http://localhost./cb", "http://0x7f.1/cb", "http://127.1/cb", "http://[0::1]/cb",
                        "http://%6cocalhost/cb", "http://127.0.0.1:08765/cb", "http://127.0.0.1:0/cb", "http://localhost/cb%zz",
                        "https://localhost/cb"] {
            #expect(!client.accepts(redirectURI: refused), "\(refused.debugDescription)")
        }
        let registered = DevIdPClient(clientID: "other", redirectURIs: ["http://localhost/cb?x=1", "com.example.app:/callback"])
        #expect(registered.accepts(redirectURI: "http://localhost:9000/cb?x=1"))
        #expect(!registered.accepts(redirectURI: "http://localhost:9000/cb?x=2"))
        #expect(registered.accepts(redirectURI: "com.example.app:/callback"))
        #expect(!registered.accepts(redirectURI: "com.example.app:/callback2"))
    }

    @Test("authorization checks: bad clients get an error page; bad requests an error redirect")
    func authorizationChecks() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        if case .rejected = dev.checkAuthorization(parameters(extra: ["client_id": "unknown"])) {} else { Issue.record("unknown client") }
        if case .rejected = dev.checkAuthorization(parameters(redirect: "https://evil.example/cb")) {} else { Issue.record("bad redirect") }
        for extra in [["code_challenge_method": "plain"], ["code_challenge": ""], ["response_type": "token"], ["scope": "calendar"]] {
            guard case .redirect(let location) = dev.checkAuthorization(parameters(extra: extra)) else {
                Issue.record("expected redirect for \(extra)")
                continue
            }
            #expect(location.hasPrefix("http://127.0.0.1:53682/oauth2callback?error="))
            #expect(location.contains("state=st-1"))
        }
        guard case .valid(let request) = dev.checkAuthorization(parameters()) else { Issue.record("valid"); return }
        #expect(request.scope == "https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile")
        #expect(dev.cancel(request).contains("error=access_denied"))
    }

    @Test("code exchange with PKCE returns Google-shaped tokens; the ID token verifies and carries nonce and at_hash")
    func codeExchange() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let (code, request) = try code(dev)
        let response = try exchange(dev, code, request)
        let accessToken = try #require(response["access_token"]?.stringValue)
        let idToken = try #require(response["id_token"]?.stringValue)
        #expect(response["refresh_token"]?.stringValue != nil)
        #expect(response["token_type"] == "Bearer")
        #expect(response["expires_in"] == 3599)
        let verified = try dev.verificationKeys(forceRefresh: false).verify(idToken)
        let claims = try #require(try JSONValue(parsing: verified.payload).objectValue)
        #expect(claims["iss"] == "http://hearth.test/dev/google")
        #expect(claims["aud"] == .string(Self.clientID))
        #expect(claims["azp"] == .string(Self.clientID))
        #expect(claims["nonce"] == "no-1")
        #expect(claims["email"] == "dev@example.com")
        #expect(claims["name"] == "Dev")
        let subject = try #require(claims["sub"]?.stringValue)
        #expect(subject.count == 21 && subject.allSatisfy(\.isNumber))
        let digest = SHA256.hash(accessToken)
        #expect(claims["at_hash"] == .string(Base64URL.encode(digest.prefix(16))))
        let info = try dev.userInfo(accessToken: accessToken)
        #expect(info["sub"] == .string(subject))
        #expect(info["email"] == "dev@example.com")

        // The code is single-use.
        #expect(throws: OAuthError.self) {
            _ = try dev.token([
                "grant_type": "authorization_code", "code": code, "redirect_uri": request.redirectURI,
                "client_id": Self.clientID, "code_verifier": verifier,
            ])
        }
    }

    @Test("a wrong verifier, redirect URI or client is invalid_grant, and burns the code")
    func badExchanges() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        for bad in [["code_verifier": "x" + verifier.dropFirst()], ["redirect_uri": "http://127.0.0.1:1/oauth2callback"]] {
            let (code, request) = try code(dev)
            var form = [
                "grant_type": "authorization_code", "code": code, "redirect_uri": request.redirectURI,
                "client_id": Self.clientID, "code_verifier": verifier,
            ]
            form.merge(bad, uniquingKeysWith: { _, new in new })
            #expect(throws: OAuthError("invalid_grant", "")) { _ = try dev.token(form) }
            form.merge(["code_verifier": verifier, "redirect_uri": request.redirectURI], uniquingKeysWith: { _, new in new })
            #expect(throws: OAuthError.self) { _ = try dev.token(form) }
        }
        #expect(throws: OAuthError.self) {
            _ = try dev.token(["grant_type": "authorization_code", "code": "x", "client_id": "nobody"])
        }
    }

    @Test("codes expire after their lifetime")
    func codeExpiry() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let (code, request) = try code(dev)
        test.time.advance(by: 301)
        #expect(throws: OAuthError.self) {
            _ = try dev.token([
                "grant_type": "authorization_code", "code": code, "redirect_uri": request.redirectURI,
                "client_id": Self.clientID, "code_verifier": verifier,
            ])
        }
    }

    @Test("refresh gives a new ID token; revoke ends the whole grant")
    func refreshAndRevoke() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let (code, request) = try code(dev)
        let tokens = try exchange(dev, code, request)
        let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
        test.time.advance(by: 60)
        let refreshed = try dev.token(["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": Self.clientID])
        #expect(refreshed["refresh_token"] == nil)
        let newAccess = try #require(refreshed["access_token"]?.stringValue)
        #expect(try dev.accessTokenInfo(newAccess)?.audience == Self.clientID)
        try dev.revoke(token: newAccess)
        #expect(try dev.accessTokenInfo(newAccess) == nil)
        #expect(throws: OAuthError.self) {
            _ = try dev.token(["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": Self.clientID])
        }
    }

    @Test("tokeninfo describes live access and ID tokens as Google does, and refuses others")
    func tokenInfo() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let (code, request) = try code(dev)
        let tokens = try exchange(dev, code, request)
        let access = try dev.tokenInfo(accessToken: tokens["access_token"]?.stringValue, idToken: nil)
        #expect(access["aud"] == .string(Self.clientID))
        #expect(access["email"] == "dev@example.com")
        #expect(access["expires_in"] == "3599")
        let id = try dev.tokenInfo(accessToken: nil, idToken: tokens["id_token"]?.stringValue)
        #expect(id["email_verified"] == "true")
        #expect(id["alg"] == "RS256")
        #expect(throws: OAuthError("invalid_token", "")) { _ = try dev.tokenInfo(accessToken: "nope", idToken: nil) }
        test.time.advance(by: 3601)
        #expect(throws: OAuthError("invalid_token", "")) {
            _ = try dev.tokenInfo(accessToken: nil, idToken: tokens["id_token"]?.stringValue)
        }
    }

    @Test("dev IdP tokens sign in to Hearth through signInWithIdp, by ID token and by access token")
    func signInWithDevTokens() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let (code, request) = try code(dev, email: "flow@example.com")
        let tokens = try exchange(dev, code, request)
        let idToken = try #require(tokens["id_token"]?.stringValue)
        let accessToken = try #require(tokens["access_token"]?.stringValue)
        let signIn = try test.accounts.signInWithIdp(test.signInRequest(idToken: idToken, accessToken: accessToken), by: .user(client: nil))
        #expect(signIn.isNewUser == true)
        #expect(signIn.email == "flow@example.com")
        let again = try test.accounts.signInWithIdp(test.signInRequest(idToken: nil, accessToken: accessToken), by: .user(client: nil))
        #expect(again.localId == signIn.localId)
    }

    @Test("accounts persist with stable subjects; emails are unique; names come from the address")
    func accounts() throws {
        let test = try TestPlatform(dev: true)
        let dev = try provider(test)
        let first = try dev.account(forEmail: "Jane.Doe@Example.com")
        #expect(first.name == "Jane Doe" && first.givenName == "Jane" && first.familyName == "Doe")
        #expect(try dev.account(forEmail: "jane.doe@example.com").subject == first.subject)
        #expect(wireErrorCode { _ = try dev.createAccount(email: "jane.doe@example.com", name: nil, pictureURL: nil, emailVerified: true) } == .emailExists)
        #expect(wireErrorCode { _ = try dev.createAccount(email: "no-at-sign", name: nil, pictureURL: nil, emailVerified: true) } == .invalidEmail)
        #expect(try dev.accounts().count == 1)
    }
}
