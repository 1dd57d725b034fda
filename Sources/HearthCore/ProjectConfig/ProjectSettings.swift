public import HearthProtocol

/// The configuration's settings Hearth enforces, read from the effective configuration (the config file's settings
/// over what the config API set, over the defaults): the sign-in switches, the MFA policy, the password policy, email
/// enumeration protection and the authorized domains.
public struct ProjectSettings: Sendable, Equatable {
    /// `signIn.email.enabled` (password sign-up and sign-in), `signIn.email.passwordRequired` (no email links),
    /// `signIn.anonymous.enabled`.
    public var switches: SignInSwitches
    /// As Identity Platform splits them: SMS factors while `mfa.state` is `ENABLED` or `MANDATORY` and
    /// `mfa.enabledProviders` has `PHONE_SMS`; TOTP factors while `mfa.providerConfigs` has an `ENABLED`
    /// `totpProviderConfig` (its `adjacentIntervals` used). MFA is on while either kind is.
    public var mfa: MFAPolicy
    /// `passwordPolicyConfig`: what new passwords must meet (sign-up, change, reset, admin create and update).
    public var passwordPolicy: PasswordPolicy
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy`: whether answers hide which emails have accounts.
    public var emailEnumerationProtection: Bool
    /// `authorizedDomains` when the config API set them: the hosts continue URLs may point at instead of the
    /// configured ones. nil: the server's configured list (``EmailActionSettings/authorizedDomains``). The list is
    /// the project's: a tenant's settings never carry one, and its calls are held to the project's.
    public var authorizedDomains: Set<String>?
    /// `smsRegionConfig`: the regions verification codes may be sent to. A tenant's is its own (every region when it
    /// sets none): the project's policy does not apply to tenants, as in Identity Platform.
    public var smsRegions: SMSRegionPolicy
    /// `notification.sendEmail.callbackUri` when the config API set it: the page email links open (a custom email
    /// action handler). nil: the configured one (``EmailActionSettings/actionURL``). The project's, as the domains.
    public var emailActionURL: String?
    /// `notification.sendEmail.<name>Template`: the project's email templates, by name (none: Hearth's own).
    public var emailTemplates: [String: CustomEmailTemplate]
    /// `signIn.phoneNumber.testPhoneNumbers` (a tenant's `testPhoneNumbers`): fictional numbers and their fixed
    /// codes. A code "sent" to one is never sent; it is its fixed code, under the same limits as any other.
    public var testPhoneNumbers: [String: String]

    public init(
        switches: SignInSwitches, mfa: MFAPolicy, passwordPolicy: PasswordPolicy = .firebaseDefault,
        emailEnumerationProtection: Bool = true, authorizedDomains: Set<String>? = nil,
        smsRegions: SMSRegionPolicy = .everywhere, emailActionURL: String? = nil,
        emailTemplates: [String: CustomEmailTemplate] = [:], testPhoneNumbers: [String: String] = [:]
    ) {
        self.testPhoneNumbers = testPhoneNumbers
        self.emailActionURL = emailActionURL
        self.emailTemplates = emailTemplates
        self.smsRegions = smsRegions
        self.switches = switches
        self.mfa = mfa
        self.passwordPolicy = passwordPolicy
        self.emailEnumerationProtection = emailEnumerationProtection
        self.authorizedDomains = authorizedDomains
    }

    /// The settings of an effective configuration (every field present: ``ProjectConfigService`` fills the defaults);
    /// `authorizedDomains` as the config API set them (nil when it set none).
    public init(
        effective config: [String: JSONValue], authorizedDomains: Set<String>? = nil, emailActionURL: String? = nil
    ) {
        self.emailActionURL = emailActionURL
        func flag(_ path: String, _ fallback: Bool) -> Bool {
            ProjectConfigRules.value(in: config, at: path)?.boolValue ?? fallback
        }
        let email = flag("signIn.email.enabled", true)
        switches = SignInSwitches(
            password: email, emailLink: email && !flag("signIn.email.passwordRequired", false),
            anonymous: flag("signIn.anonymous.enabled", true), subject: "this project")
        mfa = Self.policy(config["mfa"]?.objectValue ?? [:])
        passwordPolicy = Self.passwordPolicy(config["passwordPolicyConfig"])
        emailEnumerationProtection = flag("emailPrivacyConfig.enableImprovedEmailPrivacy", true)
        self.authorizedDomains = authorizedDomains
        smsRegions = SMSRegionPolicy(config: config["smsRegionConfig"])
        testPhoneNumbers = Self.testPhoneNumbers(ProjectConfigRules.value(in: config, at: "signIn.phoneNumber.testPhoneNumbers"))
        let sendEmail = config["notification"]?["sendEmail"]
        emailTemplates = CustomEmailTemplate.names.keys.reduce(into: [:]) { templates, name in
            templates[name] = CustomEmailTemplate(config: sendEmail?[name])
        }
    }

    /// The numbers and codes a `testPhoneNumbers` object states (checked when written).
    static func testPhoneNumbers(_ config: JSONValue?) -> [String: String] {
        (config?.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    /// The policy a `passwordPolicyConfig` object states; Firebase's default when there is none. Stored objects
    /// were checked when written (``ProjectConfigRules/check(_:)``, the tenant API), so one that does not read is
    /// corrupt: the default's 6-character floor still applies.
    static func passwordPolicy(_ config: JSONValue?) -> PasswordPolicy {
        guard let config = config?.objectValue else { return .firebaseDefault }
        return (try? PasswordPolicy(configForm: config)) ?? .firebaseDefault
    }

    /// The policy an `mfa` object states.
    static func policy(_ mfa: [String: JSONValue]) -> MFAPolicy {
        let state = mfa["state"]?.stringValue ?? "DISABLED"
        var factors: Set<MFAPolicy.Factor> = []
        if state == "ENABLED" || state == "MANDATORY",
            mfa["enabledProviders"]?.arrayValue?.contains(.string("PHONE_SMS")) == true
        {
            factors.insert(.phone)
        }
        var intervals: Int64 = 1
        for provider in mfa["providerConfigs"]?.arrayValue ?? [] {
            guard let provider = provider.objectValue, provider["state"]?.stringValue == "ENABLED",
                let totp = provider["totpProviderConfig"]?.objectValue
            else { continue }
            factors.insert(.totp)
            switch totp["adjacentIntervals"] {
            case .integer(let number): intervals = number
            case .string(let text): intervals = Int64(text) ?? intervals
            default: break
            }
        }
        return MFAPolicy(enabled: !factors.isEmpty, factors: factors, totpAdjacentIntervals: intervals)
    }

    /// The `mfa` object stating `policy`.
    public static func wire(_ policy: MFAPolicy) -> JSONValue {
        let totp: [JSONValue] = policy.enabled && policy.factors.contains(.totp)
            ? [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .integer(policy.totpAdjacentIntervals)]]]
            : []
        return [
            "state": .string(policy.enabled && policy.factors.contains(.phone) ? "ENABLED" : "DISABLED"),
            "enabledProviders": .array(policy.enabled && policy.factors.contains(.phone) ? ["PHONE_SMS"] : []),
            "providerConfigs": .array(totp),
        ]
    }
}
