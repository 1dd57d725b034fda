import Foundation
import Testing

/// The admin console in a real browser (headless Chromium driven by selenium, `Tests/Python/console_browser.py`)
/// against `hearth serve --dev` configured to require sign-in (and to lock `signIn.email.passwordRequired`), with 10,000
/// accounts.
@Suite("Admin console in a browser (e2e)", .blocking)
struct ConsoleBrowserTests {
    /// 10,000 accounts through the admin API's `batchCreate` (`user-00000` … `user-09999`), 1,000 per request.
    static func seedUsers(_ server: HearthProcess) throws {
        let admin = FirebaseAdminClient(server: server)
        for batch in 0..<10 {
            let users = (0..<1000).map { index -> [String: Any] in
                let number = String(format: "%05d", batch * 1000 + index)
                return ["localId": "user-\(number)", "email": "user\(number)@example.com", "displayName": "User \(number)"]
            }
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["users": users]), as: UTF8.self)
            let created = try admin.post("/accounts:batchCreate", body)
            #expect(created.status == 200 && (created.json["error"] as? [Any])?.isEmpty == true, "\(created.text.prefix(300))")
        }
    }

    @Test("sign in as an administrator (a non-administrator is refused), find a user among 10,000, edit its claims, revoke, disable, remove its factor, rotate a key, read the audit trail, turn anonymous sign-up off on the configuration page and set a tenant's password policy on its own (each enforced at once)")
    func console() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("console.json")
        try Data(#"{"console": {"requireSignIn": true}, "signIn": {"email": {"passwordRequired": false}}}"#.utf8).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path])
        try server.start()
        #expect(server.lines.contains("  Admin console      http://127.0.0.1:\(server.port)/console"))
        try Self.seedUsers(server)
        let client = MFATests.Client(server: server)
        let needle = try SignedIn(client.signIn("needle@example.com"))
        _ = try client.enrollTOTP(needle)
        let admin = try SignedIn(client.signIn("admin@example.com"))
        _ = try SignedIn(client.signIn("outsider@example.com"))
        _ = try SignedIn(client.signIn("outsider@example.com"))  // a returning sign-in, for the overview's chart
        let claims = try server.runCommand(["users", "set-claims", admin.localID, #"{"hearthAdmin": true}"#])
        #expect(claims.status == 0, "\(claims.output)")
        // A tenant with its own account of the needle's email.
        let owner = [("Authorization", "Bearer owner")]
        let made = try server.postJSON(
            "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants", ["displayName": "Console-Tenant"], headers: owner)
        let tenant = try #require((made.json["name"] as? String)?.split(separator: "/").last.map(String.init))
        let tenantUser = try FirebaseAdminClient(server: server).post(
            "/tenants/\(tenant)/accounts", #"{"localId": "tenant-needle", "email": "needle@example.com"}"#)
        #expect(tenantUser.status == 200, "\(tenantUser.text)")

        try PythonClients.browser.get()
        let facts = try PythonClients.run(
            "console_browser.py",
            ["http://127.0.0.1:\(server.port)", "admin@example.com", "outsider@example.com", "needle@example.com"])
        #expect(facts["error"] == nil, "\(facts["error"] ?? "")")
        #expect(facts["before_sign_in"] as? String == "Sign in")
        #expect((facts["outsider"] as? String)?.hasPrefix("Not an administrator: ") == true, "\(facts["outsider"] ?? "")")
        #expect(facts["signed_in_as"] as? String == "admin@example.com")
        #expect(facts["first_page_rows"] as? Int == 50)
        // The overview: every account, and the sign-ins drawn as bars the browser lays out, named for screen readers.
        let home = facts["home"] as? [String: Any] ?? [:]
        let figures = home["figures"] as? [String: String] ?? [:]
        #expect(home["heading"] as? String == "Overview")
        #expect(figures["users"] == "10003", "\(figures)")
        let signIns = Int(figures["sign-in-total"] ?? "") ?? 0
        #expect(signIns >= 1 && home["table_total"] as? Int == signIns, "\(home)")
        #expect(home["chart_role"] as? String == "img")
        #expect((home["chart_name"] as? String)?.hasPrefix("Sign-ins per day, by provider Sign-ins per day, by provider, 14 days: google.com ") == true, "\(home)")
        #expect((home["legend"] as? [String])?.contains("google.com") == true, "\(home)")
        #expect((home["bars"] as? Int ?? 0) >= 1 && home["days"] as? Int == 14)
        let size = home["chart_size"] as? [Double] ?? []
        #expect(size.count == 2 && size[0] > 300 && size[1] > 80, "\(size)")
        #expect(home["charts"] as? [String] == ["Sign-ins per day, by provider", "New users per day", "Refusals and lockouts per day"])
        let rows = facts["search_rows"] as? [String] ?? []
        #expect(rows.count == 1 && rows.first?.contains(needle.localID) == true, "\(rows)")
        #expect(facts["user_heading"] as? String == "needle@example.com")
        #expect(facts["factors_before"] as? Int == 1)
        #expect((facts["invalid_claims"] as? String)?.contains("FORBIDDEN_CLAIM") == true, "\(facts["invalid_claims"] ?? "")")
        #expect(facts["invalid_claims_kept"] as? String == #"{"sub": "someone-else"}"#)
        #expect(facts["claims_saved"] as? String == "Custom claims saved.")
        #expect(facts["confirmations"] as? [String] == ["Revoke sessions", "Disable account", "Remove second factor", "Rotate the signing key"])
        #expect((facts["revoked"] as? String)?.hasPrefix("Sessions revoked") == true)
        #expect(facts["disabled"] as? String == "Account disabled.")
        #expect(facts["state"] as? String == "disabled")
        #expect(facts["factor_removed"] as? String == "Second factor removed.")
        #expect(facts["factors_after"] as? Int == 0)
        let keysBefore = facts["keys_before"] as? [String] ?? []
        let keysAfter = facts["keys_after"] as? [String] ?? []
        #expect((facts["rotated"] as? String)?.hasPrefix("Key rotated") == true)
        #expect(keysAfter.count == keysBefore.count + 1 && keysAfter.filter { $0.hasSuffix("signing") }.count == 1, "\(keysAfter)")
        // The tenant's users: its own needle, shown without change steps.
        #expect(facts["tenant_rows"] as? [String] == ["\(tenant) Console-Tenant — " + (facts["tenant_created"] as? String ?? "") + " Overview Configuration"])
        // The tenant's overview counts its own account only.
        let tenantHome = facts["tenant_home"] as? [String: Any] ?? [:]
        #expect(tenantHome["heading"] as? String == "Overview of tenant Console-Tenant")
        #expect(tenantHome["figures"] as? [String: String] == [
            "users": "1", "sign-in-total": "0", "new-user-total": "1", "refusal-total": "0", "lockout-total": "0",
        ])
        #expect(tenantHome["bars"] as? Int == 0 && tenantHome["table_total"] as? Int == 0)
        #expect(facts["tenant_users_heading"] as? String == "Users of Console-Tenant")
        let tenantRows = facts["tenant_user_rows"] as? [String] ?? []
        #expect(tenantRows.count == 1 && tenantRows[0].hasPrefix("tenant-needle needle@example.com — active"), "\(tenantRows)")
        #expect(facts["tenant_search_rows"] as? Int == 1)
        #expect(facts["tenant_user_scope"] as? String == "A user of tenant \(tenant). Change it with the admin API or hearth users … --tenant \(tenant).")
        #expect(facts["tenant_user_steps"] as? Int == 0)
        #expect((facts["missing_tenant"] as? String)?.hasPrefix("Not available: TENANT_NOT_FOUND") == true, "\(facts["missing_tenant"] ?? "")")
        #expect(facts["signed_out"] as? String == "Signed out")
        #expect(facts["after_sign_out"] as? String == "Sign in")

        // What the console did, as the admin API sees it.
        let record = try #require(try FirebaseAdminClient(server: server).lookUp(#"{"localId": ["\#(needle.localID)"]}"#))
        #expect(record["disabled"] as? Bool == true)
        #expect(record["customAttributes"] as? String == #"{"tier": "gold"}"#)
        #expect(record["mfaInfo"] == nil)
        #expect(try FirebaseIOSClient(server: server).refresh(needle.refreshToken).status == 400)

        // The audit trail of each change, recorded as done by the console's administrator.
        let actor = "console:\(admin.localID)"
        let events = (facts["needle_events"] as? [[String: String]] ?? []).filter { $0["actor"] == actor }.compactMap { $0["kind"] }
        for kind in ["claims_changed", "sessions_revoked", "account_disabled", "factor_removed"] {
            #expect(events.contains(kind), "no \(kind) in \(facts["needle_events"] ?? "") \(facts["audit_alert"] ?? "")")
        }
        #expect((facts["key_events"] as? [String])?.contains(actor) == true, "\(facts["key_events"] ?? "")")

        // The configuration page: anonymous sign-up turned off and saved, the file's lock shown, the switch enforced.
        #expect(facts["config_heading"] as? String == "Configuration" && facts["config_nav_current"] as? String == "Configuration")
        #expect(facts["config_anonymous_before"] as? Bool == true)
        let locked = facts["config_locked"] as? [String: Any] ?? [:]
        #expect(locked["enabled"] as? Bool == false && locked["described_by"] as? String == "emailLink-lock", "\(locked)")
        #expect(locked["reason"] as? String == "Locked: set by the config file (signIn.email.passwordRequired).")
        #expect(facts["config_saved"] as? String == "Configuration saved: client calls follow it from now on.")
        #expect((facts["config_url"] as? String)?.hasSuffix("/console/config?done=config") == true)
        #expect(facts["config_anonymous_after"] as? Bool == false)
        #expect(facts["config_events"] as? [String] == [actor], "\(facts["config_events"] ?? "")")
        let guest = try server.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", ["returnSecureToken": true])
        #expect(guest.status == 400 && guest.text.contains("ADMIN_ONLY_OPERATION"), "\(guest.text)")

        // The tenant's configuration page: its password policy enforced and published for the tenant only.
        #expect((facts["tenant_config_heading"] as? String)?.hasPrefix("Configuration of tenant") == true, "\(facts["tenant_config_heading"] ?? "")")
        #expect(facts["tenant_config_domains"] as? Int == 0)
        #expect(facts["tenant_config_email_before"] as? Bool == false, "the tenant was made without password sign-up")
        #expect(facts["tenant_config_saved"] as? String == "Configuration saved: client calls follow it from now on.")
        #expect((facts["tenant_config_url"] as? String)?.hasSuffix("/console/tenants/\(tenant)/config?done=config") == true)
        #expect(facts["tenant_config_min_after"] as? String == "12")
        let published = try server.request("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k&tenantId=\(tenant)")
        #expect(published.json["enforcementState"] as? String == "ENFORCE", "\(published.text)")
        let weak = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
            ["email": "weak@example.com", "password": "alllowercase1", "tenantId": tenant, "returnSecureToken": true])
        #expect(weak.text.contains("PASSWORD_DOES_NOT_MEET_REQUIREMENTS"), "\(weak.text)")
        let project = try server.request("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k")
        #expect(project.json["enforcementState"] as? String == "OFF", "the project keeps its own: \(project.text)")
    }
}
