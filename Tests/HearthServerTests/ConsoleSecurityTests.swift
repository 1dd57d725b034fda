import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

/// Who gets into the admin console, what its cookies are, and the cross-site attacks on its changes, as raw requests.
@Suite("Console access, cookies and CSRF")
struct ConsoleSecurityTests {
    static let outsider = "203.0.113.5"
    static let origin = ServerFixture.publicURL

    /// A fixture whose console needs sign-in (through the in-process dev Google).
    static func signedInFixture() throws -> ServerFixture {
        try ServerFixture(console: ConsoleOptions(requiresSignIn: true))
    }

    /// An account with (or without) `"hearthAdmin": true`, signed in to the console: its session cookie, or the
    /// answer of the callback when it was refused.
    static func signIn(_ fixture: ServerFixture, email: String, admin: Bool) throws -> (cookie: String?, callback: HTTPResponse) {
        let dev = try #require(fixture.devIdentityProvider)
        let person = try dev.createAccount(email: email, name: nil, pictureURL: nil, emailVerified: true)
        let start = fixture.call(.get, "/console/sign-in", from: outsider)
        #expect(start.status == 302)
        let flowCookie = try #require(Self.cookie("hearth_console_flow", in: start))
        #expect(start.headers.values(for: "Set-Cookie").first?.contains("HttpOnly; SameSite=Lax") == true)
        let location = try #require(URLComponents(string: start.headers["Location"] ?? ""))
        let parameters = Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        guard case .valid(let request) = dev.checkAuthorization(parameters) else { throw Refused() }
        // The first sign-in creates the Hearth account; it is made an administrator before the one that counts.
        if admin {
            let first = try dev.approve(request, subject: person.subject)
            _ = fixture.call(.get, "/console/callback?\(URLComponents(string: first)?.percentEncodedQuery ?? "")",
                headers: ["Cookie": "hearth_console_flow=\(flowCookie)"], from: outsider)
            let uid = try #require(try fixture.platform.store.read { try $0.account(email: email) }?.localID)
            var update = AdminUpdateAccountRequest(localId: uid)
            update.customAttributes = #"{"hearthAdmin":true}"#
            _ = try fixture.platform.admin.update(update, by: .system)
        }
        let redirect = try dev.approve(request, subject: person.subject)
        let query = URLComponents(string: redirect)?.percentEncodedQuery ?? ""
        let callback = fixture.call(
            .get, "/console/callback?\(query)", headers: ["Cookie": "hearth_console_flow=\(flowCookie)"], from: outsider)
        return (Self.cookie("hearth_console", in: callback), callback)
    }

    struct Refused: Error {}

    static func cookie(_ name: String, in response: HTTPResponse) -> String? {
        for header in response.headers.values(for: "Set-Cookie") where header.hasPrefix("\(name)=") {
            let value = header.dropFirst(name.count + 1).prefix { $0 != ";" }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The CSRF token on a console page (the hidden `csrf` field).
    static func token(in page: HTTPResponse) throws -> String {
        let text = page.text
        let marker = #"name="csrf" value=""#
        let start = try #require(text.range(of: marker)).upperBound
        return String(text[start...].prefix { $0 != "\"" })
    }

    static func victim(_ fixture: ServerFixture) throws -> String {
        try fixture.platform.admin.create(AdminCreateAccountRequest(fields: RequestFields(["email": .string("victim@example.com")])), by: .system).localId
    }

    static func isDisabled(_ fixture: ServerFixture, _ uid: String) throws -> Bool {
        try fixture.platform.store.read { try $0.account(localID: uid) }?.disabled == true
    }

    @Test("in development a loopback visitor is let in without sign-in, with a Strict HttpOnly cookie for its CSRF token; others must sign in")
    func openOnLoopback() throws {
        let fixture = try ServerFixture()
        let page = fixture.call(.get, "/console/users", from: "127.0.0.1")
        #expect(page.status == 200)
        let setCookie = page.headers.values(for: "Set-Cookie").first ?? ""
        #expect(setCookie.hasPrefix("hearth_console_open="))
        #expect(setCookie.contains("Path=/console") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        #expect(!setCookie.contains("Secure"))
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(page.headers["X-Frame-Options"] == "DENY")
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(fixture.call(.get, "/console/users", from: "::1").status == 200)
        for address in [Self.outsider, "::ffff:10.0.0.1", "128.0.0.1"] {
            let refused = fixture.call(.get, "/console/users", from: address)
            #expect(refused.status == 401, "\(address)")
            #expect(refused.text.contains(#"id="sign-in""#))
        }
        let required = try Self.signedInFixture()
        #expect(required.call(.get, "/console/users", from: "127.0.0.1").status == 401)
    }

    @Test("outside development nobody gets in while sign-in is not configured")
    func productionWithoutSignIn() throws {
        let fixture = try ServerFixture(development: false)
        for address in ["127.0.0.1", Self.outsider] {
            let page = fixture.call(.get, "/console/users", from: address)
            #expect(page.status == 503)
            #expect(page.text.contains("console.clientId"))
        }
    }

    @Test("an administrator signs in and gets a Strict HttpOnly session cookie scoped to /console; a non-administrator is refused")
    func signIn() throws {
        let fixture = try Self.signedInFixture()
        let (cookie, callback) = try Self.signIn(fixture, email: "admin@example.com", admin: true)
        #expect(callback.status == 200)
        let session = try #require(callback.headers.values(for: "Set-Cookie").first { $0.hasPrefix("hearth_console=") })
        #expect(session.contains("Path=/console; Max-Age=28800; HttpOnly; SameSite=Strict"))
        let page = fixture.call(.get, "/console/users", headers: ["Cookie": "hearth_console=\(try #require(cookie))"], from: Self.outsider)
        #expect(page.status == 200)
        #expect(page.text.contains("admin@example.com"))

        let (none, refusal) = try Self.signIn(fixture, email: "someone@example.com", admin: false)
        #expect(none == nil)
        #expect(refusal.status == 403)
        #expect(refusal.text.contains("Not an administrator"))
    }

    @Test("a callback whose state is not the one this browser started is refused")
    func foreignState() throws {
        let fixture = try Self.signedInFixture()
        let start = fixture.call(.get, "/console/sign-in", from: Self.outsider)
        let flow = try #require(Self.cookie("hearth_console_flow", in: start))
        for (query, cookie) in [("code=4/x&state=other", flow), ("code=4/x&state=\(flow.prefix { $0 != "." })", "a.b.c"), ("code=4/x", flow)] {
            let callback = fixture.call(.get, "/console/callback?\(query)", headers: ["Cookie": "hearth_console_flow=\(cookie)"], from: Self.outsider)
            #expect(callback.status == 400)
            #expect(Self.cookie("hearth_console", in: callback) == nil)
        }
    }

    @Test("a change without the token, with another session's token, from another origin or by GET changes nothing")
    func crossSiteRequests() throws {
        let fixture = try Self.signedInFixture()
        let victim = try Self.victim(fixture)
        let admin = try #require(try Self.signIn(fixture, email: "admin@example.com", admin: true).cookie)
        let other = try #require(try Self.signIn(fixture, email: "other@example.com", admin: true).cookie)
        let path = "/console/users/\(victim)/disable"
        let mine = try Self.token(in: fixture.call(.get, path, headers: ["Cookie": "hearth_console=\(admin)"], from: Self.outsider))
        let theirs = try Self.token(in: fixture.call(.get, path, headers: ["Cookie": "hearth_console=\(other)"], from: Self.outsider))
        #expect(mine != theirs)
        let form = ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "hearth_console=\(admin)"]
        let attacks: [(String, HTTPHeaders, String)] = [
            ("no token", HTTPHeaders(form.map { ($0.key, $0.value) }), ""),
            ("empty token", HTTPHeaders(form.map { ($0.key, $0.value) }), "csrf="),
            ("another session's token", HTTPHeaders(form.map { ($0.key, $0.value) }), "csrf=\(theirs)"),
            ("cross-origin", HTTPHeaders(form.map { ($0.key, $0.value) } + [("Origin", "https://evil.example")]), "csrf=\(mine)"),
            ("null origin", HTTPHeaders(form.map { ($0.key, $0.value) } + [("Origin", "null")]), "csrf=\(mine)"),
            ("cross-site fetch", HTTPHeaders(form.map { ($0.key, $0.value) } + [("Sec-Fetch-Site", "cross-site")]), "csrf=\(mine)"),
            ("no session", ["Content-Type": "application/x-www-form-urlencoded", "Origin": Self.origin], "csrf=\(mine)"),
        ]
        for (name, headers, body) in attacks {
            let response = fixture.call(.post, path, headers: headers, body: body, from: Self.outsider)
            #expect(response.status == 403, "\(name)")
            #expect(try !Self.isDisabled(fixture, victim), "\(name)")
        }
        let confirmation = fixture.call(.get, path, headers: ["Cookie": "hearth_console=\(admin)"], from: Self.outsider)
        #expect(confirmation.status == 200)
        #expect(confirmation.text.contains(#"id="confirm""#))
        #expect(try !Self.isDisabled(fixture, victim))

        var good = HTTPHeaders(form.map { ($0.key, $0.value) })
        good["Origin"] = Self.origin
        good["Sec-Fetch-Site"] = "same-origin"
        #expect(try fixture.platform.store.read { try $0.auditEvents(AuditQuery(localID: victim, kind: .accountDisabled)) }.isEmpty)
        let done = fixture.call(.post, path, headers: good, body: "csrf=\(mine)", from: Self.outsider)
        #expect(done.status == 303)
        #expect(try Self.isDisabled(fixture, victim))
        let adminID = try #require(try fixture.platform.store.read { try $0.account(email: "admin@example.com") }?.localID)
        let events = try fixture.platform.store.read { try $0.auditEvents(AuditQuery(localID: victim, kind: .accountDisabled)) }
        #expect(events.map(\.actor) == [.console(uid: adminID)])
    }

    @Test("the session ends with the account: revoked, disabled, deleted, no longer an administrator, or a forged cookie")
    func sessionEndsWithAccount() throws {
        let fixture = try Self.signedInFixture()
        func page(_ cookie: String) -> HTTPResponse {
            fixture.call(.get, "/console/keys", headers: ["Cookie": "hearth_console=\(cookie)"], from: Self.outsider)
        }
        func uid(_ email: String) throws -> String { try #require(try fixture.platform.store.read { try $0.account(email: email) }?.localID) }
        let changes: [(String, @Sendable (inout AdminUpdateAccountRequest) -> Void, Int)] = [
            ("revoked", { $0.validSince = Int64(Date().timeIntervalSince1970) + 1 }, 401),
            ("disabled", { $0.disableUser = true }, 401),
            ("claim removed", { $0.customAttributes = #"{"hearthAdmin":false}"# }, 403),
        ]
        for (index, (name, change, status)) in changes.enumerated() {
            let email = "admin\(index)@example.com"
            let cookie = try #require(try Self.signIn(fixture, email: email, admin: true).cookie)
            #expect(page(cookie).status == 200, "\(name)")
            var update = AdminUpdateAccountRequest(localId: try uid(email))
            change(&update)
            _ = try fixture.platform.admin.update(update, by: .system)
            let after = page(cookie)
            #expect(after.status == status, "\(name)")
            #expect(after.headers.values(for: "Set-Cookie").contains { $0.hasPrefix("hearth_console=;") && $0.contains("Max-Age=0") }, "\(name)")
        }
        let cookie = try #require(try Self.signIn(fixture, email: "gone@example.com", admin: true).cookie)
        _ = try fixture.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(try uid("gone@example.com"))])), by: .system)
        #expect(page(cookie).status == 401)
        let live = try #require(try Self.signIn(fixture, email: "live@example.com", admin: true).cookie)
        var forged = Array(live)
        let index = forged.count - 10
        forged[index] = forged[index] == "A" ? "B" : "A"
        #expect(page(String(forged)).status == 401)
        #expect(page("not-a-jwt").status == 401)
    }
}
