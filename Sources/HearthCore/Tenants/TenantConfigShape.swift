import Foundation
public import HearthProtocol

/// A tenant's settings in the project configuration's shape (`signIn`, `mfa`, `passwordPolicyConfig`,
/// `emailPrivacyConfig`), so that one form edits the project and a tenant alike; and back, a change in that shape as
/// the tenant API's update (its fields and `updateMask`).
public enum TenantConfigShape {
    /// The tenant's settings as the config resource shows them: its switches, its `mfaConfig` and `smsRegionConfig`,
    /// and the password policy and email privacy it is held to (`settings`, its own or the defaults).
    public static func config(of tenant: Tenant, settings: ProjectSettings) -> [String: JSONValue] {
        func object(_ text: String?) -> JSONValue? { text.flatMap { try? JSONValue(parsing: Data($0.utf8)) } }
        let mfa = object(tenant.mfaConfig)?.objectValue
        var config: [String: JSONValue] = [
            "signIn": [
                "anonymous": ["enabled": .bool(tenant.enableAnonymousUser)],
                "email": ["enabled": .bool(tenant.allowPasswordSignup), "passwordRequired": .bool(!tenant.enableEmailLinkSignin)],
            ],
            "mfa": .object(mfa ?? ["state": "DISABLED", "enabledProviders": []]),
            "passwordPolicyConfig": settings.passwordPolicy.configForm,
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(settings.emailEnumerationProtection)],
        ]
        config["smsRegionConfig"] = object(tenant.smsRegionConfig)
        return config
    }

    /// The tenant API update that makes the config-shaped change `request` at `paths` (the config API's paths):
    /// the tenant fields and the mask naming them. A path a tenant has no field for is `INVALID_CONFIG`.
    public static func tenantUpdate(_ request: [String: JSONValue], paths: [String]) throws
        -> (fields: [String: JSONValue], updateMask: String)
    {
        var fields: [String: JSONValue] = [:]
        var mask: [String] = []
        var mfa: [String: JSONValue] = [:]
        for path in paths {
            let value = ProjectConfigRules.value(in: request, at: path)
            switch path {
            case "signIn.anonymous.enabled":
                fields["enableAnonymousUser"] = value
                mask.append("enableAnonymousUser")
            case "signIn.email.enabled":
                fields["allowPasswordSignup"] = value
                mask.append("allowPasswordSignup")
            case "signIn.email.passwordRequired":
                fields["enableEmailLinkSignin"] = value.flatMap(\.boolValue).map { .bool(!$0) }
                mask.append("enableEmailLinkSignin")
            case "mfa.state", "mfa.enabledProviders", "mfa.providerConfigs":
                let member = String(path.dropFirst("mfa.".count))
                mfa[member] = value
                mask.append("mfaConfig.\(member)")
            case "passwordPolicyConfig", "emailPrivacyConfig", "smsRegionConfig":
                fields[path] = value
                mask.append(path)
            case "emailPrivacyConfig.enableImprovedEmailPrivacy":
                fields["emailPrivacyConfig"] = value.map { ["enableImprovedEmailPrivacy": $0] }
                mask.append("emailPrivacyConfig")
            default:
                throw WireError(.invalidConfig, "A tenant has no setting \(path).")
            }
        }
        if !mfa.isEmpty { fields["mfaConfig"] = .object(mfa) }
        return (fields, mask.joined(separator: ","))
    }
}
