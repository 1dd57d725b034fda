import Foundation
import HearthCore
import Testing

/// The project configuration API on the built `hearth serve --dev`, with the exact requests the Admin SDKs send:
/// Go's `UpdateProjectConfig` (`PATCH …/config?updateMask=mfa`, the whole object) and Node's
/// `projectConfigManager().updateProjectConfig` (leaf paths, `mfa.state,mfa.enabledProviders,mfa.providerConfigs`),
/// the emulator's `/emulator/v1/projects/{p}/config`, each sign-in switch enforced on the client calls the Firebase
/// SDKs make, the MFA policy and TOTP `adjacentIntervals` used by enrolment, and the config file's locks.
/// (firebase-admin for Python has no project-configuration API.)
@Suite("Project configuration API against hearth serve --dev (e2e)", .blocking)
struct ProjectConfigAPITests {
    static let owner = [("Authorization", "Bearer owner"), ("Content-Type", "application/json")]
    static let config = "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/config"
    static let v1 = "/identitytoolkit.googleapis.com/v1"

    static func patch(_ server: HearthProcess, _ mask: String, _ body: [String: Any], path: String = config) throws
        -> HTTPResult
    {
        try server.request(
            "PATCH", "\(path)?updateMask=\(mask)", headers: owner, body: try JSONSerialization.data(withJSONObject: body))
    }

    static func client(_ server: HearthProcess, _ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON("\(v1)/accounts:\(name)?key=web-key", body)
    }

    @Test("GET and PATCH with Go's and Node's shapes")
    func sdkShapes() throws {
        let server = HearthProcess()
        try server.start()
        let read = try server.request("GET", Self.config, headers: Self.owner)
        #expect(read.status == 200, "\(read.text)")
        #expect(read.json["name"] as? String == "projects/demo-hearth/config")
        #expect((read.json["mfa"] as? [String: Any])?["state"] as? String == "ENABLED", "--dev allows both factors")
        #expect(((read.json["signIn"] as? [String: Any])?["anonymous"] as? [String: Any])?["enabled"] as? Bool == true)
        #expect((read.json["passwordPolicyConfig"] as? [String: Any])?["passwordPolicyEnforcementState"] as? String == "OFF",
                "Firebase's default policy, as the file leaves it: \(read.text)")
        #expect((read.json["authorizedDomains"] as? [String])?.contains("localhost") == true)

        // Go: ProjectConfigToUpdate.MultiFactorConfig(...) sends the whole `mfa` under the mask `mfa`.
        let go = try Self.patch(server, "mfa", [
            "mfa": ["providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 5]]]],
        ])
        #expect(go.status == 200, "\(go.text)")
        let goMFA = try #require(go.json["mfa"] as? [String: Any])
        #expect(((goMFA["providerConfigs"] as? [[String: Any]])?.first?["totpProviderConfig"] as? [String: Any])?["adjacentIntervals"] as? Int == 5)

        // Node: generateUpdateMask over the request's object (arrays are leaves).
        let node = try Self.patch(server, "mfa.state,mfa.enabledProviders,mfa.providerConfigs", [
            "mfa": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"], "providerConfigs": [] as [Any]],
        ])
        #expect(node.status == 200, "\(node.text)")
        #expect((node.json["mfa"] as? [String: Any])?["enabledProviders"] as? [String] == ["PHONE_SMS"])
        let again = try server.request("GET", Self.config, headers: Self.owner)
        #expect(((again.json["mfa"] as? [String: Any])?["providerConfigs"] as? [Any])?.isEmpty == true, "\(again.text)")

        #expect(server.stop() == 0)
    }

    @Test("the password policy, email privacy and authorized domains through the API: enforced on the SDKs' requests")
    func accountRules() throws {
        let server = HearthProcess()
        try server.start()
        let unknown = ["email": "nobody@example.com", "password": "whatever1", "returnSecureToken": true] as [String: Any]
        #expect(try Self.client(server, "signInWithPassword", unknown).errorMessage == "INVALID_LOGIN_CREDENTIALS")
        let privacy = try Self.patch(server, "emailPrivacyConfig.enableImprovedEmailPrivacy", [
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false],
        ])
        #expect(privacy.status == 200, "\(privacy.text)")
        #expect(try Self.client(server, "signInWithPassword", unknown).errorMessage?.hasPrefix("EMAIL_NOT_FOUND") == true)

        // Node's updateProjectConfig({passwordPolicyConfig: …}): the leaf paths of the object.
        let policy = try Self.patch(
            server, "passwordPolicyConfig.passwordPolicyEnforcementState,passwordPolicyConfig.passwordPolicyVersions",
            ["passwordPolicyConfig": [
                "passwordPolicyEnforcementState": "ENFORCE",
                "passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 10, "containsNumericCharacter": true]]],
            ]])
        #expect(policy.status == 200, "\(policy.text)")
        let published = try server.request("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=web-key")
        #expect(published.json["enforcementState"] as? String == "ENFORCE", "\(published.text)")
        let weak = try Self.client(server, "signUp", ["email": "ada@example.com", "password": "abcdefghij", "returnSecureToken": true])
        #expect(weak.errorMessage?.hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS") == true, "\(weak.text)")
        let strong = try Self.client(server, "signUp", ["email": "ada@example.com", "password": "abcdefghi1", "returnSecureToken": true])
        #expect(strong.status == 200, "\(strong.text)")

        let domains = try Self.patch(server, "authorizedDomains", ["authorizedDomains": ["app.example.com"]])
        #expect(domains.status == 200, "\(domains.text)")
        let listed = try server.request("GET", "\(Self.v1)/projects?key=web-key")
        #expect(listed.json["authorizedDomains"] as? [String] == ["app.example.com"], "\(listed.text)")
        func link(_ url: String) throws -> HTTPResult {
            try Self.client(server, "sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com", "continueUrl": url])
        }
        let allowed = try link("https://app.example.com/done")
        #expect(allowed.status == 200, "\(allowed.text)")
        let elsewhere = try link("http://localhost/done")
        #expect(elsewhere.errorMessage?.hasPrefix("UNAUTHORIZED_DOMAIN") == true, "the list is replaced: \(elsewhere.text)")
        #expect(server.stop() == 0)
    }

    @Test("unknown paths and values are INVALID_CONFIG; only administrators read or change the configuration")
    func refusals() throws {
        let server = HearthProcess()
        try server.start()
        for (mask, body) in [("recaptchaConfig", ["recaptchaConfig": [:]] as [String: Any]), ("mfa.nope", [:]),
                             ("mfa.state", ["mfa": ["state": "SOMETIMES"]])] {
            let refused = try Self.patch(server, mask, body)
            #expect(refused.status == 400 && refused.errorMessage?.hasPrefix("INVALID_CONFIG") == true, "\(mask): \(refused.text)")
        }
        let anonymous = try server.request("GET", Self.config)
        #expect(anonymous.status == 401 || anonymous.status == 403, "\(anonymous.text)")
        let keyed = try server.request("GET", "\(Self.config)?key=web-key")
        #expect(keyed.status == 401 || keyed.status == 403, "an API key is no admin credential: \(keyed.text)")
        #expect(server.stop() == 0)
    }

    @Test("each sign-in switch is enforced with Firebase's codes on the SDKs' requests")
    func switches() throws {
        let server = HearthProcess()
        try server.start()
        let ios = FirebaseIOSClient(server: server)
        #expect(try ios.signUpAnonymously().status == 200)
        #expect(try Self.client(server, "signUp", ["email": "before@example.com", "password": "password-1", "returnSecureToken": true]).status == 200)

        #expect(try Self.patch(server, "signIn.anonymous.enabled", ["signIn": ["anonymous": ["enabled": false]]]).status == 200)
        let anonymous = try ios.signUpAnonymously()
        #expect(anonymous.errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true, "\(anonymous.text)")
        let webAnonymous = try Self.client(server, "signUp", ["returnSecureToken": true])
        #expect(webAnonymous.errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true, "\(webAnonymous.text)")
        #expect(try Self.client(server, "signUp", ["email": "still@example.com", "password": "password-1"]).status == 200)
        // A tenant keeps its own switches: the project's do not apply to calls naming it.
        let made = try server.postJSON(
            "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants",
            ["displayName": "Own-Switches", "enableAnonymousUser": true], headers: Self.owner)
        let tenant = try #require((made.json["name"] as? String)?.split(separator: "/").last.map(String.init), "\(made.text)")
        let tenantAnonymous = try Self.client(server, "signUp", ["returnSecureToken": true, "tenantId": tenant])
        #expect(tenantAnonymous.status == 200, "\(tenantAnonymous.text)")

        #expect(try Self.patch(server, "signIn.email.enabled", ["signIn": ["email": ["enabled": false]]]).status == 200)
        let signUp = try Self.client(server, "signUp", ["email": "new@example.com", "password": "password-1", "returnSecureToken": true])
        #expect(signUp.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(signUp.text)")
        let signIn = try Self.client(server, "signInWithPassword", [
            "email": "before@example.com", "password": "password-1", "returnSecureToken": true,
        ])
        #expect(signIn.errorMessage?.hasPrefix("PASSWORD_LOGIN_DISABLED") == true, "\(signIn.text)")

        #expect(try Self.patch(server, "signIn.email", [
            "signIn": ["email": ["enabled": true, "passwordRequired": true]],
        ]).status == 200)
        #expect(try Self.client(server, "signInWithPassword", [
            "email": "before@example.com", "password": "password-1", "returnSecureToken": true,
        ]).status == 200)
        let link = try Self.client(server, "signInWithEmailLink", ["email": "before@example.com", "oobCode": "any-code"])
        #expect(link.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(link.text)")
        let send = try Self.client(server, "sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": "before@example.com", "continueUrl": "http://localhost/done",
        ])
        #expect(send.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(send.text)")

        // Each answered GET shows what is enforced.
        let read = try server.request("GET", Self.config, headers: Self.owner)
        let signInConfig = try #require(read.json["signIn"] as? [String: Any])
        #expect((signInConfig["anonymous"] as? [String: Any])?["enabled"] as? Bool == false)
        #expect((signInConfig["email"] as? [String: Any])?["passwordRequired"] as? Bool == true)
        #expect(server.stop() == 0)
    }

    @Test("the MFA policy, TOTP adjacentIntervals and the SMS region policy of the configuration are used by enrolment")
    func mfa() throws {
        let server = HearthProcess()
        try server.start()
        let client = MFATests.Client(server: server)
        let session = try SignedIn(try client.signIn("mfa-config@example.com"))
        func enrol(stepOffset: Int64) throws -> HTTPResult {
            let start = try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "totpEnrollmentInfo": [:]])
            guard let info = start.json["totpSessionInfo"] as? [String: Any], let secret = info["sharedSecretKey"] as? String
            else { return start }
            return try client.v2("mfaEnrollment:finalize", [
                "idToken": session.idToken,
                "totpVerificationInfo": [
                    "sessionInfo": info["sessionInfo"]!, "verificationCode": MFATests.totpCode(secret, stepOffset: stepOffset),
                ],
            ])
        }
        #expect(try Self.patch(server, "mfa", [
            "mfa": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"], "providerConfigs": [] as [Any]],
        ]).status == 200)
        let off = try enrol(stepOffset: 0)
        #expect(off.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "no TOTP provider: \(off.text)")
        func totp(_ intervals: Int) throws {
            let answer = try Self.patch(server, "mfa.providerConfigs", [
                "mfa": ["providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": intervals]]]],
            ])
            #expect(answer.status == 200, "\(answer.text)")
        }
        // A code two steps old: refused with no adjacent interval; three steps old: accepted with five.
        try totp(0)
        let strict = try enrol(stepOffset: -2)
        #expect(strict.errorMessage?.hasPrefix("INVALID_CODE") == true, "\(strict.text)")
        try totp(5)
        let lenient = try enrol(stepOffset: -3)
        #expect(lenient.status == 200, "\(lenient.text)")
        #expect(try Self.patch(server, "mfa.providerConfigs", [
            "mfa": ["providerConfigs": [["state": "DISABLED", "totpProviderConfig": ["adjacentIntervals": 5]]]],
        ]).status == 200)
        let disabled = try enrol(stepOffset: 0)
        #expect(disabled.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(disabled.text)")

        // The SMS region policy, as Node sends it (leaf paths): no code to a region it does not allow.
        #expect(try Self.patch(server, "smsRegionConfig.allowlistOnly.allowedRegions", [
            "smsRegionConfig": ["allowlistOnly": ["allowedRegions": ["CA"]]],
        ]).status == 200)
        func startPhone(_ number: String) throws -> HTTPResult {
            try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": number]])
        }
        let us = try startPhone("+14155550100")
        #expect(us.errorMessage == "OPERATION_NOT_ALLOWED : SMS unable to be sent until this region enabled by the app developer", "\(us.text)")
        let canada = try startPhone("+14165550100")
        #expect((canada.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] is String, "\(canada.text)")
        #expect(server.stop() == 0)
    }

    @Test("the emulator's /emulator/v1/projects/{p}/config: its fields, duplicate emails and blocking functions refused")
    func emulatorShape() throws {
        let server = HearthProcess()
        try server.start()
        let path = "/emulator/v1/projects/demo-hearth/config"
        let read = try server.request("GET", path, headers: Self.owner)
        #expect(read.status == 200, "\(read.text)")
        #expect((read.json["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool == false)
        #expect((read.json["blockingFunctions"] as? [String: Any])?.isEmpty == true)
        #expect((read.json["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == true)
        let same = try Self.patch(server, "signIn.allowDuplicateEmails", ["signIn": ["allowDuplicateEmails": false]], path: path)
        #expect(same.status == 200 && (same.json["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool == false, "\(same.text)")
        let duplicates = try Self.patch(server, "signIn.allowDuplicateEmails", ["signIn": ["allowDuplicateEmails": true]], path: path)
        #expect(duplicates.errorMessage?.hasPrefix("INVALID_CONFIG") == true, "\(duplicates.text)")
        let functions = try Self.patch(server, "blockingFunctions", [
            "blockingFunctions": ["triggers": ["beforeCreate": ["functionUri": "http://localhost/f"]]],
        ], path: path)
        #expect(functions.errorMessage?.hasPrefix("INVALID_CONFIG") == true, "\(functions.text)")
        let none = try Self.patch(server, "blockingFunctions", ["blockingFunctions": [:] as [String: Any]], path: path)
        #expect(none.status == 200 && (none.json["blockingFunctions"] as? [String: Any])?.isEmpty == true, "\(none.text)")
        #expect(server.stop() == 0)
    }

    @Test("the config file wins: its signIn switches, mfa, password policy, email privacy and domains are answered, enforced and locked, naming the key")
    func fileLocks() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        try Data(#"{"signIn":{"anonymous":{"enabled":false},"phoneNumber":{"testPhoneNumbers":{"+15555550111":"424242"}}},"mfa":{"enabled":true,"factors":["phone"]},"passwords":{"policy":{"enforcementState":"ENFORCE","minLength":10}},"emailPrivacy":{"enableImprovedEmailPrivacy":true},"emailActions":{"authorizedDomains":["app.example.com"],"actionUrl":"https://app.example.com/action"}}"#.utf8).write(to: file)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"signIn":{"anonymous":{"enable":false}}}"#.utf8).write(to: bad)
        let refused = try HearthProcess.run(["serve", "--dev", "--config", bad.path, "--data-dir", directory.path])
        #expect(refused.status == 64 && refused.output.contains("signIn.anonymous.enable"), "\(refused.output)")
        try Data(#"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+15555550111":"4242"}}}}"#.utf8).write(to: bad)
        let badCode = try HearthProcess.run(["serve", "--dev", "--config", bad.path, "--data-dir", directory.path])
        #expect(badCode.status == 64 && badCode.output.contains("signIn.phoneNumber.testPhoneNumbers"), "\(badCode.output)")

        let server = HearthProcess(arguments: ["--dev", "--config", file.path], dataDirectory: directory)
        try server.start()
        let read = try server.request("GET", Self.config, headers: Self.owner)
        #expect(((read.json["signIn"] as? [String: Any])?["anonymous"] as? [String: Any])?["enabled"] as? Bool == false)
        #expect((read.json["mfa"] as? [String: Any])?["providerConfigs"] as? [Any] == nil
            || ((read.json["mfa"] as? [String: Any])?["providerConfigs"] as? [Any])?.isEmpty == true, "\(read.text)")
        let phone = ((read.json["signIn"] as? [String: Any])?["phoneNumber"] as? [String: Any])?["testPhoneNumbers"] as? [String: String]
        #expect(phone == ["+15555550111": "424242"], "\(read.text)")
        let policy = try #require(read.json["passwordPolicyConfig"] as? [String: Any])
        #expect(policy["passwordPolicyEnforcementState"] as? String == "ENFORCE")
        #expect(((policy["passwordPolicyVersions"] as? [[String: Any]])?.first?["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 10)
        let anonymous = try FirebaseIOSClient(server: server).signUpAnonymously()
        #expect(anonymous.errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true, "\(anonymous.text)")
        for (mask, body, key) in [
            ("signIn.anonymous.enabled", ["signIn": ["anonymous": ["enabled": true]]] as [String: Any], "signIn.anonymous.enabled"),
            ("mfa", ["mfa": ["state": "DISABLED"]], "mfa"),
            ("passwordPolicyConfig.passwordPolicyEnforcementState", ["passwordPolicyConfig": ["passwordPolicyEnforcementState": "OFF"]],
             "passwords.policy"),
            ("emailPrivacyConfig.enableImprovedEmailPrivacy", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]],
             "emailPrivacy"),
            ("authorizedDomains", ["authorizedDomains": ["evil.example"]], "emailActions.authorizedDomains"),
            ("signIn.phoneNumber.testPhoneNumbers", ["signIn": ["phoneNumber": ["testPhoneNumbers": [:] as [String: Any]]]],
             "signIn.phoneNumber.testPhoneNumbers"),
            ("notification.sendEmail.callbackUri", ["notification": ["sendEmail": ["callbackUri": "https://evil.example/a"]]],
             "emailActions.actionUrl"),
        ] {
            let locked = try Self.patch(server, mask, body)
            #expect(locked.status == 400 && locked.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(locked.text)")
            #expect(locked.errorMessage?.contains("declared by the config file (\(key))") == true, "\(locked.text)")
        }
        #expect(try Self.patch(server, "signIn.email.enabled", ["signIn": ["email": ["enabled": false]]]).status == 200)
        #expect(server.stop() == 0)
    }
}
