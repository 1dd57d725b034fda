import Foundation
import HearthConsole
import HearthCore
import HearthProtocol
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
            HomePage(activity: Self.activity, tenant: nil).html(Self.viewer),
            KeysPage(keys: [SigningKeyRecord(keyID: "k", algorithm: "RS256", privateKeyPEM: "", createdAt: 1)]).html(Self.viewer),
            ConfigPage(config: Self.config, locks: Self.fileLocks, error: "INVALID_CONFIG").html(Self.viewer),
            ConfigPage(config: Self.config, locks: [:], notice: "Saved.").html(Self.viewer),
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
    /// An effective configuration as the config API answers it (anonymous off, SMS on, TOTP off with a window of 2).
    static let config: [String: JSONValue] = [
        "signIn": ["allowDuplicateEmails": false, "anonymous": ["enabled": false], "email": ["enabled": true, "passwordRequired": true]],
        "mfa": [
            "state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
            "providerConfigs": [["state": "DISABLED", "totpProviderConfig": ["adjacentIntervals": 2]]],
        ],
        "passwordPolicyConfig": [
            "passwordPolicyEnforcementState": "ENFORCE",
            "passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 8, "containsNumericCharacter": true]]],
        ],
        "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
        "authorizedDomains": ["app.example.com", "<evil>.example.com"],
    ]

    /// What a config file locking the anonymous switch and MFA locks, with the settings only the file sets.
    static let fileLocks = ConfigPage.locks { path in
        ["signIn.anonymous.enabled": "signIn.anonymous.enabled", "mfa": "mfa", "passwordPolicyConfig": "passwords.policy",
         "emailPrivacyConfig": "emailPrivacy", "authorizedDomains": "emailActions.authorizedDomains"]
            .first { ProjectConfigRules.overlap(path, $0.key) }?.value
    }

    @Test("the configuration page shows the effective settings, each locked one disabled with the file key, values escaped")
    func configPage() throws {
        let page = ConfigPage(config: Self.config, locks: Self.fileLocks, notice: "Configuration saved.").html(Self.viewer)
        #expect(page.contains(#"<a href="/console/config" aria-current="page">Configuration</a>"#))
        let nav = try #require(page.range(of: ">Tenants<")?.lowerBound)
        #expect(page.range(of: ">Configuration<").map { $0.lowerBound > nav } == true, "Configuration follows Tenants")
        #expect(page.contains(#"role="status">Configuration saved."#))
        #expect(page.contains(#"action="/console/config""#) && page.contains(#"name="csrf" value="tok&quot;en""#))
        // Locked: anonymous (its own key) and every MFA control (the whole of mfa).
        #expect(page.contains(#"id="anonymous" name="anonymous" value="true" disabled aria-describedby="anonymous-lock">"#))
        #expect(page.contains(#"<p class="lock" id="anonymous-lock">Locked: set by the config file (<code>signIn.anonymous.enabled</code>).</p>"#))
        for id in ["mfaState", "sms", "totp", "adjacentIntervals"] {
            #expect(page.contains(#"disabled aria-describedby="\#(id)-lock""#), "\(id)")
            #expect(page.contains(#"id="\#(id)-lock">Locked: set by the config file (<code>mfa</code>)"#), "\(id)")
        }
        // Editable, with the effective values: email on, email links off (passwordRequired), SMS on, TOTP off, window 2.
        #expect(page.contains(#"id="email" name="email" value="true" checked>"#))
        #expect(page.contains(#"id="emailLink" name="emailLink" value="true">"#))
        #expect(page.contains(#"<option value="ENABLED" selected>"#))
        #expect(page.contains(#"id="sms" name="sms" value="true" checked disabled"#))
        #expect(page.contains(#"id="totp" name="totp" value="true" disabled"#))
        #expect(page.contains(#"value="2" disabled"#))
        #expect(page.contains(#"id="save-config""#))
        // The password policy, email privacy and domains, each locked by its file key (every policy control
        // described by the one reason).
        #expect(page.contains(#"<option value="ENFORCE" selected>Enforced: the rules below</option>"#))
        #expect(page.contains(#"id="minLength" name="minLength" min="6" max="30" step="1" value="8" disabled aria-describedby="passwordPolicy-lock">"#))
        #expect(page.contains(#"id="numeric" name="numeric" value="true" checked disabled aria-describedby="passwordPolicy-lock">"#))
        #expect(page.contains(#"id="passwordPolicy-lock">Locked: set by the config file (<code>passwords.policy</code>)"#))
        #expect(page.contains(#"<option value="on" selected>"#) && page.contains(#"id="emailPrivacy-lock">Locked: set by the config file (<code>emailPrivacy</code>)"#))
        #expect(page.contains("app.example.com\n&lt;evil&gt;.example.com</textarea>") && !page.contains("<evil>"))
        #expect(page.contains(#"id="authorizedDomains-lock">Locked: set by the config file (<code>emailActions.authorizedDomains</code>)"#))
        // Unlocked, nothing is disabled; a refusal is announced.
        let open = ConfigPage(config: Self.config, locks: [:], error: "INVALID_CONFIG : bad").html(Self.viewer)
        #expect(!open.contains(" disabled") && !open.contains(#"class="lock""#))
        #expect(open.contains(#"role="alert">Not saved: INVALID_CONFIG : bad"#))
        // Everything locked: no save button.
        let all = ConfigPage(config: Self.config, locks: ConfigPage.locks { _ in "x" }).html(Self.viewer)
        #expect(!all.contains(#"id="save-config""#) && all.contains(#"id="all-locked""#))
    }

    @Test("the posted form becomes a masked update of the settings not locked; a locked one the form still gives is named, for the API to refuse")
    func configChange() throws {
        let form = ["email": "true", "mfaState": "ENABLED", "sms": "true", "totp": "true", "adjacentIntervals": " 3 "]
        let change = try ConfigPage.change(from: form, locks: [:])
        #expect(change.updateMask == "signIn.anonymous.enabled,signIn.email.enabled,signIn.email.passwordRequired,mfa.state,mfa.enabledProviders,mfa.providerConfigs")
        #expect(change.request == [
            "signIn": ["anonymous": ["enabled": false], "email": ["enabled": true, "passwordRequired": true]],
            "mfa": [
                "state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
                "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 3]]],
            ],
        ])
        let locked = try ConfigPage.change(from: ["email": "true", "emailLink": "true"], locks: Self.fileLocks)
        #expect(locked.paths == ["signIn.email.enabled", "signIn.email.passwordRequired"])
        #expect(locked.request == ["signIn": ["email": ["enabled": true, "passwordRequired": false]]])
        let tampered = try ConfigPage.change(from: ["anonymous": "true", "sms": "true"], locks: Self.fileLocks)
        #expect(tampered.paths == ["signIn.anonymous.enabled", "signIn.email.enabled", "signIn.email.passwordRequired", "mfa.enabledProviders"])
        // Values the form cannot hold are refused before the API is asked; ranges are the API's to check.
        for bad in [["anonymous": "yes"], ["mfaState": "ENABLED", "adjacentIntervals": "two"],
                    ["mfaState": "ENABLED", "adjacentIntervals": "99999999999999999999"], [:]] {
            let error = #expect(throws: WireError.self, "\(bad)") { _ = try ConfigPage.change(from: bad, locks: [:]) }
            #expect(error?.code == .invalidConfig, "\(bad)")
        }
        #expect(try ConfigPage.change(from: ["mfaState": "ENABLED", "adjacentIntervals": "11"], locks: [:]).request["mfa"] != nil)
    }

    @Test("the password policy, email privacy and domains are named only when the form gives their select or text area")
    func configChangeAccountRules() throws {
        let base = ["mfaState": "DISABLED"]
        #expect(try ConfigPage.change(from: base, locks: [:]).paths.contains { $0.hasPrefix("password") || $0.hasPrefix("email") || $0 == "authorizedDomains" } == false,
                "a form from before they were shown changes none of them")
        let form = base.merging([
            "passwordPolicy": "ENFORCE", "minLength": " 12 ", "maxLength": "64", "uppercase": "true", "symbol": "true",
            "emailPrivacy": "off", "authorizedDomains": "app.example.com\r\nshop.example.com, \n",
        ]) { $1 }
        let change = try ConfigPage.change(from: form, locks: [:])
        #expect(Array(change.paths.suffix(3)) == ["passwordPolicyConfig", "emailPrivacyConfig.enableImprovedEmailPrivacy", "authorizedDomains"])
        #expect(change.request["passwordPolicyConfig"] == [
            "passwordPolicyEnforcementState": "ENFORCE", "forceUpgradeOnSignin": false,
            "passwordPolicyVersions": [["customStrengthOptions": [
                "minPasswordLength": 12, "maxPasswordLength": 64, "containsLowercaseCharacter": false,
                "containsUppercaseCharacter": true, "containsNumericCharacter": false, "containsNonAlphanumericCharacter": true,
            ]]],
        ])
        #expect(change.request["emailPrivacyConfig"] == ["enableImprovedEmailPrivacy": false])
        #expect(change.request["authorizedDomains"] == ["app.example.com", "shop.example.com"])
        #expect(try ConfigPage.change(from: form, locks: [:], forTenant: true).paths.contains("authorizedDomains") == false)
        // Unchanged from what the page showed: not named (no defaults stored, open domains left open).
        let shownAsIs = base.merging([
            "passwordPolicy": "ENFORCE", "minLength": "8", "maxLength": "4096", "numeric": "true", "emailPrivacy": "on",
            "authorizedDomains": "app.example.com\n<evil>.example.com",
        ]) { $1 }
        var current = Self.config
        current["passwordPolicyConfig"] = try PasswordPolicy(enforcementState: .enforce, minLength: 8, requireNumeric: true).configForm
        #expect(try ConfigPage.change(from: shownAsIs, locks: [:], current: current).paths.count == 6, "only the switches and MFA")
        // SMS regions: a policy and its list; "every region" clears a stored policy, and is not named when none is.
        let sms = try ConfigPage.change(from: base.merging(["smsPolicy": "allowlistOnly", "smsRegions": "US, GB\n"]) { $1 }, locks: [:])
        #expect(sms.paths.last == "smsRegionConfig" && sms.request["smsRegionConfig"] == ["allowlistOnly": ["allowedRegions": ["US", "GB"]]])
        var policed = Self.config
        policed["smsRegionConfig"] = ["allowByDefault": ["disallowedRegions": ["GB"]]]
        let cleared = try ConfigPage.change(from: base.merging(["smsPolicy": "everywhere"]) { $1 }, locks: [:], current: policed)
        #expect(cleared.paths.last == "smsRegionConfig" && cleared.request["smsRegionConfig"] == nil)
        #expect(try ConfigPage.change(from: base.merging(["smsPolicy": "everywhere"]) { $1 }, locks: [:], current: Self.config)
            .paths.contains("smsRegionConfig") == false)
        let error = #expect(throws: WireError.self) { _ = try ConfigPage.change(from: base.merging(["smsPolicy": "some"]) { $1 }, locks: [:]) }
        #expect(error?.code == .invalidConfig)
        let shownPolicy = ConfigPage(config: policed, locks: [:]).html(Self.viewer)
        #expect(shownPolicy.contains(#"<option value="allowByDefault" selected>"#) && shownPolicy.contains(">GB</textarea>"))
        for bad in [["passwordPolicy": "SOMETIMES"], ["passwordPolicy": "OFF", "minLength": "six"], ["emailPrivacy": "maybe"]] {
            let error = #expect(throws: WireError.self, "\(bad)") { _ = try ConfigPage.change(from: base.merging(bad) { $1 }, locks: [:]) }
            #expect(error?.code == .invalidConfig, "\(bad)")
        }
        // A refused save shows what was posted.
        let shown = ConfigPage(config: Self.config, locks: [:]).showing(change)
        #expect(ProjectConfigRules.value(in: shown.config, at: "passwordPolicyConfig.passwordPolicyVersions") == change.request["passwordPolicyConfig"]?["passwordPolicyVersions"])
        #expect(shown.html(Self.viewer).contains("app.example.com\nshop.example.com</textarea>"))
    }

    @Test("a tenant's configuration page: its own path and settings, no authorized domains, nothing locked")
    func tenantConfigPage() throws {
        let tenant = Tenant(id: "acme-1x2y3", displayName: "Acme <Inc>", allowPasswordSignup: true, createdAtMillis: 0, updatedAtMillis: 0)
        let config = TenantConfigShape.config(of: tenant, settings: ProjectSettings(switches: tenant.switches, mfa: .disabled))
        let page = ConfigPage(config: config, locks: [:], tenant: tenant).html(Self.viewer)
        #expect(page.contains(#"action="/console/tenants/acme-1x2y3/config""#))
        #expect(page.contains("Configuration of tenant Acme &lt;Inc&gt;") && !page.contains("<Inc>"))
        #expect(page.contains(#"id="email" name="email" value="true" checked>"#) && page.contains(#"id="anonymous" name="anonymous" value="true">"#))
        #expect(!page.contains(#"id="emailLink" name="emailLink" value="true" checked"#), "email links off: enableEmailLinkSignin is false")
        #expect(!page.contains("authorizedDomains") && !page.contains(" disabled"))
        #expect(page.contains(#"<a href="/console/tenants" aria-current="page">Tenants</a>"#))
    }

    /// Three days of a scope's activity: sign-ins by two providers and one without, new users, refusals and a lockout.
    static let activity = HomePage.Activity(days: [20_000, 20_001, 20_002], users: 42, counts: [
        .signIn: [
            AuditDayCount(day: 19_999, provider: "google.com", count: 99),  // before the days shown: left out
            AuditDayCount(day: 20_000, provider: nil, count: 1),
            AuditDayCount(day: 20_000, provider: "google.com", count: 3),
            AuditDayCount(day: 20_002, provider: "google.com", count: 4),
            AuditDayCount(day: 20_002, provider: "<password>", count: 2),
        ],
        .signUp: [AuditDayCount(day: 20_001, provider: "google.com", count: 5)],
        .accountCreated: [AuditDayCount(day: 20_001, provider: nil, count: 1)],
        .signInFailed: [AuditDayCount(day: 20_002, provider: "password", count: 7)],
        .lockout: [AuditDayCount(day: 20_002, provider: nil, count: 1)],
    ])

    @Test("the overview counts the days shown, draws each day's bar stacked by provider to scale, and names each chart")
    func overview() throws {
        let page = HomePage(activity: Self.activity, tenant: nil)
        let signIns = page.signInChart
        #expect(signIns.series.map(\.label) == ["google.com", "<password>", "other"])
        #expect(signIns.series.map(\.counts) == [[3, 0, 4], [0, 0, 2], [1, 0, 0]])
        #expect(signIns.scaleTop == 10)
        #expect(page.newUsersChart.series.map(\.counts) == [[0, 5, 0], [0, 1, 0]])
        #expect(page.refusalsChart.series.map(\.label) == ["sign-ins refused", "lockouts"])

        let html = page.html(Self.viewer)
        for (id, value) in [("users", 42), ("sign-in-total", 10), ("new-user-total", 6), ("refusal-total", 7), ("lockout-total", 1)] {
            #expect(html.contains(#"<dd id="\#(id)">\#(value)</dd>"#), "\(id)")
        }
        #expect(html.contains("&lt;password&gt;") && !html.contains("<password>"))
        // Bars: one rect per non-zero part, in a 186-unit-high plot.
        let sign = signIns.html()
        #expect(sign.components(separatedBy: "<rect ").count - 1 == 4 + 3, "4 parts and 3 legend swatches")
        #expect(sign.contains(#"<desc id="sign-ins-desc">Sign-ins per day, by provider, 3 days: google.com 7, &lt;password&gt; 2, other 1</desc>"#))
        #expect(sign.contains(#"role="img" aria-labelledby="sign-ins-title sign-ins-desc""#))
        let heights = try Regex(#"<rect x="[^"]+" y="([^"]+)" width="[^"]+" height="([^"]+)""#)
        let parts = sign.matches(of: heights).map { Double($0.output[2].substring ?? "") ?? 0 }
        #expect(parts.count == 4 && abs(parts.reduce(0, +) - 186) < 0.01, "10 events on a scale of 10 fill the plot once: \(parts)")
        #expect(sign.contains(#"<th scope="row">google.com</th><td>3</td><td>0</td><td>4</td>"#))
        #expect(sign.contains(#"<th scope="col">10-04</th>"#), "day 20,000 is 2024-10-04")
    }

    @Test("an empty scope draws empty charts that say so, on a scale of 1")
    func emptyOverview() {
        let page = HomePage(activity: HomePage.Activity(days: [20_000], users: 0, counts: [:]), tenant: nil)
        #expect(page.signInChart.scaleTop == 1 && page.signInChart.series.isEmpty)
        let html = page.html(Self.viewer)
        #expect(html.contains("Nothing in these days.") && !html.contains("<rect x="))
    }

    @Test("a tenant's overview names the tenant and links its users")
    func tenantOverview() {
        let tenant = Tenant(id: "acme-x4k2q", displayName: "<Acme>", createdAtMillis: 1, updatedAtMillis: 1)
        let html = HomePage(activity: Self.activity, tenant: tenant).html(Self.viewer)
        #expect(html.contains("<h1>Overview of tenant &lt;Acme&gt;</h1>"))
        #expect(html.contains(#"href="/console/tenants/acme-x4k2q/users""#))
        let list = TenantsPage(tenants: [tenant], nextAfter: nil, isFirstPage: true).html(Self.viewer)
        #expect(list.contains(#"href="/console/tenants/acme-x4k2q" class="overview""#))
    }
}
