import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Project configuration: the mask and merge rules, the service, the file's locks and the 5 s cache")
struct ProjectConfigServiceTests {
    private let admin = Caller(client: nil, actor: AuditTrailTests.serviceAccount)

    private func json(_ text: String) throws -> [String: JSONValue] {
        try #require(try JSONValue(parsing: Data(text.utf8)).objectValue)
    }

    @Test("mask paths: whole objects or their leaves; an unknown or empty path is INVALID_CONFIG")
    func maskPaths() throws {
        #expect(try ProjectConfigRules.maskPaths("mfa") == ["mfa"])
        #expect(try ProjectConfigRules.maskPaths("mfa.state, mfa.providerConfigs,signIn.anonymous.enabled")
            == ["mfa.state", "mfa.providerConfigs", "signIn.anonymous.enabled"])
        for bad in ["", "mfa,", "nope", "mfa.nope", "signIn.anonymous.enabled.x", "mfa.providerConfigs.state",
                    "recaptchaConfig"] {
            #expect(wireErrorCode { _ = try ProjectConfigRules.maskPaths(bad) } == .invalidConfig, "\(bad)")
        }
        #expect(try ProjectConfigRules.leafPaths(of: json(#"{"signIn":{"email":{"enabled":true}},"mfa":{"state":"ENABLED"}}"#))
            == ["mfa.state", "signIn.email.enabled"])
        #expect(try ProjectConfigRules.leafPaths(of: json(#"{"mfa":{"providerConfigs":[]}}"#)) == ["mfa.providerConfigs"])
        #expect(wireErrorCode { _ = try ProjectConfigRules.leafPaths(of: json(#"{"signIn":{"phone":{}}}"#)) }
            == .invalidConfig)
    }

    @Test("merge: a masked path takes the request's value or is cleared; others are kept; arrays are replaced")
    func merge() throws {
        let stored = try json(#"{"signIn":{"anonymous":{"enabled":false},"email":{"enabled":false}},"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#)
        let request = try json(#"{"signIn":{"email":{"enabled":true}},"mfa":{"enabledProviders":[]}}"#)
        let merged = ProjectConfigRules.merged(
            stored, with: request, paths: ["signIn.email.enabled", "mfa.enabledProviders", "signIn.anonymous.enabled"])
        #expect(merged == (try json(#"{"signIn":{"email":{"enabled":true}},"mfa":{"state":"ENABLED","enabledProviders":[]}}"#)))
        // A whole object named: replaced by the request's (cleared when the request has none).
        #expect(ProjectConfigRules.merged(stored, with: request, paths: ["mfa"])["mfa"] == request["mfa"])
        #expect(ProjectConfigRules.merged(stored, with: [:], paths: ["mfa"])["mfa"] == nil)
        #expect(ProjectConfigRules.overlap("mfa", "mfa.state") && ProjectConfigRules.overlap("mfa.state", "mfa"))
        #expect(ProjectConfigRules.object(setting: "signIn.anonymous.enabled", to: false) == (try json(#"{"signIn":{"anonymous":{"enabled":false}}}"#)))
        #expect(!ProjectConfigRules.overlap("mfa.state", "mfa.stateX") && !ProjectConfigRules.overlap("signIn", "mfa"))
    }

    @Test("values: booleans, MFA, password policy and SMS region shapes; duplicate emails refused")
    func values() throws {
        #expect(throws: Never.self) {
            try ProjectConfigRules.check(json(#"{"signIn":{"anonymous":{"enabled":false}},"mfa":{"state":"ENABLED","providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":3}}]}}"#))
        }
        for bad in [#"{"signIn":{"anonymous":{"enabled":"no"}}}"#, #"{"signIn":{"allowDuplicateEmails":true}}"#,
                    #"{"mfa":{"state":"SOMETIMES"}}"#,
                    #"{"mfa":{"providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":11}}]}}"#,
                    #"{"authorizedDomains":[""]}"#, #"{"signIn":{"anonymous":true}}"#,
                    #"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["usa"]}}}"#] {
            #expect(wireErrorCode { try ProjectConfigRules.check(json(bad)) } == .invalidConfig, "\(bad)")
        }
    }

    @Test("GET: the defaults while nothing was set, with the resource name")
    func defaults() throws {
        let test = try TestPlatform(mfa: .allFactors)
        let config = try test.platform.projectConfig.get()
        #expect(config["name"] == "projects/test-project/config")
        #expect(ProjectConfigRules.value(in: config, at: "signIn.anonymous.enabled") == true)
        #expect(ProjectConfigRules.value(in: config, at: "signIn.email.enabled") == true)
        #expect(ProjectConfigRules.value(in: config, at: "mfa.state") == "ENABLED")
        #expect(ProjectConfigRules.value(in: config, at: "mfa.enabledProviders") == ["PHONE_SMS"])
        #expect(try test.platform.configSettings() == ProjectSettings(switches: .allAllowed, mfa: .allFactors))
    }

    @Test("PATCH: the masked paths change and are audited with the mask, never a value; the settings follow at once")
    func update() throws {
        let test = try TestPlatform(mfa: .allFactors)
        let service = test.platform.projectConfig
        _ = try test.platform.configSettings()
        let answered = try service.update(
            json(#"{"signIn":{"anonymous":{"enabled":false},"email":{"enabled":true,"passwordRequired":true}}}"#),
            updateMask: "signIn.anonymous.enabled,signIn.email.passwordRequired", by: admin)
        #expect(ProjectConfigRules.value(in: answered, at: "signIn.anonymous.enabled") == false)
        #expect(ProjectConfigRules.value(in: answered, at: "signIn.email.passwordRequired") == true)
        let switches = try test.platform.configSettings().switches
        #expect(!switches.anonymous && switches.password && !switches.emailLink, "seen at once on the writing instance")
        let events = try test.store.read { try $0.auditEvents(AuditQuery(kind: .projectConfigUpdated, limit: 10)) }
        #expect(events.map(\.detail) == ["fields=signIn.anonymous.enabled,signIn.email.passwordRequired"])
        // Without a mask: the paths the request gives. Go's shape: mask `mfa`, the whole object; the fields it leaves
        // out keep their defaults (here --dev's SMS factor).
        _ = try service.update(json(#"{"signIn":{"anonymous":{"enabled":true}}}"#), updateMask: nil, by: admin)
        #expect(try test.platform.configSettings().switches.anonymous)
        _ = try service.update(
            json(#"{"mfa":{"state":"ENABLED","providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":4}}]}}"#),
            updateMask: "mfa", by: admin)
        let mfa = try test.platform.configSettings().mfa
        #expect(mfa == MFAPolicy(enabled: true, factors: [.phone, .totp], totpAdjacentIntervals: 4))
        _ = try service.update(json(#"{"mfa":{"state":"DISABLED"}}"#), updateMask: "mfa.state", by: admin)
        #expect(try test.platform.configSettings().mfa == MFAPolicy(enabled: true, factors: [.totp], totpAdjacentIntervals: 4),
                "mfa.state governs SMS; TOTP has its own state")
        #expect(wireErrorCode { _ = try service.update([:], updateMask: "nope", by: admin) } == .invalidConfig)
        #expect(wireErrorCode {
            _ = try service.update(json(#"{"mfa":{"state":"SOMETIMES"}}"#), updateMask: "mfa.state", by: admin)
        } == .invalidConfig)
        #expect(try test.platform.configSettings().mfa.factors == [.totp], "a refused update changes nothing")
    }

    @Test("the file wins: a declared path is answered from the file and refused by PATCH, naming the key")
    func locks() throws {
        let file = FileDeclaredConfig(
            settings: [
                "signIn": ["anonymous": ["enabled": false]], "mfa": ProjectSettings.wire(.disabled),
                "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false], "authorizedDomains": ["localhost"],
                "passwordPolicyConfig": PasswordPolicy.firebaseDefault.configForm,
            ],
            keys: [
                "signIn.anonymous.enabled": "signIn.anonymous.enabled", "mfa": "mfa", "emailPrivacyConfig": "emailPrivacy",
                "authorizedDomains": "emailActions.authorizedDomains", "passwordPolicyConfig": "passwords.policy",
            ])
        let test = try TestPlatform(mfa: .allFactors, fileConfig: file)
        let service = test.platform.projectConfig
        for (mask, key) in [("signIn.anonymous.enabled", "signIn.anonymous.enabled"), ("signIn", "signIn.anonymous.enabled"),
                            ("mfa.state", "mfa"), ("mfa", "mfa"), ("emailPrivacyConfig.enableImprovedEmailPrivacy", "emailPrivacy"),
                            ("authorizedDomains", "emailActions.authorizedDomains"),
                            ("passwordPolicyConfig.passwordPolicyEnforcementState", "passwords.policy")] {
            var refusal: WireError?
            do { _ = try service.update([:], updateMask: mask, by: admin) } catch let error as WireError { refusal = error }
            #expect(refusal?.code == .operationNotAllowed, "\(mask)")
            #expect(refusal?.detail?.contains("declared by the config file (\(key))") == true, "\(mask)")
        }
        // What the console shows as locked: the locked path overlapping the one asked about, and its file key.
        #expect(service.lock(of: "signIn").map { [$0.path, $0.key] } == ["signIn.anonymous.enabled", "signIn.anonymous.enabled"])
        #expect(service.lock(of: "mfa.providerConfigs").map { [$0.path, $0.key] } == ["mfa", "mfa"])
        #expect(service.lock(of: "authorizedDomains")?.key == "emailActions.authorizedDomains")
        #expect(service.lock(of: "signIn.email.enabled") == nil)
        // A path beside the locked ones changes.
        _ = try service.update(json(#"{"signIn":{"email":{"enabled":false}}}"#), updateMask: "signIn.email.enabled", by: admin)
        let config = try service.get()
        #expect(ProjectConfigRules.value(in: config, at: "signIn.anonymous.enabled") == false)
        #expect(ProjectConfigRules.value(in: config, at: "mfa.state") == "DISABLED")
        #expect(ProjectConfigRules.value(in: config, at: "signIn.email.enabled") == false)
        // A value stored before the file declared the path is not what is answered.
        try test.store.write {
            try $0.putProjectConfig(ProjectConfigRecord(settings: #"{"signIn":{"anonymous":{"enabled":true}}}"#, updatedAtMillis: 1))
        }
        #expect(ProjectConfigRules.value(in: try service.get(), at: "signIn.anonymous.enabled") == false)
        #expect(try test.platform.configSettings().mfa.enabled == false)
        #expect(try test.platform.configSettings().emailEnumerationProtection == false)
        #expect(try test.platform.configSettings().authorizedDomains == nil, "the file's list is the configured one")
    }

    @Test("without the file declaring them, the password policy, email privacy and authorized domains are the API's to change")
    func fileSilent() throws {
        let test = try TestPlatform()
        let service = test.platform.projectConfig
        for path in ["passwordPolicyConfig", "emailPrivacyConfig.enableImprovedEmailPrivacy", "authorizedDomains"] {
            #expect(service.lock(of: path) == nil, "\(path)")
        }
        let config = try service.get()
        #expect(ProjectConfigRules.value(in: config, at: "passwordPolicyConfig.passwordPolicyEnforcementState") == "OFF")
        #expect(ProjectConfigRules.value(in: config, at: "emailPrivacyConfig.enableImprovedEmailPrivacy") == true)
        _ = try service.update(
            json(#"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false},"authorizedDomains":["app.example.com"]}"#),
            updateMask: nil, by: admin)
        let settings = try test.platform.configSettings()
        #expect(!settings.emailEnumerationProtection && settings.authorizedDomains == ["app.example.com"])
        for bad in [#"{"passwordPolicyConfig":{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":20,"maxPasswordLength":12}}]}}"#,
                    #"{"authorizedDomains":["app.example.com:8443"]}"#, #"{"authorizedDomains":["*.example.com"]}"#] {
            #expect(wireErrorCode { _ = try service.update(json(bad), updateMask: nil, by: admin) } == .invalidConfig, "\(bad)")
        }
    }

    @Test("the cache: a change written around this instance is seen within 5 s, not before")
    func cache() throws {
        let test = try TestPlatform()
        #expect(try test.platform.configSettings().switches.anonymous)
        try test.store.write {
            try $0.putProjectConfig(ProjectConfigRecord(settings: #"{"signIn":{"anonymous":{"enabled":false}}}"#, updatedAtMillis: 1))
        }
        #expect(try test.platform.configSettings().switches.anonymous, "still cached")
        test.time.advance(by: 5)
        #expect(try !test.platform.configSettings().switches.anonymous)
    }

    @Test("the project's switches refuse with Firebase's codes, the same rule as a tenant's")
    func switches() throws {
        let project = ProjectSettings(
            effective: try json(#"{"signIn":{"anonymous":{"enabled":false},"email":{"enabled":false}}}"#)).switches
        #expect(wireErrorCode { try project.permit(.signUp(withPassword: false)) } == .adminOnlyOperation)
        #expect(wireErrorCode { try project.permit(.signUp(withPassword: true)) } == .operationNotAllowed)
        #expect(wireErrorCode { try project.permit(.passwordSignIn) } == .passwordLoginDisabled)
        #expect(wireErrorCode { try project.permit(.emailLinkSignIn) } == .operationNotAllowed)
        let linkless = ProjectSettings(effective: try json(#"{"signIn":{"email":{"passwordRequired":true}}}"#)).switches
        #expect(wireErrorCode { try linkless.permit(.emailLinkSignIn) } == .operationNotAllowed)
        #expect(wireErrorCode { try linkless.permit(.passwordSignIn) } == nil)
        let tenant = Tenant(id: "t", allowPasswordSignup: false, enableAnonymousUser: false, createdAtMillis: 0, updatedAtMillis: 0)
        #expect(tenant.switches.disabled == false && tenant.switches.password == project.password)
    }
    @Test("a tenant's settings are its own record's: its mfaConfig and switches, not the project's; a gone tenant has none")
    func tenantSettings() throws {
        let test = try TestPlatform(mfa: .allFactors)
        let made = try test.platform.tenants.create(
            TenantFields(fields: RequestFields([
                "displayName": "Totp-Tenant", "allowPasswordSignup": true,
                "mfaConfig": .object([
                    "state": "ENABLED",
                    "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 3]]],
                ]),
            ])), by: .system)
        let id = String(made.name.split(separator: "/").last ?? "")
        let tenant = test.platform.scoped(to: try StoreScope.tenant(id))
        let settings = try tenant.configSettings()
        #expect(settings.mfa == MFAPolicy(enabled: true, factors: [.totp], totpAdjacentIntervals: 3))
        #expect(settings.switches.password && !settings.switches.anonymous && settings.switches.subject == "this tenant")
        #expect(try test.platform.configSettings().mfa == .allFactors, "the project keeps its own")
        let plain = try test.platform.tenants.create(
            TenantFields(fields: RequestFields(["displayName": "Plain-Tenant"])), by: .system)
        let plainID = String(plain.name.split(separator: "/").last ?? "")
        #expect(try test.platform.scoped(to: try StoreScope.tenant(plainID)).configSettings().mfa.enabled == false)
        let gone = try test.platform.scoped(to: try StoreScope.tenant("no-such-tenant")).configSettings()
        #expect(gone.switches.disabled && !gone.mfa.enabled)
    }
}
