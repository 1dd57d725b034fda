import Foundation
import HearthProtocol
import Testing
@testable import HearthCore

/// The configuration's password policy, email privacy and authorized domains, set through the config API (the
/// project) and the tenant API (a tenant), enforced where they apply.
@Suite("Configured account rules: password policy, email privacy, authorized domains, per scope")
struct ConfiguredAccountRulesTests {
    private let admin = Caller(client: nil, actor: AuditTrailTests.serviceAccount)
    private static let client = Caller.user(client: "10.0.0.7")

    private func json(_ text: String) throws -> [String: JSONValue] {
        try #require(try JSONValue(parsing: Data(text.utf8)).objectValue)
    }

    private static let strictPolicy = #"""
        {"passwordPolicyConfig":{"passwordPolicyEnforcementState":"ENFORCE","forceUpgradeOnSignin":false,
        "passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":10,"containsNumericCharacter":true}}]}}
        """#

    private func tenant(_ test: TestPlatform, _ fields: [String: JSONValue] = [:]) throws -> IdentityPlatform {
        var all = fields
        all["displayName"] = "Rules-Tenant"
        all["allowPasswordSignup"] = true
        all["enableEmailLinkSignin"] = true
        let made = try test.platform.tenants.create(TenantFields(fields: RequestFields(all)), by: .system)
        return test.platform.scoped(to: try StoreScope.tenant(String(made.name.split(separator: "/").last ?? "")))
    }

    private func signUp(_ platform: IdentityPlatform, _ email: String, _ password: String) throws -> SignUpResponse {
        try platform.passwordAccounts.signUp(SignUpRequest(email: email, password: password), by: Self.client)
    }

    @Test("the project's password policy from the config API holds sign-up, changes, resets and admin passwords; a tenant keeps its own")
    func passwordPolicy() throws {
        let test = try TestPlatform()
        let tenant = try tenant(test)
        _ = try signUp(test.platform, "before@example.com", "short1")
        _ = try test.platform.projectConfig.update(json(Self.strictPolicy), updateMask: "passwordPolicyConfig", by: admin)
        #expect(try test.platform.configSettings().passwordPolicy.minLength == 10, "seen at once on the writing instance")

        let refused = "Missing password requirements: [Password must contain at least 10 characters]"
        #expect(throws: WireError(.passwordDoesNotMeetRequirements, refused)) {
            try signUp(test.platform, "ada@example.com", "abcdefgh1")
        }
        #expect(wireErrorCode { _ = try signUp(test.platform, "ada@example.com", "abcdefghij") } == .passwordDoesNotMeetRequirements)
        let ada = try signUp(test.platform, "ada@example.com", "abcdefghi1")
        var change = UpdateAccountRequest(idToken: ada.idToken)
        change.password = "abc123"
        #expect(wireErrorCode { _ = try test.platform.accounts.update(change, by: Self.client) } == .passwordDoesNotMeetRequirements)
        let create = try AdminCreateAccountRequest(fields: RequestFields(["email": "bob@example.com", "password": "abcdef1"]))
        #expect(wireErrorCode { _ = try test.platform.admin.create(create, by: admin) } == .passwordDoesNotMeetRequirements)
        var update = AdminUpdateAccountRequest(localId: ada.localId)
        update.password = "abcdef1"
        #expect(wireErrorCode { _ = try test.platform.admin.update(update, by: admin) } == .passwordDoesNotMeetRequirements)
        let reset = SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "ada@example.com", returnOobLink: true)
        let code = try #require(try test.platform.emailActions.sendOobCode(reset, by: .commandLine).oobCode)
        #expect(wireErrorCode {
            _ = try test.platform.emailActions.resetPassword(
                ResetPasswordRequest(oobCode: code, newPassword: "abcdef1"), by: Self.client)
        } == .passwordDoesNotMeetRequirements)
        #expect(try test.platform.emailActions.isOpen(oobCode: code), "a refused reset leaves its code usable")
        // An existing weak password still signs in (forceUpgradeOnSignin is off).
        _ = try test.passwordAccounts.signIn(SignInWithPasswordRequest(email: "before@example.com", password: "short1"), by: Self.client)

        // The tenant sets none: the defaults (6 characters), not the project's API-set policy.
        _ = try signUp(tenant, "ada@example.com", "short1")
        #expect(try tenant.configSettings().passwordPolicy == .firebaseDefault)
        let id = try #require(tenant.tenantID)
        _ = try test.platform.tenants.update(
            id: id, TenantFields(fields: RequestFields(json(Self.strictPolicy))), updateMask: "passwordPolicyConfig",
            by: admin)
        test.platform.configDirectory.forget(tenant.settings.scope)
        #expect(wireErrorCode { _ = try signUp(tenant, "bob@example.com", "short12") } == .passwordDoesNotMeetRequirements)
        #expect(try signUp(tenant, "bob@example.com", "abcdefghi1").email == "bob@example.com")
    }

    @Test("forceUpgradeOnSignin: a right password the enforced policy refuses is refused with its requirements, never counted as wrong")
    func forceUpgrade() throws {
        var lockouts = PasswordLockouts()
        lockouts.perEmail = FailureLockout(burst: 2, lockout: 60, maximumPerWindow: 10, window: 3_600)
        lockouts.perClient = lockouts.perEmail
        let test = try TestPlatform(passwordLockouts: lockouts)
        _ = try signUp(test.platform, "weak@example.com", "short1")
        _ = try signUp(test.platform, "strong@example.com", "abcdefghi1")
        let policy = Self.strictPolicy.replacingOccurrences(of: #""forceUpgradeOnSignin":false"#, with: #""forceUpgradeOnSignin":true"#)
        _ = try test.platform.projectConfig.update(json(policy), updateMask: "passwordPolicyConfig", by: admin)
        for _ in 0..<4 {
            #expect(throws: WireError(
                .passwordDoesNotMeetRequirements,
                "Missing password requirements: [Password must contain at least 10 characters]"
            )) {
                try test.passwordAccounts.signIn(SignInWithPasswordRequest(email: "weak@example.com", password: "short1"), by: Self.client)
            }
        }
        // Four refusals past a burst of 2: not one counted against the email or the client.
        #expect(wireErrorCode {
            _ = try test.passwordAccounts.signIn(SignInWithPasswordRequest(email: "weak@example.com", password: "wrong!"), by: Self.client)
        } == .invalidLoginCredentials)
        let strong = try test.passwordAccounts.signIn(
            SignInWithPasswordRequest(email: "strong@example.com", password: "abcdefghi1"), by: Self.client)
        #expect(strong.idToken?.isEmpty == false)
        #expect(try PasswordPolicy(configForm: json(policy)["passwordPolicyConfig"]?.objectValue ?? [:]).forceUpgradeOnSignin)
    }

    @Test("email privacy from the config API: off tells unknown emails from wrong passwords; a tenant's emailPrivacyConfig is its own")
    func emailPrivacy() throws {
        let test = try TestPlatform()
        let tenant = try tenant(test, ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
        func failure(_ platform: IdentityPlatform, _ email: String) -> ErrorCode? {
            wireErrorCode {
                _ = try platform.passwordAccounts.signIn(SignInWithPasswordRequest(email: email, password: "whatever1"), by: Self.client)
            }
        }
        #expect(failure(test.platform, "nobody@example.com") == .invalidLoginCredentials)
        #expect(failure(tenant, "nobody@example.com") == .emailNotFound, "the tenant turned it off for itself")
        _ = try test.platform.projectConfig.update(
            json(#"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#),
            updateMask: "emailPrivacyConfig.enableImprovedEmailPrivacy", by: admin)
        #expect(failure(test.platform, "nobody@example.com") == .emailNotFound)
        let uri = try test.platform.emailActions.createAuthUri(
            CreateAuthUriRequest(identifier: "nobody@example.com", continueUri: "http://localhost/"))
        #expect(uri.registered == false, "createAuthUri answers whether an email has an account")
    }

    @Test("authorized domains from the config API replace the configured list for continue URLs, the project's and its tenants'")
    func authorizedDomains() throws {
        let test = try TestPlatform(emailActions: EmailActionSettings(authorizedDomains: ["localhost", "app.example.com"]))
        let tenant = try tenant(test)
        func send(_ platform: IdentityPlatform, _ url: String) -> ErrorCode? {
            wireErrorCode {
                _ = try platform.emailActions.sendOobCode(
                    SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "ada@example.com", continueUrl: url, returnOobLink: true),
                    by: .commandLine)
            }
        }
        #expect(send(test.platform, "https://app.example.com/done") == nil)
        #expect(send(test.platform, "https://shop.example.com/done") == .unauthorizedDomain)
        #expect(wireErrorCode {
            _ = try test.platform.projectConfig.update(
                json(#"{"authorizedDomains":["https://shop.example.com/"]}"#), updateMask: "authorizedDomains", by: admin)
        } == .invalidConfig)
        let answered = try test.platform.projectConfig.update(
            json(#"{"authorizedDomains":["shop.example.com","Localhost"]}"#), updateMask: "authorizedDomains", by: admin)
        #expect(answered["authorizedDomains"] == ["shop.example.com", "Localhost"])
        for platform in [test.platform, tenant] {
            #expect(send(platform, "https://shop.example.com/done") == nil)
            #expect(send(platform, "https://app.example.com/done") == .unauthorizedDomain, "the list is replaced")
            #expect(send(platform, "http://localhost:8080/done") == nil, "names compare without case")
        }
        #expect(try test.platform.emailActions.currentSettings().authorizedDomainList == ["localhost", "shop.example.com"])
    }

    @Test("the action URL from the config API (notification.sendEmail.callbackUri): every link opens it, with the request's lang")
    func actionURL() throws {
        let test = try TestPlatform()
        let tenant = try tenant(test)
        func link(_ platform: IdentityPlatform, locale: String? = nil) throws -> String {
            var request = SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "ada@example.com", continueUrl: "http://localhost/", returnOobLink: true)
            request.locale = locale
            return try #require(try platform.emailActions.sendOobCode(request, by: .commandLine).oobLink)
        }
        #expect(try link(test.platform).hasPrefix("http://127.0.0.1:9099/__/auth/action?mode=signIn&oobCode="))
        for bad in ["http://app.example.com/action", "https://app.example.com/action?x=1", "https://app.example.com/#a",
                    "javascript:alert(1)", "app.example.com/action", "https://user@app.example.com/"] {
            #expect(wireErrorCode {
                _ = try test.platform.projectConfig.update(
                    ["notification": ["sendEmail": ["callbackUri": .string(bad)]]], updateMask: "notification.sendEmail.callbackUri", by: admin)
            } == .invalidConfig, "\(bad)")
        }
        _ = try test.platform.projectConfig.update(
            json(#"{"notification":{"sendEmail":{"callbackUri":"https://app.example.com/auth/action"}}}"#),
            updateMask: "notification.sendEmail.callbackUri", by: admin)
        for platform in [test.platform, tenant] {
            let url = try link(platform, locale: "fr")
            #expect(url.hasPrefix("https://app.example.com/auth/action?mode=signIn&oobCode="), "\(url)")
            #expect(url.hasSuffix("&continueUrl=http%3A%2F%2Flocalhost%2F&lang=fr"), "\(url)")
        }
        _ = try test.platform.projectConfig.update([:], updateMask: "notification", by: admin)
        #expect(try link(test.platform).hasPrefix("http://127.0.0.1:9099/__/auth/action?"), "cleared: Hearth's page again")
    }

    @Test("email templates from the config API: subject and body with Firebase's placeholders, escaped in HTML; unknown placeholders refused")
    func emailTemplates() throws {
        let sender = EmailActionServiceTests.RecordingEmailSender()
        let test = try TestPlatform(emailSender: sender)
        _ = try test.platform.admin.create(
            try AdminCreateAccountRequest(fields: RequestFields([
                "email": "ada@example.com", "password": "correct horse", "displayName": "Ada <Lovelace>",
            ])), by: admin)
        let service = test.platform.projectConfig
        for (member, bad) in [("subject", "Hi %NAME%"), ("subject", "two\nlines"), ("body", "%LINK% %TOKEN%"),
                              ("bodyFormat", "MARKDOWN"), ("senderLocalPart", "noreply")] {
            #expect(wireErrorCode {
                _ = try service.update(
                    ["notification": ["sendEmail": ["resetPasswordTemplate": [member: .string(bad)]]]], updateMask: nil, by: admin)
            } == .invalidConfig, "\(member): \(bad)")
        }
        _ = try service.update(
            json(#"""
                {"notification":{"sendEmail":{"resetPasswordTemplate":{"subject":"%APP_NAME%: reset for %DISPLAY_NAME%",
                "body":"<p>Hello %DISPLAY_NAME%, 100% sure? <a href=\"%LINK%\">Reset</a> (%EMAIL%)</p>","bodyFormat":"HTML"},
                "changeEmailTemplate":{"body":"Your email became %NEW_EMAIL%. Undo: %LINK%"}}}}
                """#),
            updateMask: "notification.sendEmail.resetPasswordTemplate,notification.sendEmail.changeEmailTemplate", by: admin)
        _ = try test.platform.emailActions.sendOobCode(
            SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "ada@example.com"), by: .user(client: "10.0.0.9"))
        let reset = try #require(sender.messages.last)
        #expect(reset.subject == "test-project: reset for Ada <Lovelace>")
        let link = try #require(reset.action?.link)
        #expect(reset.html == #"<p>Hello Ada &lt;Lovelace&gt;, 100% sure? <a href=""# + HTMLText.escape(link) + #"">Reset</a> (ada@example.com)</p>"#)
        #expect(reset.text.contains(link), "the plain part stays Hearth's, with the link")
        // No template for verification: Hearth's own.
        _ = try test.platform.emailActions.sendOobCode(
            SendOobCodeRequest(requestType: "VERIFY_EMAIL", email: "ada@example.com"), by: .commandLine)
        #expect(sender.messages.last?.subject.hasPrefix("Verify your email for") == true)
        // A plain-text body: the only part, placeholders as they are.
        #expect(CustomEmailTemplate.render("Undo: %LINK% %UNKNOWN 5%", values: ["LINK": "https://x/?a=1&b=2"], html: false)
            == "Undo: https://x/?a=1&b=2 %UNKNOWN 5%")
        let recovery = EmailTemplates.message(
            .recoverEmail, to: "old@example.com", appName: "App", link: "https://x/l", newEmail: "new@example.com",
            custom: try test.platform.emailActions.currentSettings().customTemplates["changeEmailTemplate"])
        #expect(recovery.text == "Your email became new@example.com. Undo: https://x/l" && recovery.html == nil)
    }
}
