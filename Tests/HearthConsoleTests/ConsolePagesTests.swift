import Foundation
import HearthConsole
import HearthCore
import Testing

/// What the console's pages show, and that what accounts and events hold is escaped wherever it appears.
@Suite("Console pages")
struct ConsolePagesTests {
    static let viewer = ConsoleViewer(name: "admin@example.com", csrfToken: "tok\"en", development: false)

    static func account(_ localID: String = "uid-1") -> Account {
        Account(
            localID: localID, email: "<b>mallory</b>@example.com", emailVerified: true, phoneNumber: "+15550001",
            customAttributes: #"{"role":"<script>"}"#, createdAtMillis: 1_764_000_000_000, validSinceMillis: 1_764_000_000_000)
    }

    @Test("account fields and claims are escaped on the users and user pages")
    func escaping() {
        let users = UsersPage(query: "<q>", accounts: [Self.account()], nextAfter: "a&b", isFirstPage: true).html(Self.viewer)
        let user = UserPage(account: Self.account()).html(Self.viewer)
        for page in [users, user] {
            #expect(!page.contains("<b>mallory</b>"))
            #expect(page.contains("&lt;b&gt;mallory&lt;/b&gt;@example.com"))
        }
        #expect(!user.contains("<script>"))
        #expect(user.contains("{&quot;role&quot;:&quot;&lt;script&gt;&quot;}"))
        #expect(users.contains("after=a%26b"))
        #expect(user.contains(#"name="csrf" value="tok&quot;en""#))
    }

    @Test("tenants link to their users; a tenant's user pages are scoped, escaped and offer no change step")
    func tenantPages() {
        let tenant = Tenant(id: "acme-x4k2q", displayName: "<Acme>", allowPasswordSignup: true, createdAtMillis: 1, updatedAtMillis: 1)
        let list = TenantsPage(tenants: [tenant], nextAfter: "acme-x4k2q", isFirstPage: true).html(Self.viewer)
        #expect(list.contains(#"href="/console/tenants/acme-x4k2q/users""#))
        #expect(list.contains("&lt;Acme&gt;") && !list.contains("<Acme>"))
        #expect(list.contains("after=acme-x4k2q") && list.contains("password sign-up"))
        let users = UsersPage(query: "", accounts: [Self.account()], nextAfter: nil, isFirstPage: true, tenant: tenant)
            .html(Self.viewer)
        #expect(users.contains(#"href="/console/tenants/acme-x4k2q/users/uid-1""#))
        #expect(users.contains(#"action="/console/tenants/acme-x4k2q/users""#))
        #expect(users.contains("Users of &lt;Acme&gt;"))
        let user = UserPage(account: Self.account(), tenant: tenant).html(Self.viewer)
        #expect(user.contains(#"id="scope""#) && user.contains("&lt;b&gt;mallory&lt;/b&gt;@example.com"))
        for step in ["<textarea", "remove-factor", #"id="revoke""#, #"id="disable""#] {
            #expect(!user.contains(step), "\(step)")
        }
        #expect(TenantsPage(tenants: [], nextAfter: nil, isFirstPage: true).html(Self.viewer).contains(#"id="no-tenants""#))
    }

    @Test("a refused claims text is shown as posted, with the reason announced")
    func refusedClaims() {
        let page = UserPage(account: Self.account(), claimsText: #"{"sub":"x"}"#, claimsError: "FORBIDDEN_CLAIM : sub").html(Self.viewer)
        #expect(page.contains(#"role="alert">Not saved: FORBIDDEN_CLAIM : sub"#))
        #expect(page.contains("{&quot;sub&quot;:&quot;x&quot;}</textarea>"))
        #expect(page.contains(#"aria-invalid="true""#))
    }

    @Test("the audit page lists events newest first as given, links older pages with the filters, and escapes details")
    func auditPage() {
        let event = AuditEvent(
            id: "0001764000000000-abc", atMillis: 1_764_000_000_000, kind: .claimsChanged, localID: "uid-1",
            actor: .console(uid: "admin"), detail: "<x>")
        let page = AuditPage(uid: "uid-1", kind: "claims_changed", since: "", events: [event], olderBefore: "0001764000000000-abc")
            .html(Self.viewer)
        #expect(page.contains("console:admin"))
        #expect(page.contains("&lt;x&gt;"))
        #expect(page.contains("uid=uid-1&amp;kind=claims_changed&amp;before=0001764000000000-abc"))
        #expect(page.contains(#"<option value="claims_changed" selected>"#))
    }

    @Test("the since filter reads a datetime-local value as UTC and refuses anything else")
    func sinceFilter() {
        #expect(AuditPage.millis(since: "1970-01-01T00:01") == 60_000)
        #expect(AuditPage.millis(since: "2026-12-01T09:30:15") == 1_796_117_415_000)
        for bad in ["", "2026-12-01", "2026-13-01T00:00", "2026-02-30T00:00", "2026-12-01T24:00", "x-y-zT1:2", "2026-12-01T09:30:15:01"] {
            #expect(AuditPage.millis(since: bad) == nil, "\(bad)")
        }
    }

    @Test("the development section is offered only in development, and open mode has no sign-out button")
    func navigation() {
        let open = ConsoleViewer(name: nil, csrfToken: "t", development: true)
        let page = KeysPage(keys: []).html(open)
        #expect(page.contains(ConsolePaths.development))
        #expect(!page.contains("sign-out"))
        #expect(!KeysPage(keys: []).html(Self.viewer).contains(ConsolePaths.development))
        #expect(KeysPage(keys: []).html(Self.viewer).contains(#"id="sign-out""#))
    }

    @Test("every visible field on every page has a label, every page has one h1, a skip link and the one stylesheet, and no script")
    func accessibility() throws {
        let event = AuditEvent(id: "1", atMillis: 1, kind: .signIn, actor: .user)
        let pages = [
            UsersPage(query: "x", accounts: [Self.account()], nextAfter: nil, isFirstPage: true).html(Self.viewer),
            UserPage(account: Self.account(), claimsError: "bad").html(Self.viewer),
            UserPage(account: Self.account(), tenant: Tenant(id: "t-1", createdAtMillis: 1, updatedAtMillis: 1)).html(Self.viewer),
            TenantsPage(tenants: [Tenant(id: "t-1", createdAtMillis: 1, updatedAtMillis: 1)], nextAfter: nil, isFirstPage: true).html(Self.viewer),
            KeysPage(keys: [SigningKeyRecord(keyID: "k", algorithm: "RS256", privateKeyPEM: "", createdAt: 1)]).html(Self.viewer),
            AuditPage(uid: "", kind: "", since: "", events: [event], olderBefore: nil).html(Self.viewer),
            DevelopmentPage(accounts: [], smsCodes: [.init(phoneNumber: "+1555", code: "123456")], emailCodes: []).html(Self.viewer),
            ConfirmPage(title: "t", explanation: "e", action: "/a", button: "b", back: "/").html(Self.viewer, section: .users),
            MessagePage.signIn(providerName: "Google"), MessagePage.message(title: "t", text: "x"),
            MessagePage.secondFactor(csrfToken: "t", enrollmentID: "e", factorName: "App"), MessagePage.continueInto("/console/users"),
        ]
        let field = try Regex(#"<(input|select|textarea)\b[^>]*>"#)
        let identifier = try Regex(#"\bid="([^"]+)""#)
        #expect(pages.map { $0.matches(of: field).count }.reduce(0, +) >= 12, "the fields are found")
        for page in pages {
            #expect(page.components(separatedBy: "<h1").count == 2)
            #expect(page.contains(##"<a href="#main" class="skip">"##) && page.contains(#"<main id="main""#))
            #expect(page.contains(#"<link rel="stylesheet" href="/console/console.css">"#))
            #expect(!page.contains("<script") && !page.contains("style=\""))
            for match in page.matches(of: field) {
                let tag = String(page[match.range])
                guard !tag.contains(#"type="hidden""#) else { continue }
                let id = try #require(tag.firstMatch(of: identifier).map { String(tag[$0.range]).dropFirst(4).dropLast() }, "\(tag)")
                #expect(page.contains(#"<label for="\#(id)">"#), "no label for \(tag)")
            }
        }
    }
}
