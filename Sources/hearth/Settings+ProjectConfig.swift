import HearthCommandLine
import HearthCore
import HearthProtocol

extension Settings {
    /// `"signIn": {"anonymous": {"enabled": false}, "email": {"enabled": true, "passwordRequired": false},
    /// "phoneNumber": {"testPhoneNumbers": {"+15555550100": "123456"}}}`: the project's sign-in switches and test
    /// phone numbers, as the config API names them (docs/CONFIGURATION.md, "Project configuration"). Each setting the
    /// file gives is locked in the config API.
    struct SignInFile: Decodable {
        struct Switch: Decodable {
            var enabled: Bool?
        }
        struct Email: Decodable {
            var enabled: Bool?
            var passwordRequired: Bool?
        }
        struct PhoneNumber: Decodable {
            var testPhoneNumbers: [String: String]?
        }
        var anonymous: Switch?
        var email: Email?
        var phoneNumber: PhoneNumber?

        static let keys: Set<String> = ["anonymous", "email", "phoneNumber"]
        static let phoneNumberKeys: Set<String> = ["testPhoneNumbers"]
        static let switchKeys: Set<String> = ["enabled"]
        static let emailKeys: Set<String> = ["enabled", "passwordRequired"]
    }

    /// Refuses unknown keys of `signIn` and its objects.
    static func checkSignInKeys(in object: [String: Any], path: String) throws {
        try checkKeys(of: "signIn", in: object, known: SignInFile.keys, path: path)
        guard let signIn = object["signIn"] as? [String: Any] else { return }
        try checkKeys(of: "anonymous", in: signIn, known: SignInFile.switchKeys, path: path, prefix: "signIn.")
        try checkKeys(of: "email", in: signIn, known: SignInFile.emailKeys, path: path, prefix: "signIn.")
        try checkKeys(of: "phoneNumber", in: signIn, known: SignInFile.phoneNumberKeys, path: path, prefix: "signIn.")
    }

    /// The file's test phone numbers, as the config API checks them (at most ten E.164 numbers, six-digit codes).
    func checkTestPhoneNumbers() throws {
        guard let numbers = signIn?.phoneNumber?.testPhoneNumbers else { return }
        do {
            try ProjectConfigRules.check(["signIn": ["phoneNumber": ["testPhoneNumbers": .object(numbers.mapValues(JSONValue.string))]]])
        } catch let error as WireError {
            throw UsageError("config signIn.phoneNumber.testPhoneNumbers: \(error.detail ?? error.code.rawValue)")
        }
    }

    /// The config API settings the file declares (locked there): `signIn`'s switches as given, the MFA policy
    /// when `mfa` (or `HEARTH_MFA`) sets it, the password policy when `passwords.policy` gives one, email privacy
    /// when `emailPrivacy` (or `HEARTH_EMAIL_ENUMERATION_PROTECTION`) sets it, and the authorized domains when
    /// `emailActions.authorizedDomains` lists them (`emailActions`' list then enforced: those and the defaults).
    func fileDeclaredConfig(emailActions actions: EmailActionSettings) -> FileDeclaredConfig {
        var declared = FileDeclaredConfig()
        if passwords.policyDeclared {
            declared.settings["passwordPolicyConfig"] = passwords.policy.configForm
            declared.keys["passwordPolicyConfig"] = "passwords.policy"
        }
        if let source = passwordSignIn.emailPrivacySource {
            declared.settings["emailPrivacyConfig"] = [
                "enableImprovedEmailPrivacy": .bool(passwordSignIn.emailEnumerationProtection)
            ]
            declared.keys["emailPrivacyConfig"] = source
        }
        if let url = emailActions.actionUrl {
            declared.settings["notification"] = ["sendEmail": ["callbackUri": .string(url)]]
            declared.keys["notification.sendEmail.callbackUri"] = "emailActions.actionUrl"
        }
        if emailActions.authorizedDomains != nil {
            declared.settings["authorizedDomains"] = .array(actions.authorizedDomainList.map(JSONValue.string))
            declared.keys["authorizedDomains"] = "emailActions.authorizedDomains"
        }
        let switches: [(String, Bool?)] = [
            ("signIn.anonymous.enabled", signIn?.anonymous?.enabled), ("signIn.email.enabled", signIn?.email?.enabled),
            ("signIn.email.passwordRequired", signIn?.email?.passwordRequired),
        ]
        for (path, value) in switches {
            guard let value else { continue }
            declared.settings = ProjectConfigRules.merged(
                declared.settings, with: ProjectConfigRules.object(setting: path, to: .bool(value)), paths: [path])
            declared.keys[path] = path
        }
        if let numbers = signIn?.phoneNumber?.testPhoneNumbers {
            let path = "signIn.phoneNumber.testPhoneNumbers"
            declared.settings = ProjectConfigRules.merged(
                declared.settings,
                with: ProjectConfigRules.object(setting: path, to: .object(numbers.mapValues(JSONValue.string))), paths: [path])
            declared.keys[path] = path
        }
        if mfaFactors != nil {
            declared.settings["mfa"] = ProjectSettings.wire(mfaPolicy)
            declared.keys["mfa"] = "mfa"
        }
        return declared
    }
}
