import HearthCommandLine
import HearthCore

extension Settings {
    /// Password sign-in's settings (docs/CONFIGURATION.md, "Password sign-in"): email enumeration protection
    /// (`emailPrivacy` in the config file, `HEARTH_EMAIL_ENUMERATION_PROTECTION`) and the wrong-password lockouts
    /// (`passwordLockout`).
    struct PasswordSignInSettings {
        var emailEnumerationProtection = true
        /// What set `emailEnumerationProtection` (the file's key or the variable); nil: the default, which the
        /// config API may change.
        var emailPrivacySource: String?
        var lockouts = PasswordLockouts()
    }

    /// `"emailPrivacy": {"enableImprovedEmailPrivacy": true}`, as Firebase's project setting names it.
    struct EmailPrivacySettings: Decodable {
        var enableImprovedEmailPrivacy: Bool?

        static let keys: Set<String> = ["enableImprovedEmailPrivacy"]
    }

    /// `"passwordLockout": {"perEmail": {…}, "perClient": {…}}`.
    struct PasswordLockoutSettings: Decodable {
        var perEmail: LockoutWindowSettings?
        var perClient: LockoutWindowSettings?

        static let keys: Set<String> = ["perEmail", "perClient"]
    }

    /// `{"burst": 10, "lockoutSeconds": 60, "maxPerWindow": 100, "windowSeconds": 3600}`: wrong attempts in a row
    /// before a lockout (doubling within the window), and at most `maxPerWindow` a window.
    struct LockoutWindowSettings: Decodable {
        var burst: Int
        var lockoutSeconds: Int64
        var maxPerWindow: Int
        var windowSeconds: Int64

        static let keys: Set<String> = ["burst", "lockoutSeconds", "maxPerWindow", "windowSeconds"]

        func lockout(name: String) throws -> FailureLockout {
            guard burst >= 1, lockoutSeconds >= 1, maxPerWindow >= burst, (60...2_592_000).contains(windowSeconds) else {
                throw UsageError(
                    "config passwordLockout.\(name): burst and lockoutSeconds must be at least 1, maxPerWindow at least "
                        + "burst, windowSeconds between 60 and 2592000")
            }
            return FailureLockout(burst: burst, lockout: lockoutSeconds, maximumPerWindow: maxPerWindow, window: windowSeconds)
        }
    }

    /// The config file's `emailPrivacy` and `passwordLockout` objects.
    mutating func applyPasswordSignIn(
        emailPrivacy: EmailPrivacySettings?, lockout: PasswordLockoutSettings?, fileObject: [String: Any], path: String
    ) throws {
        if let emailPrivacy {
            try Self.checkKeys(of: "emailPrivacy", in: fileObject, known: EmailPrivacySettings.keys, path: path)
            if let enabled = emailPrivacy.enableImprovedEmailPrivacy {
                passwordSignIn.emailEnumerationProtection = enabled
                passwordSignIn.emailPrivacySource = "emailPrivacy"
            }
        }
        if let lockout {
            try Self.checkKeys(of: "passwordLockout", in: fileObject, known: PasswordLockoutSettings.keys, path: path)
            let section = fileObject["passwordLockout"] as? [String: Any] ?? [:]
            for name in PasswordLockoutSettings.keys {
                try Self.checkKeys(of: name, in: section, known: LockoutWindowSettings.keys, path: path)
            }
            if let perEmail = lockout.perEmail { passwordSignIn.lockouts.perEmail = try perEmail.lockout(name: "perEmail") }
            if let perClient = lockout.perClient { passwordSignIn.lockouts.perClient = try perClient.lockout(name: "perClient") }
        }
    }

    /// `HEARTH_EMAIL_ENUMERATION_PROTECTION` (1 or 0), when set.
    mutating func applyPasswordSignIn(environment: [String: String]) throws {
        guard let value = environment["HEARTH_EMAIL_ENUMERATION_PROTECTION"], !value.isEmpty else { return }
        passwordSignIn.emailEnumerationProtection = try Self.flag(value, source: "HEARTH_EMAIL_ENUMERATION_PROTECTION")
        passwordSignIn.emailPrivacySource = "HEARTH_EMAIL_ENUMERATION_PROTECTION"
    }
}
