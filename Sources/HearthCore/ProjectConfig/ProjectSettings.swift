public import HearthProtocol

/// The configuration's settings Hearth enforces, read from the effective configuration (the config file's settings
/// over what the config API set, over the defaults): the sign-in switches and the MFA policy.
public struct ProjectSettings: Sendable, Equatable {
    /// `signIn.email.enabled` (password sign-up and sign-in), `signIn.email.passwordRequired` (no email links),
    /// `signIn.anonymous.enabled`.
    public var switches: SignInSwitches
    /// As Identity Platform splits them: SMS factors while `mfa.state` is `ENABLED` or `MANDATORY` and
    /// `mfa.enabledProviders` has `PHONE_SMS`; TOTP factors while `mfa.providerConfigs` has an `ENABLED`
    /// `totpProviderConfig` (its `adjacentIntervals` used). MFA is on while either kind is.
    public var mfa: MFAPolicy

    public init(switches: SignInSwitches, mfa: MFAPolicy) {
        self.switches = switches
        self.mfa = mfa
    }

    /// The settings of an effective configuration (every field present: ``ProjectConfigService`` fills the defaults).
    public init(effective config: [String: JSONValue]) {
        func flag(_ path: String, _ fallback: Bool) -> Bool {
            ProjectConfigRules.value(in: config, at: path)?.boolValue ?? fallback
        }
        let email = flag("signIn.email.enabled", true)
        switches = SignInSwitches(
            password: email, emailLink: email && !flag("signIn.email.passwordRequired", false),
            anonymous: flag("signIn.anonymous.enabled", true), subject: "this project")
        mfa = Self.policy(config["mfa"]?.objectValue ?? [:])
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
