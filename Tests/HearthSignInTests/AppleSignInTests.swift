import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthProtocol
import Testing
@testable import HearthSignIn

/// Sign in with Apple's web flow: the authorization request, the `form_post` response at the loopback listener,
/// and the ID token checks.
@Suite("Sign in with Apple")
struct AppleSignInTests {
    static let clientID = "dev.hearth.portfolio"
    static let userJSON = #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"ada@privaterelay.appleid.com"}"#

    /// An Apple look-alike served by a `TestProvider` (keys at `<issuer>/auth/keys`).
    static func provider(_ clock: TestClock, issuer: String = "https://apple.test/dev/apple") -> TestProvider {
        TestProvider(issuer: issuer, clientID: clientID, now: clock.closure)
    }

    static func makeApple(provider: TestProvider, clock: TestClock, browser: any BrowserOpener, headless: (any BrowserOpener)? = nil)
        -> AppleSignIn
    {
        AppleSignIn(
            configuration: AppleSignInConfiguration(clientID: clientID, issuer: URL(string: provider.issuer)!),
            transport: provider, browser: browser, headlessBrowser: headless ?? browser, clock: clock.closure,
            signatureVerifier: PlatformIDTokenSignatureVerifier())
    }

    /// Apple-shaped claims for the authorization request `parameters` (its hashed nonce).
    static func appleClaims(_ provider: TestProvider, _ parameters: [String: String]) -> [String: JSONValue] {
        let seconds = Int64(provider.now().timeIntervalSince1970)
        return [
            "iss": .string(provider.issuer), "aud": .string(clientID), "sub": "001234.abcdef.0042",
            "nonce": .string(parameters["nonce"] ?? ""), "nonce_supported": true, "email": "ada@privaterelay.appleid.com",
            "email_verified": "true", "is_private_email": "true", "iat": .integer(seconds), "exp": .integer(seconds + 600),
            "auth_time": .integer(seconds), "real_user_status": 2,
        ]
    }

    /// A browser that posts Apple's response: `adjust` changes the claims, `fields` the posted form.
    static func posting(
        _ provider: TestProvider, adjust: @escaping @Sendable ([String: JSONValue]) -> [String: JSONValue] = { $0 },
        fields: @escaping @Sendable ([(String, String)]) -> [(String, String)] = { $0 }
    ) -> ScriptedBrowser {
        ScriptedBrowser(provider: provider) { browser, parameters in
            let idToken = provider.sign(adjust(appleClaims(provider, parameters)))
            try await browser.post(
                parameters["redirect_uri"]!,
                fields([("state", parameters["state"]!), ("code", "c.apple-code.0.xyz"), ("id_token", idToken), ("user", userJSON)]))
        }
    }

    @Test("the request asks for code id_token by form_post with name email, state and the hex SHA-256 of a raw nonce")
    func signIn() async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let browser = Self.posting(provider)
        let result = try await Self.makeApple(provider: provider, clock: clock, browser: browser)
            .signIn(hint: "ada@example.com", hideMyEmail: true)

        let opened = try #require(browser.opened.current.first)
        #expect(opened.absoluteString.hasPrefix("https://apple.test/dev/apple/auth/authorize?"))
        let parameters = queryParameters(opened)
        #expect(parameters["response_type"] == "code id_token")
        #expect(parameters["response_mode"] == "form_post")
        #expect(parameters["scope"] == "name email")
        #expect(parameters["client_id"] == Self.clientID)
        #expect(parameters["login_hint"] == "ada@example.com")
        #expect(parameters["hide_my_email"] == "true")
        #expect(parameters["state"]?.count == 43)
        let redirect = try #require(parameters["redirect_uri"].flatMap(URL.init(string:)))
        #expect(redirect.host == "127.0.0.1")
        #expect(redirect.path == "/oauth2callback")
        // The nonce is 64 lowercase hex digits: SHA-256 of the raw nonce the result carries.
        #expect(parameters["nonce"] == Digest.hexSHA256(result.rawNonce))
        #expect(parameters["nonce"]?.allSatisfy { "0123456789abcdef".contains($0) } == true)
        #expect(parameters["nonce"]?.count == 64)

        #expect(result.authorizationCode == "c.apple-code.0.xyz")
        #expect(result.userID == "001234.abcdef.0042")
        #expect(result.email == "ada@privaterelay.appleid.com")
        #expect(result.fullName?.givenName == "Ada")
        #expect(result.fullName?.familyName == "Lovelace")
        #expect(!result.description.contains(result.idToken))
        let visit = try #require(browser.visits.current.first)
        #expect(visit.status == 200)
        #expect(visit.body.contains("you can close this window"))
        #expect(provider.requests(to: "/auth/keys").count == 1)
    }

    @Test("Digest.hexSHA256 is lowercase hex of SHA-256")
    func hexDigest() {
        #expect(Digest.hexSHA256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a later sign-in without user has no name; an empty name object is no name")
    func noName() async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let browser = Self.posting(provider, fields: { fields in fields.filter { $0.0 != "user" } })
        let result = try await Self.makeApple(provider: provider, clock: clock, browser: browser).signIn()
        #expect(result.fullName == nil)
        #expect(AppleFormPost.fullName(userJSON: #"{"name":{"firstName":"","lastName":""}}"#) == nil)
        #expect(AppleFormPost.fullName(userJSON: "not json") == nil)
        #expect(AppleFormPost.fullName(userJSON: #"{"name":{"lastName":"Byron"}}"#)?.familyName == "Byron")
    }

    @Test("wrong or missing state → 400, GET → 405, another content type → 415; the flow waits for the right post")
    func strayPosts() async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let statuses = Locked<[Int]>([])
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            let redirect = parameters["redirect_uri"]!
            let idToken = provider.sign(Self.appleClaims(provider, parameters))
            let good = [("state", parameters["state"]!), ("code", "right-code"), ("id_token", idToken)]
            for visit in [
                try await browser.post(redirect, [("state", "forged"), ("code", "evil"), ("id_token", idToken)]),
                try await browser.post(redirect, [("code", "evil"), ("id_token", idToken)]),
                try await browser.post(redirect, [("state", String(parameters["state"]!.dropLast())), ("code", "evil")]),
                try await browser.visit(redirect, ["state": parameters["state"]!, "code": "evil"]),
                try await browser.post(redirect, good, contentType: "application/json"),
            ] {
                statuses.withLock { $0.append(visit.status) }
            }
            try await browser.post(redirect, good)
        }
        let result = try await Self.makeApple(provider: provider, clock: clock, browser: browser).signIn()
        #expect(statuses.current == [400, 400, 400, 405, 415])
        #expect(browser.visits.current[0].body.contains("state mismatch"))
        #expect(result.authorizationCode == "right-code")
    }

    @Test("an oversized post is refused with 413 unread, a chunked one with 411, and the flow keeps waiting")
    func oversizedPost() async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let replies = Locked<[String]>([])
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            let port = UInt16(URL(string: parameters["redirect_uri"]!)!.port!)
            for head in [
                "POST /oauth2callback HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 20000\r\n\r\n",
                "POST /oauth2callback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            ] {
                replies.withLock { $0.append(rawExchange(port: port, head)) }
            }
            let idToken = provider.sign(Self.appleClaims(provider, parameters))
            try await browser.post(
                parameters["redirect_uri"]!, [("state", parameters["state"]!), ("code", "c"), ("id_token", idToken)])
        }
        let result = try await Self.makeApple(provider: provider, clock: clock, browser: browser).signIn()
        #expect(replies.current.map { $0.prefix(12) } == ["HTTP/1.1 413", "HTTP/1.1 411"])
        #expect(result.authorizationCode == "c")
    }

    @Test(
        "a response with the right state but no code, no id_token, or Apple's error ends the flow with that error",
        arguments: [
            ([("id_token", "x.y.z")], SignInError.Code.unknown, "neither a code nor an error"),
            ([("code", "c")], .unknown, "no id_token"),
            ([("error", "user_cancelled_authorize")], .canceled, "canceled"),
            ([("error", "invalid_request")], .unknown, "invalid_request"),
        ] as [([(String, String)], SignInError.Code, String)])
    func incompleteResponses(fields: [(String, String)], code: SignInError.Code, message: String) async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            try await browser.post(parameters["redirect_uri"]!, [("state", parameters["state"]!)] + fields)
        }
        let error = await #expect(throws: SignInError.self) {
            try await Self.makeApple(provider: provider, clock: clock, browser: browser).signIn()
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(message) == true)
        #expect(browser.visits.current.first?.body.contains("Sign-in") == true)
        #expect(provider.requests(to: "/auth/keys").isEmpty)
    }

    @Test(
        "the ID token is refused for a raw (unhashed) nonce, another audience or issuer, expiry, or a foreign key",
        arguments: ["nonce", "aud", "iss", "exp", "key"])
    func refusedTokens(defect: String) async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            var claims = Self.appleClaims(provider, parameters)
            switch defect {
            case "nonce": claims["nonce"] = "the-raw-nonce-not-its-hash"
            case "aud": claims["aud"] = "com.example.other"
            case "iss": claims["iss"] = "https://appleid.apple.com"
            case "exp": claims["exp"] = .integer(Int64(provider.now().timeIntervalSince1970) - 1)
            default: break
            }
            let token = defect == "key" ? provider.sign(claims, key: TestKeys.other) : provider.sign(claims)
            try await browser.post(
                parameters["redirect_uri"]!, [("state", parameters["state"]!), ("code", "c"), ("id_token", token)])
        }
        let error = await #expect(throws: SignInError.self) {
            try await Self.makeApple(provider: provider, clock: clock, browser: browser).signIn()
        }
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("The ID token was rejected") == true)
    }

    @Test("headless needs a hint")
    func headlessNeedsHint() async throws {
        let clock = TestClock()
        let provider = Self.provider(clock)
        let error = await #expect(throws: SignInError.self) {
            try await Self.makeApple(provider: provider, clock: clock, browser: ParkedBrowser()).signIn(headless: true)
        }
        #expect(error?.message.contains("hint") == true)
    }
}

@Suite("Headless opener and form_post pages")
struct HeadlessFormPostTests {
    /// A dev-Apple-like authorize page: a self-posting form with the response, values HTML-escaped.
    static func formPage(_ provider: TestProvider, target: String, visibleField: Bool = false) -> String {
        let parameters = queryParameters(URL(string: "http://x" + target)!)
        let idToken = provider.sign(AppleSignInTests.appleClaims(provider, parameters))
        func escape(_ text: String) -> String { HTMLText.escape(text) }
        let extra = visibleField ? #"<input type="email" name="email">"# : #"<noscript><input type="submit" value="Continue"></noscript>"#
        return """
            <!doctype html><html><body onload="document.forms[0].submit()">
            <FORM Method="POST" action="\(escape(parameters["redirect_uri"] ?? ""))">
            <input type="hidden" name="state" value="\(escape(parameters["state"] ?? ""))">
            <input type='hidden' name='code' value='c.headless'>
            <input type="hidden" name="id_token" value="\(idToken)">
            <input type="hidden" name="user" value="\(escape(AppleSignInTests.userJSON))">
            \(extra)
            </form></body></html>
            """
    }

    @Test("the headless opener submits the self-posting form to the loopback listener and the flow completes")
    func headlessFlow() async throws {
        let clock = TestClock(Date())
        let pages = Locked<TestProvider?>(nil)
        let server = try PageServer { target in
            pages.current.map { HeadlessFormPostTests.formPage($0, target: target) } ?? ""
        }
        defer { server.stop() }
        let provider = AppleSignInTests.provider(clock, issuer: server.base)
        pages.withLock { $0 = provider }
        let apple = AppleSignInTests.makeApple(
            provider: provider, clock: clock, browser: ParkedBrowser(), headless: HeadlessBrowserOpener())
        let result = try await apple.signIn(hint: "ada@example.com", headless: true, timeout: .seconds(30))
        #expect(result.authorizationCode == "c.headless")
        #expect(result.fullName?.givenName == "Ada")
        #expect(result.email == "ada@privaterelay.appleid.com")
    }

    @Test("a page whose form asks the user for input is not submitted: the headless flow fails clearly")
    func visibleFieldNotSubmitted() async throws {
        let clock = TestClock(Date())
        let pages = Locked<TestProvider?>(nil)
        let server = try PageServer { target in
            pages.current.map { HeadlessFormPostTests.formPage($0, target: target, visibleField: true) } ?? ""
        }
        defer { server.stop() }
        let provider = AppleSignInTests.provider(clock, issuer: server.base)
        pages.withLock { $0 = provider }
        let apple = AppleSignInTests.makeApple(
            provider: provider, clock: clock, browser: ParkedBrowser(), headless: HeadlessBrowserOpener())
        let error = await #expect(throws: SignInError.self) {
            try await apple.signIn(hint: "ada@example.com", headless: true, timeout: .seconds(30))
        }
        #expect(error?.message.contains("did not come back to the redirect URI") == true)
    }

    @Test("form parsing: case, quotes, character references, relative actions; GET forms and visible fields are not self-posting")
    func formParsing() throws {
        let page = URL(string: "http://127.0.0.1:9/dev/apple/auth/authorize?x=1")!
        let form = try #require(
            SelfPostingForm(
                html: #"<form method=get action="/x"><input type=hidden name=a value=b></form>"#
                    + #"<form class="f" METHOD='post' action='../cb?q=1&amp;r=2'><INPUT TYPE=hidden NAME=s VALUE='a&#39;b&quot;c&#x26;d&lt;'>"#
                    + #"<input type="hidden" name="empty"></form>"#,
                pageURL: page))
        #expect(form.action.absoluteString == "http://127.0.0.1:9/dev/apple/cb?q=1&r=2")
        #expect(form.fields.map(\.name) == ["s", "empty"])
        #expect(form.fields.map(\.value) == [#"a'b"c&d<"#, ""])
        #expect(SelfPostingForm(html: #"<form method="post" action="/cb"><input name="email"></form>"#, pageURL: page) == nil)
        #expect(SelfPostingForm(html: #"<form method="post" action="/cb"></form>"#, pageURL: page) == nil)
        #expect(SelfPostingForm(html: "<p>Signed in</p>", pageURL: page) == nil)
        #expect(SelfPostingForm.decodeReferences("&unknown; & &#xZZ; &amp") == "&unknown; & &#xZZ; &amp")
    }

    @Test("the listener parses a POST with its body, waits for the rest, and refuses bad lengths")
    func listenerParsing() {
        let head = "POST /oauth2callback HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\n"
        #expect(LoopbackRedirectListener.parse(Array((head + "a=b").utf8)) == .needMore)
        guard case .complete(let request) = LoopbackRedirectListener.parse(Array((head + "a=b&c=d").utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(request.method == "POST")
        #expect(request.path == "/oauth2callback")
        #expect(request.contentType == "application/x-www-form-urlencoded")
        #expect(String(decoding: request.body, as: UTF8.self) == "a=b&c=d")
        for (text, status) in [
            ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400), ("POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 16385\r\n\r\n", 413), ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
        ] {
            guard case .refused(let reply) = LoopbackRedirectListener.parse(Array(text.utf8)) else {
                Issue.record("\(text) was not refused")
                continue
            }
            #expect(reply.status == status)
        }
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abd", "abc"))
        #expect(!ConstantTime.equals("ab", "abc"))
        #expect(!ConstantTime.equals(nil, "abc"))
    }
}

/// Sends `text` to 127.0.0.1:`port` over a raw socket and returns everything the server answers before closing.
func rawExchange(port: UInt16, _ text: String) -> String {
    guard let descriptor = try? connectIdle(port: port) else { return "" }
    defer { close(descriptor) }
    _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 2048)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += chunk[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
}
