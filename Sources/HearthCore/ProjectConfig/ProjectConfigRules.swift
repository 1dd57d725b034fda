import Foundation
public import HearthProtocol

/// Identity Platform's rules for the project configuration resource (`/v2/projects/{p}/config`): which field paths
/// an `updateMask` may name, how a masked update merges into what was stored, and what each field may hold. Pure
/// functions over wire objects; each refusal is a `WireError` with a stable code and changes nothing.
///
/// The paths are those of the resource: `signIn.allowDuplicateEmails`, `signIn.anonymous.enabled`,
/// `signIn.email.enabled`, `signIn.email.passwordRequired`, `mfa.state`, `mfa.enabledProviders`,
/// `mfa.providerConfigs`, `passwordPolicyConfig.*`, `emailPrivacyConfig.enableImprovedEmailPrivacy`,
/// `authorizedDomains`, `smsRegionConfig.*`, `notification.sendEmail.callbackUri`, and any object above them (`signIn`, `mfa`, `signIn.email`): a mask may
/// name a whole object (as Go's `UpdateProjectConfig` sends `mfa`) or its leaves (as Node's sends
/// `mfa.state,mfa.providerConfigs`). Arrays are replaced whole.
public enum ProjectConfigRules {
    /// The longest JSON text the stored configuration may take.
    public static let maximumSettingsBytes = 64 * 1024

    /// The resource's tree: each field's children, `nil` for a leaf (a value or an array replaced whole).
    private static let tree: [String: [String]?] = [
        "": [
            "signIn", "mfa", "passwordPolicyConfig", "emailPrivacyConfig", "authorizedDomains", "smsRegionConfig",
            "notification",
        ],
        "signIn": ["allowDuplicateEmails", "anonymous", "email", "phoneNumber"],
        "signIn.phoneNumber": ["testPhoneNumbers"],
        "signIn.phoneNumber.testPhoneNumbers": nil,
        "signIn.allowDuplicateEmails": nil,
        "signIn.anonymous": ["enabled"],
        "signIn.anonymous.enabled": nil,
        "signIn.email": ["enabled", "passwordRequired"],
        "signIn.email.enabled": nil,
        "signIn.email.passwordRequired": nil,
        "mfa": ["state", "enabledProviders", "providerConfigs"],
        "mfa.state": nil,
        "mfa.enabledProviders": nil,
        "mfa.providerConfigs": nil,
        "passwordPolicyConfig": ["passwordPolicyEnforcementState", "passwordPolicyVersions", "forceUpgradeOnSignin"],
        "passwordPolicyConfig.passwordPolicyEnforcementState": nil,
        "passwordPolicyConfig.passwordPolicyVersions": nil,
        "passwordPolicyConfig.forceUpgradeOnSignin": nil,
        "emailPrivacyConfig": ["enableImprovedEmailPrivacy"],
        "emailPrivacyConfig.enableImprovedEmailPrivacy": nil,
        "authorizedDomains": nil,
        "smsRegionConfig": ["allowByDefault", "allowlistOnly"],
        "smsRegionConfig.allowByDefault": ["disallowedRegions"],
        "smsRegionConfig.allowByDefault.disallowedRegions": nil,
        "smsRegionConfig.allowlistOnly": ["allowedRegions"],
        "smsRegionConfig.allowlistOnly.allowedRegions": nil,
        "notification": ["sendEmail"],
        "notification.sendEmail": ["callbackUri", "resetPasswordTemplate", "verifyEmailTemplate", "changeEmailTemplate"],
        "notification.sendEmail.callbackUri": nil,
    ].merging(
        CustomEmailTemplate.names.keys.flatMap { name -> [(String, [String]?)] in
            let path = "notification.sendEmail.\(name)"
            return [(path, ["subject", "body", "bodyFormat"])] + ["subject", "body", "bodyFormat"].map { ("\(path).\($0)", nil) }
        }, uniquingKeysWith: { first, _ in first })

    /// The paths of an `updateMask` (comma-separated, spaces around names ignored), each a field of the resource;
    /// an empty mask or an unknown path is `INVALID_CONFIG` naming it.
    public static func maskPaths(_ mask: String) throws -> [String] {
        let paths = mask.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for path in paths where path.isEmpty || tree[path] == nil {
            throw WireError(
                .invalidConfig, "updateMask names a field the project configuration does not have: \"\(TenantFields.shown(path))\".")
        }
        return paths
    }

    /// Every path of `object` down to its leaves (the paths a mask would name to set all of it); a member the
    /// resource has not is `INVALID_CONFIG` naming it.
    public static func leafPaths(of object: [String: JSONValue], under parent: String = "") throws -> [String] {
        try object.keys.sorted().flatMap { key -> [String] in
            let path = parent.isEmpty ? key : "\(parent).\(key)"
            guard let children = tree[path] else {
                throw WireError(
                    .invalidConfig, "The project configuration has no field \"\(TenantFields.shown(path))\".")
            }
            guard children != nil else { return [path] }
            guard let inner = object[key]?.objectValue else {
                throw WireError(.invalidConfig, "\(TenantFields.shown(path)) must be an object.")
            }
            return try leafPaths(of: inner, under: path)
        }
    }

    /// Whether two paths overlap: one is the other or lies inside it.
    public static func overlap(_ first: String, _ second: String) -> Bool {
        first == second || first.hasPrefix(second + ".") || second.hasPrefix(first + ".")
    }

    /// `stored` with each of `paths` set to `request`'s value at that path, or removed where `request` has none
    /// (an object emptied by that is removed too).
    public static func merged(_ stored: [String: JSONValue], with request: [String: JSONValue], paths: [String])
        -> [String: JSONValue]
    {
        var result = stored
        for path in paths {
            let parts = path.split(separator: ".").map(String.init)
            set(&result, parts[...], to: value(in: request, at: parts[...]))
        }
        return result
    }

    /// `base` with every leaf of `over` laid on it (objects merged member by member, other values replaced).
    public static func overlaid(_ base: [String: JSONValue], with over: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for (key, value) in over {
            if let inner = value.objectValue, let below = result[key]?.objectValue {
                result[key] = .object(overlaid(below, with: inner))
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// The object that holds `value` at `path` and nothing else (`{"a": {"b": value}}` for `a.b`).
    public static func object(setting path: String, to value: JSONValue) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        set(&object, path.split(separator: ".").map(String.init)[...], to: value)
        return object
    }

    /// The value at `path` (dot-separated) of `object`, if any.
    public static func value(in object: [String: JSONValue], at path: String) -> JSONValue? {
        value(in: object, at: path.split(separator: ".").map(String.init)[...])
    }

    private static func value(in object: [String: JSONValue], at parts: ArraySlice<String>) -> JSONValue? {
        guard let first = parts.first, let member = object[first] else { return nil }
        if parts.count == 1 { return member }
        return member.objectValue.flatMap { value(in: $0, at: parts.dropFirst()) }
    }

    private static func set(_ object: inout [String: JSONValue], _ parts: ArraySlice<String>, to value: JSONValue?) {
        guard let first = parts.first else { return }
        if parts.count == 1 {
            object[first] = value
            return
        }
        var inner = object[first]?.objectValue ?? [:]
        set(&inner, parts.dropFirst(), to: value)
        object[first] = inner.isEmpty ? nil : .object(inner)
    }

    /// `smsRegionConfig` holds one policy: an update naming one of them (or a path inside it) drops the other's
    /// stored settings.
    static func keepingOneSMSPolicy(_ settings: [String: JSONValue], named paths: [String]) -> [String: JSONValue] {
        guard var regions = settings["smsRegionConfig"]?.objectValue else { return settings }
        for (named, other) in [("allowByDefault", "allowlistOnly"), ("allowlistOnly", "allowByDefault")]
        where regions[named] != nil && paths.contains(where: { $0.hasPrefix("smsRegionConfig.\(named)") }) {
            regions[other] = nil
        }
        var kept = settings
        kept["smsRegionConfig"] = .object(regions)
        return kept
    }

    // MARK: Values

    /// Checks every field of `settings` (a whole configuration as stored): unknown members are `INVALID_CONFIG`,
    /// values a field cannot take `INVALID_CONFIG` naming the field; what Hearth cannot do is refused rather than
    /// stored (`signIn.allowDuplicateEmails: true`: Hearth keeps one account per email).
    public static func check(_ settings: [String: JSONValue]) throws {
        for path in try leafPaths(of: settings) {
            guard let value = value(in: settings, at: path) else { continue }
            try checkLeaf(path, value)
        }
        if let regions = settings["smsRegionConfig"] { try SMSRegionPolicy.check(regions) }
        if let mfa = settings["mfa"] { try invalidConfig("mfa") { try TenantRules.checkMFAConfig(mfa) } }
        if let policy = settings["passwordPolicyConfig"] {
            try invalidConfig("passwordPolicyConfig") { try TenantRules.checkPasswordPolicyConfig(policy) }
        }
        guard JSONValue.object(settings).jsonData().count <= maximumSettingsBytes else {
            throw WireError(.invalidConfig, "The project configuration is too long.")
        }
    }

    private static func checkLeaf(_ path: String, _ value: JSONValue) throws {
        switch path {
        case "signIn.allowDuplicateEmails":
            guard let allowed = value.boolValue else { throw notA("boolean", path) }
            guard !allowed else {
                throw WireError(.invalidConfig, "signIn.allowDuplicateEmails cannot be true: Hearth keeps one account per email.")
            }
        case "signIn.anonymous.enabled", "signIn.email.enabled", "signIn.email.passwordRequired",
            "emailPrivacyConfig.enableImprovedEmailPrivacy", "passwordPolicyConfig.forceUpgradeOnSignin":
            guard value.boolValue != nil else { throw notA("boolean", path) }
        case _ where path.hasPrefix("notification.sendEmail.") && path.split(separator: ".").count == 4:
            // A template's member (`notification.sendEmail.resetPasswordTemplate.subject`).
            try CustomEmailTemplate.check(String(path.split(separator: ".")[3]), value, path: path)
        case "signIn.phoneNumber.testPhoneNumbers":
            try invalidConfig(path) { try TenantRules.checkTestPhoneNumbers(value) }
        case "notification.sendEmail.callbackUri":
            guard let text = value.stringValue, EmailActionSettings.isActionURL(text) else {
                throw notA("https URL without query or fragment (http only on a loopback host)", path)
            }
        case "authorizedDomains":
            guard let items = value.arrayValue, items.allSatisfy({ isHostName($0.stringValue ?? "") }) else {
                throw notA("list of host names (no scheme, port or path)", path)
            }
        case "smsRegionConfig.allowByDefault.disallowedRegions",
            "smsRegionConfig.allowlistOnly.allowedRegions":
            guard let items = value.arrayValue, items.allSatisfy({ !($0.stringValue ?? "").isEmpty }) else {
                throw notA("list of names", path)
            }
        default:
            // Objects that are set as a whole and leaves checked with their object (mfa, passwordPolicyConfig).
            break
        }
    }

    /// A bare host, as a continue URL's host can be (``BrowserURL``): a domain name or an IP address.
    public static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && (try? BrowserURL(parsing: "http://\(text)/"))?.host == text.lowercased()
    }

    private static func notA(_ kind: String, _ path: String) -> WireError {
        WireError(.invalidConfig, "\(path) must be a \(kind).")
    }

    /// Runs a tenant-setting check, its refusal given as `INVALID_CONFIG` (the config API's code).
    private static func invalidConfig(_ name: String, _ check: () throws -> Void) throws {
        do {
            try check()
        } catch let error as WireError {
            throw WireError(.invalidConfig, error.detail ?? "\(name) has a value it cannot take.")
        }
    }
}
