import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

/// The console's pages and changes over the admin operations, as a loopback visitor in development (open, acting as
/// the owner).
@Suite("Console pages and changes")
struct ConsolePageRouteTests {
    static let local = "127.0.0.1"

    /// The open-development cookie and CSRF token a loopback browser gets from its first page.
    struct Browser {
        let fixture: ServerFixture
        let cookie: String
        let token: String

        init(_ fixture: ServerFixture) throws {
            self.fixture = fixture
            let page = fixture.call(.get, "/console/keys/rotate", from: ConsolePageRouteTests.local)
            cookie = try #require(ConsoleSecurityTests.cookie("hearth_console_open", in: page))
            token = try ConsoleSecurityTests.token(in: page)
        }

        func get(_ target: String) -> HTTPResponse {
            fixture.call(.get, target, headers: ["Cookie": "hearth_console_open=\(cookie)"], from: ConsolePageRouteTests.local)
        }

        func post(_ path: String, _ fields: [(String, String)] = []) -> HTTPResponse {
            fixture.call(
                .post, path,
                headers: ["Cookie": "hearth_console_open=\(cookie)", "Content-Type": "application/x-www-form-urlencoded",
                          "Origin": ServerFixture.publicURL, "Sec-Fetch-Site": "same-origin"],
                body: FormEncoding.encode([("csrf", token)] + fields), from: ConsolePageRouteTests.local)
        }
    }

    static func insert(_ fixture: ServerFixture, _ accounts: [Account]) throws {
        try fixture.platform.store.write { writer in for account in accounts { try writer.insertAccount(account) } }
    }

    static func account(_ localID: String, email: String? = nil, phone: String? = nil, providers: [LinkedIdentity] = [],
                        factors: [MFAEnrollment] = []) -> Account {
        Account(localID: localID, email: email, phoneNumber: phone, createdAtMillis: 1, validSinceMillis: 1, providers: providers,
                mfaEnrollments: factors)
    }

    static func stored(_ fixture: ServerFixture, _ localID: String) throws -> Account? {
        try fixture.platform.store.read { try $0.account(localID: localID) }
    }

    @Test("search finds one account by exact email (any case), phone number, uid or a provider's id, and nothing by a prefix")
    func search() throws {
        let fixture = try ServerFixture()
        try Self.insert(fixture, [
            Self.account("target", email: "target@example.com", phone: "+15550100",
                         providers: [LinkedIdentity(providerID: "google.com", rawID: "10987")]),
            Self.account("other", email: "other@example.com"),
        ])
        let browser = try Browser(fixture)
        for query in ["target@example.com", "TARGET@example.com", "%2B15550100", "target", "10987"] {
            let page = browser.get("/console/users?q=\(query)")
            #expect(page.status == 200)
            #expect(page.text.contains("/console/users/target\"") && !page.text.contains("/console/users/other\""), "\(query)")
        }
        let none = browser.get("/console/users?q=target%40example")
        #expect(none.text.contains("No account matches") && !none.text.contains("/console/users/target\""))
    }

    @Test("the listing pages by uid: 50 a page, the next page after the last uid, no next link on the last page")
    func paging() throws {
        let fixture = try ServerFixture()
        try Self.insert(fixture, (0..<120).map { Self.account(String(format: "u-%03d", $0)) })
        let browser = try Browser(fixture)
        let first = browser.get("/console/users").text
        #expect(first.contains("/console/users/u-000\"") && first.contains("/console/users/u-049\"") && !first.contains("u-050"))
        #expect(first.contains("/console/users?after=u-049"))
        let second = browser.get("/console/users?after=u-049").text
        #expect(second.contains("/console/users/u-050\"") && !second.contains("/console/users/u-049\""))
        let last = browser.get("/console/users?after=u-099").text
        #expect(last.contains("/console/users/u-119\"") && !last.contains("id=\"next-page\""))
    }

    @Test("claims the admin API refuses are refused on the page with the reason, and nothing changes")
    func refusedClaims() throws {
        let fixture = try ServerFixture()
        try Self.insert(fixture, [Self.account("target")])
        let browser = try Browser(fixture)
        let big = #"{"x":""# + String(repeating: "a", count: 1000) + #""}"#
        for (claims, code) in [(#"{"aud":"x"}"#, "FORBIDDEN_CLAIM"), (big, "CLAIMS_TOO_LARGE"), ("[1]", "INVALID_CLAIMS"), ("{", "INVALID_CLAIMS")] {
            let page = browser.post("/console/users/target/claims", [("claims", claims)])
            #expect(page.status == 400, "\(code)")
            #expect(page.text.contains(#"role="alert">Not saved: \#(code)"#), "\(code)")
            #expect(try Self.stored(fixture, "target")?.customAttributes == nil)
        }
        func claimEvents() throws -> [AuditEvent] {
            try fixture.platform.store.read { try $0.auditEvents(AuditQuery(localID: "target", kind: .claimsChanged)) }
        }
        #expect(try claimEvents().isEmpty, "a refused change leaves no audit entry")
        let saved = browser.post("/console/users/target/claims", [("claims", #"{"tier": "gold"}"#)])
        #expect(try claimEvents().map(\.actor) == [.owner], "open development acts as the owner")
        #expect(saved.status == 303 && saved.headers["Location"] == "/console/users/target?done=claims")
        #expect(try Self.stored(fixture, "target")?.customAttributes == #"{"tier": "gold"}"#)
        #expect(browser.post("/console/users/target/claims", [("claims", "")]).status == 303)
        #expect(try Self.stored(fixture, "target")?.customAttributes == nil)
    }

    @Test("delete and remove a factor: confirmation first, then the change; an unknown factor or account changes nothing")
    func deleteAndRemoveFactor() throws {
        let fixture = try ServerFixture()
        let factors = [
            MFAEnrollment(enrollmentID: "f-totp", kind: .totp, displayName: "Phone app", enrolledAtMillis: 1, totpSecret: [1, 2, 3]),
            MFAEnrollment(enrollmentID: "f-sms", kind: .phone, enrolledAtMillis: 1, phoneNumber: "+15550111"),
        ]
        try Self.insert(fixture, [Self.account("target", factors: factors)])
        let browser = try Browser(fixture)
        #expect(browser.get("/console/users/target/factors/f-totp/remove").text.contains("Phone app"))
        #expect(browser.post("/console/users/target/factors/nope/remove").status == 404)
        #expect(try Self.stored(fixture, "target")?.mfaEnrollments.count == 2)
        #expect(browser.post("/console/users/target/factors/f-totp/remove").status == 303)
        let left = try Self.stored(fixture, "target")?.mfaEnrollments
        #expect(left?.map(\.enrollmentID) == ["f-sms"] && left?.first?.phoneNumber == "+15550111")

        #expect(browser.get("/console/users/target/delete").text.contains("Delete for good"))
        #expect(try Self.stored(fixture, "target") != nil)
        #expect(browser.post("/console/users/target/delete").status == 200)
        #expect(try Self.stored(fixture, "target") == nil)
        #expect(browser.get("/console/users/target").status == 404)
        #expect(browser.post("/console/users/target/disable").status == 404)
    }

    @Test("the audit log filters by user, kind and time, newest first, and pages with before; bad filters are refused")
    func auditLog() throws {
        let fixture = try ServerFixture()
        try fixture.platform.store.write { writer in
            for index in 0..<60 {
                try writer.insertAuditEvent(AuditEvent(
                    id: AuditEvent.newID(atMillis: Int64(1_000_000 + index * 1000)), atMillis: Int64(1_000_000 + index * 1000),
                    kind: index % 2 == 0 ? .accountDisabled : .signIn, localID: index < 55 ? "one" : "two", actor: .owner,
                    detail: "n=\(index)"))
            }
        }
        let browser = try Browser(fixture)
        let first = browser.get("/console/audit?uid=one").text
        #expect(first.contains("n=54<") && first.contains("n=5<") && !first.contains("n=4<") && !first.contains("n=55<"))
        #expect(first.range(of: "n=54<")!.lowerBound < first.range(of: "n=53<")!.lowerBound)
        let older = try #require(first.range(of: #"href="/console/audit?uid=one&amp;before="#)).upperBound
        let before = String(first[older...].prefix { $0 != "\"" })
        let second = browser.get("/console/audit?uid=one&before=\(before)").text
        #expect(second.contains("n=4<") && second.contains("n=0<") && !second.contains("n=5<") && !second.contains(#"id="older""#))
        let disabled = browser.get("/console/audit?kind=account_disabled&since=1970-01-01T00:17").text
        #expect(disabled.contains("n=58<") && disabled.contains("n=20<") && !disabled.contains("n=18<") && !disabled.contains("n=59<"))
        #expect(browser.get("/console/audit?kind=nonsense").status == 400)
        #expect(browser.get("/console/audit?since=yesterday").status == 400)
    }

    @Test("in development the dev IdP's accounts are listed; outside development there is no such page")
    func developmentPage() throws {
        let fixture = try ServerFixture()
        _ = try fixture.devIdentityProvider?.createAccount(email: "dev.person@example.com", name: "Dev Person", pictureURL: nil, emailVerified: true)
        let page = try Browser(fixture).get("/console/dev")
        #expect(page.status == 200 && page.text.contains("dev.person@example.com"))
        #expect(try ServerFixture(development: false).call(.get, "/console/dev", from: Self.local).status == 404)
    }

    @Test("a control character in the path or query, or NUL in a form, is refused before any lookup or change")
    func controlCharacters() throws {
        let fixture = try ServerFixture()
        try Self.insert(fixture, [Self.account("target")])
        let browser = try Browser(fixture)
        for target in ["/console/users?q=a%00b", "/console/users?after=%0A", "/console/audit?uid=%01", "/console/users/tar\u{0}get"] {
            #expect(browser.get(target).status == 400, "\(target)")
        }
        #expect(browser.post("/console/users/target/claims", [("claims", "{\"a\":\"\u{0}\"}")]).status == 400)
        #expect(try Self.stored(fixture, "target")?.customAttributes == nil)
        let multiline = browser.post("/console/users/target/claims", [("claims", "{\n  \"a\": 1\n}")])
        #expect(multiline.status == 303)
    }

    /// The config API's change events, oldest first.
    static func configEvents(_ fixture: ServerFixture) throws -> [AuditEvent] {
        try fixture.platform.store.read { try $0.auditEvents(AuditQuery(kind: .projectConfigUpdated)) }.reversed()
    }

    @Test("the configuration page saves the switches and MFA settings through the config API, audited, enforced at once")
    func configuration() throws {
        let fixture = try ServerFixture()
        let browser = try Browser(fixture)
        let page = browser.get("/console/config")
        #expect(page.status == 200 && page.text.contains(#"id="anonymous" name="anonymous" value="true" checked>"#))
        let saved = browser.post("/console/config", [
            ("email", "true"), ("emailLink", "true"), ("mfaState", "DISABLED"), ("totp", "true"), ("adjacentIntervals", "2"),
        ])
        #expect(saved.status == 303 && saved.headers["Location"] == "/console/config?done=config")
        let config = try fixture.platform.projectConfig.get()
        #expect(ProjectConfigRules.value(in: config, at: "signIn.anonymous.enabled") == false)
        #expect(ProjectConfigRules.value(in: config, at: "signIn.email.passwordRequired") == false)
        let settings = try fixture.platform.configSettings()
        #expect(!settings.switches.anonymous && settings.switches.password && settings.switches.emailLink)
        #expect(settings.mfa.factors == [.totp] && settings.mfa.totpAdjacentIntervals == 2)
        let signUp = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", #"{"returnSecureToken": true}"#)
        #expect(signUp.status == 400 && signUp.text.contains("ADMIN_ONLY_OPERATION"), "\(signUp.text)")
        let events = try Self.configEvents(fixture)
        #expect(events.map(\.actor) == [.owner], "open development acts as the owner")
        #expect(events.first?.detail == "fields=mfa.enabledProviders,mfa.providerConfigs,mfa.state,signIn.anonymous.enabled,signIn.email.enabled,signIn.email.passwordRequired")
        let after = browser.get("/console/config?done=config").text
        #expect(after.contains(#"role="status">Configuration saved"#))
        #expect(after.contains(#"id="anonymous" name="anonymous" value="true">"#) && after.contains(#"id="totp" name="totp" value="true" checked>"#))
        #expect(after.contains(#"value="2">"#))
    }

    @Test("values the configuration cannot take re-show the page with the reason (never a 500); a post without the CSRF token is refused; nothing changes")
    func configurationRefusals() throws {
        let fixture = try ServerFixture()
        let browser = try Browser(fixture)
        let before = try fixture.platform.projectConfig.get()
        let refused: [[(String, String)]] = [
            [("anonymous", "maybe"), ("mfaState", "DISABLED")], [("mfaState", "SOMETIMES")], [("email", "true")],
            [("mfaState", "DISABLED"), ("adjacentIntervals", "11")], [("mfaState", "DISABLED"), ("adjacentIntervals", "-1")],
            [("mfaState", "DISABLED"), ("adjacentIntervals", "x")], [("mfaState", "DISABLED"), ("adjacentIntervals", "99999999999999999999")],
        ]
        for fields in refused {
            let page = browser.post("/console/config", fields)
            #expect(page.status == 400, "\(fields)")
            #expect(page.text.contains(#"role="alert">Not saved: INVALID_CONFIG"#), "\(fields)")
            // A form that reads is shown as posted (anonymous left out: unchecked); one that does not, as stored.
            let readable = fields.contains { $0.0 == "mfaState" } && !fields.contains { $0.1 == "maybe" || $0.1 == "x" || $0.1.count > 10 }
            let anonymous = #"id="anonymous" name="anonymous" value="true"\#(readable ? "" : " checked")>"#
            #expect(page.text.contains(anonymous), "\(fields)")
            if readable, let window = fields.first(where: { $0.0 == "adjacentIntervals" }) {
                #expect(page.text.contains(#"value="\#(window.1)">"#), "the posted window is kept: \(fields)")
            }
        }
        let headers: HTTPHeaders = [
            "Cookie": "hearth_console_open=\(browser.cookie)", "Content-Type": "application/x-www-form-urlencoded",
            "Origin": ServerFixture.publicURL, "Sec-Fetch-Site": "same-origin",
        ]
        let forged: [[(String, String)]] = [[], [("csrf", "forged")]]
        for csrf in forged {
            let body = FormEncoding.encode(csrf + [("mfaState", "DISABLED")])
            #expect(fixture.call(.post, "/console/config", headers: headers, body: body, from: Self.local).status == 403)
        }
        #expect(try fixture.platform.projectConfig.get() == before)
        #expect(try Self.configEvents(fixture).isEmpty)
    }

    @Test("a setting the config file locks is shown locked and left out of the save; posted anyway it is OPERATION_NOT_ALLOWED naming the key")
    func configurationLocked() throws {
        let file = FileDeclaredConfig(
            settings: ["signIn": ["anonymous": ["enabled": false]]], keys: ["signIn.anonymous.enabled": "signIn.anonymous.enabled"])
        let fixture = try ServerFixture(fileConfig: file)
        let browser = try Browser(fixture)
        let page = browser.get("/console/config").text
        #expect(page.contains(#"id="anonymous" name="anonymous" value="true" disabled aria-describedby="anonymous-lock">"#))
        #expect(page.contains("Locked: set by the config file (<code>signIn.anonymous.enabled</code>)"))
        #expect(page.contains(#"<textarea id="authorizedDomains" name="authorizedDomains" rows="4">"#), "the file declares no domains")

        let tampered = browser.post("/console/config", [("anonymous", "true"), ("email", "true"), ("mfaState", "DISABLED")])
        #expect(tampered.status == 400)
        #expect(tampered.text.contains(
            #"role="alert">Not saved: OPERATION_NOT_ALLOWED : signIn.anonymous.enabled is declared by the config file (signIn.anonymous.enabled)"#),
            "\(tampered.text)")
        #expect(try Self.configEvents(fixture).isEmpty)

        #expect(browser.post("/console/config", [("email", "true"), ("mfaState", "DISABLED")]).status == 303)
        let detail = try Self.configEvents(fixture).first?.detail ?? ""
        #expect(detail.hasPrefix("fields=mfa.") && !detail.contains("anonymous"), "\(detail)")
        #expect(ProjectConfigRules.value(in: try fixture.platform.projectConfig.get(), at: "signIn.anonymous.enabled") == false)
        #expect(ProjectConfigRules.value(in: try fixture.platform.projectConfig.get(), at: "signIn.email.passwordRequired") == true)
    }

    @Test("the password policy, email privacy and domains saved from the page are enforced at once; a refusal keeps what was typed")
    func configurationAccountRules() throws {
        let fixture = try ServerFixture()
        let browser = try Browser(fixture)
        let form: [(String, String)] = [
            ("anonymous", "true"), ("email", "true"), ("emailLink", "true"), ("mfaState", "DISABLED"),
            ("passwordPolicy", "ENFORCE"), ("minLength", "10"), ("maxLength", "4096"), ("numeric", "true"),
            ("emailPrivacy", "off"), ("authorizedDomains", "app.example.com\nlocalhost"), ("smsPolicy", "allowByDefault"),
            ("smsRegions", "GB"), ("actionUrl", "https://app.example.com/auth/action"),
        ]
        let refused = browser.post("/console/config", form.map { $0.0 == "minLength" ? ($0.0, "40") : $0 })
        #expect(refused.status == 400 && refused.text.contains("Not saved: INVALID_CONFIG"), "\(refused.text)")
        #expect(refused.text.contains(#"name="minLength" min="6" max="30" step="1" value="40">"#), "what was typed is shown")
        #expect(refused.text.contains("app.example.com\nlocalhost</textarea>"))
        #expect(try fixture.platform.configSettings().passwordPolicy == .firebaseDefault, "nothing changed")

        #expect(browser.post("/console/config", form).status == 303)
        let policy = fixture.call(.get, "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k").json
        #expect((policy["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 10)
        let weak = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", #"{"email":"ada@example.com","password":"abcdefghij"}"#)
        #expect(weak.status == 400 && weak.text.contains("PASSWORD_DOES_NOT_MEET_REQUIREMENTS"), "\(weak.text)")
        let unknown = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k", #"{"email":"nobody@example.com","password":"abcdefghi1"}"#)
        #expect(unknown.text.contains("EMAIL_NOT_FOUND"), "\(unknown.text)")
        let project = fixture.call(.get, "/identitytoolkit.googleapis.com/v1/projects?key=k").json
        #expect(project["authorizedDomains"] as? [String] == ["app.example.com", "localhost"])
        #expect(try fixture.platform.configSettings().smsRegions == .allowByDefault(disallowed: ["GB"]))
        #expect(try fixture.platform.emailActions.currentSettings().actionURL == "https://app.example.com/auth/action")
        let page = browser.get("/console/config").text
        #expect(page.contains(#"id="actionUrl" name="actionUrl" value="https://app.example.com/auth/action">"#))
        #expect(browser.post("/console/config", form.map { $0.0 == "actionUrl" ? ($0.0, "") : $0 }).status == 303)
        #expect(try fixture.platform.emailActions.currentSettings().actionURL == nil, "emptied: Hearth's page again")
    }

    @Test("a tenant's configuration page saves through the tenant API: audited, enforced at once; the project is untouched")
    func tenantConfiguration() throws {
        let fixture = try ServerFixture()
        let browser = try Browser(fixture)
        let made = try fixture.platform.tenants.create(
            TenantFields(fields: RequestFields(["displayName": "Console-Tenant", "enableAnonymousUser": true])), by: .system)
        let id = String(made.name.split(separator: "/").last ?? "")
        let path = "/console/tenants/\(id)/config"
        let page = browser.get(path)
        #expect(page.status == 200 && page.text.contains(#"id="anonymous" name="anonymous" value="true" checked>"#))
        #expect(!page.text.contains("authorizedDomains"))
        #expect(browser.get("/console/tenants").text.contains(#"href="\#(path)""#), "the tenants page links to it")
        let anonymous = #"{"returnSecureToken":true,"tenantId":"\#(id)"}"#
        #expect(fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", anonymous).status == 200)

        let saved = browser.post(path, [
            ("email", "true"), ("mfaState", "DISABLED"), ("totp", "true"), ("adjacentIntervals", "3"),
            ("passwordPolicy", "ENFORCE"), ("minLength", "12"), ("maxLength", "64"), ("emailPrivacy", "off"),
            ("authorizedDomains", "evil.example"), ("smsPolicy", "allowlistOnly"), ("smsRegions", "CA"),
        ])
        #expect(saved.status == 303 && saved.headers["Location"] == "\(path)?done=config", "\(saved.text)")
        let guest = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", anonymous)
        #expect(guest.status == 400 && guest.text.contains("ADMIN_ONLY_OPERATION"), "enforced at once: \(guest.text)")
        let stored = try fixture.platform.tenants.tenant(id: id)
        #expect(stored.allowPasswordSignup && !stored.enableAnonymousUser && !stored.enableEmailLinkSignin)
        let settings = try fixture.platform.scoped(to: stored.scope).configSettings()
        #expect(settings.mfa == MFAPolicy(enabled: true, factors: [.totp], totpAdjacentIntervals: 3))
        #expect(settings.passwordPolicy.minLength == 12 && settings.passwordPolicy.maxLength == 64 && !settings.emailEnumerationProtection)
        #expect(settings.smsRegions == .allowlistOnly(allowed: ["CA"]))
        let events = try fixture.platform.store.read { try $0.auditEvents(AuditQuery(kind: .tenantUpdated)) }
        #expect(events.count == 1 && events.first?.actor == .owner, "\(events)")
        #expect(try fixture.platform.configSettings().passwordPolicy == .firebaseDefault, "the project keeps its own")
        #expect(try fixture.platform.configSettings().authorizedDomains == nil, "a tenant's form names no domains")

        let refused = browser.post(path, [("mfaState", "DISABLED"), ("passwordPolicy", "ENFORCE"), ("minLength", "5")])
        #expect(refused.status == 400 && refused.text.contains("Not saved:"), "\(refused.text)")
        #expect(refused.text.contains(#"value="5">"#))
        #expect(try fixture.platform.tenants.tenant(id: id).allowPasswordSignup, "nothing changed")
        #expect(browser.get("/console/tenants/no-such-tenant/config").status == 404)
    }

    @Test("the stylesheet is served as CSS, and /console leads to the overview")
    func stylesheetAndIndex() throws {
        let fixture = try ServerFixture()
        let css = fixture.call(.get, "/console/console.css")
        #expect(css.status == 200 && css.headers["Content-Type"] == "text/css; charset=utf-8" && css.text.contains(":focus-visible"))
        let index = fixture.call(.get, "/console", from: Self.local)
        #expect(index.status == 302 && index.headers["Location"] == "/console/home")
    }
}
