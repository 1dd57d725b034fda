import Foundation
public import HearthCore
public import HearthProtocol

/// The configuration of the project (`/console/config`) or of a tenant (`/console/tenants/{t}/config`): the
/// effective configuration as the config API answers it (``ProjectConfigService/get(in:)``; a tenant's in the same
/// shape, ``TenantConfigShape``), with a form for the sign-in switches, the MFA settings, the password policy, email
/// privacy and (the project's only) the authorized domains. A setting the config file locks is shown as a disabled
/// control naming the file key.
public struct ConfigPage: Sendable {
    /// The effective configuration (every field present: the service fills the defaults); after a refused save, with
    /// the posted values laid over it, so that nothing typed is lost.
    public var config: [String: JSONValue]
    /// The tenant whose settings these are; nil for the project's.
    public var tenant: Tenant?
    /// Each shown path the config file locks → the file key that declares it (``locks(_:)``).
    public var locks: [String: String]
    /// What the last change did.
    public var notice: String?
    /// Why the posted form was refused (nothing was changed).
    public var error: String?

    /// The page for `config` (``ProjectConfigService/get(in:)``) with the `locks` of ``locks(_:)``; `notice` after a
    /// saved change, `error` after a refused one.
    public init(
        config: [String: JSONValue], locks: [String: String], tenant: Tenant? = nil, notice: String? = nil,
        error: String? = nil
    ) {
        self.config = config
        self.tenant = tenant
        self.locks = locks
        self.notice = notice
        self.error = error
    }

    /// A setting the form edits: its path in the configuration and the form fields that give its value. A setting
    /// with a `presence` field is changed only when the form gives that field (a select or a text area, always sent
    /// when shown), so that a form from before it was shown changes nothing of it; the others whenever unlocked.
    private struct Editable {
        var path: String
        var fields: [String]
        var presence: String? = nil
    }

    private static let editable = [
        Editable(path: "signIn.anonymous.enabled", fields: ["anonymous"]),
        Editable(path: "signIn.email.enabled", fields: ["email"]),
        Editable(path: "signIn.email.passwordRequired", fields: ["emailLink"]),
        Editable(path: "mfa.state", fields: ["mfaState"]),
        Editable(path: "mfa.enabledProviders", fields: ["sms"]),
        Editable(path: "mfa.providerConfigs", fields: ["totp", "adjacentIntervals"]),
        Editable(
            path: "passwordPolicyConfig",
            fields: ["passwordPolicy", "minLength", "maxLength", "lowercase", "uppercase", "numeric", "symbol", "forceUpgrade"],
            presence: "passwordPolicy"),
        Editable(path: "emailPrivacyConfig.enableImprovedEmailPrivacy", fields: ["emailPrivacy"], presence: "emailPrivacy"),
        Editable(path: "authorizedDomains", fields: ["authorizedDomains"], presence: "authorizedDomains"),
        Editable(path: "smsRegionConfig", fields: ["smsPolicy", "smsRegions"], presence: "smsPolicy"),
        Editable(path: "notification.sendEmail.callbackUri", fields: ["actionUrl"], presence: "actionUrl"),
    ]

    /// The SMS region policies offered: every region, all but a list, or only a list.
    private static let smsPolicies = [
        ("everywhere", "Every region"), ("allowByDefault", "Every region but those listed"),
        ("allowlistOnly", "Only the regions listed"),
    ]

    /// The settings a scope has: a tenant has no authorized domains or action URL of its own (the project's apply).
    private static func editable(forTenant: Bool) -> [Editable] {
        let projectOnly = ["authorizedDomains", "notification.sendEmail.callbackUri"]
        return forTenant ? editable.filter { !projectOnly.contains($0.path) } : editable
    }

    /// The states `mfa.state` is offered with.
    private static let mfaStates = ["DISABLED", "ENABLED", "MANDATORY"]

    /// The shown paths `lock` reports locked (it answers the locking file key of a path, or nil:
    /// ``ProjectConfigService/lock(of:)``).
    public static func locks(_ lock: (String) -> String?) -> [String: String] {
        var locks: [String: String] = [:]
        for path in editable.map(\.path) {
            locks[path] = lock(path)
        }
        return locks
    }

    /// What a posted form asks the config API to change.
    public struct Change: Sendable, Equatable {
        /// The request body: the value of each path of ``paths``.
        public var request: [String: JSONValue]
        /// The paths of the `updateMask`.
        public var paths: [String]
        /// The `updateMask` (the paths, comma-separated).
        public var updateMask: String { paths.joined(separator: ",") }
    }

    /// The change a posted form asks for: each editable setting that is not locked, as the form gives it (a
    /// checkbox left out is off; the password policy, email privacy and authorized domains only when the form gives
    /// their select or text area). A locked setting is left out, unless the form still gives it (a page opened before
    /// the config file locked it, or a crafted post): then it is named too, so that the config API refuses it
    /// (`OPERATION_NOT_ALLOWED`, naming the file key) and nothing changes. A checkbox with another value than `true`,
    /// a missing MFA state, an unknown choice or a number that is not a whole number is `INVALID_CONFIG`; the values'
    /// ranges are the config API's to check. For a tenant (`forTenant`) the authorized domains are never named. The
    /// password policy, email privacy and domains are named only when they differ from `current` (the configuration
    /// the page showed): saving the switches stores no defaults, and leaves a development server's open domains open.
    public static func change(
        from form: [String: String], locks: [String: String], forTenant: Bool = false,
        current: [String: JSONValue] = [:]
    ) throws -> Change {
        func flag(_ field: String) throws -> Bool {
            switch form[field] {
            case nil: return false
            case "true": return true
            case .some: throw WireError(.invalidConfig, "The form gives an unknown value for \(field).")
            }
        }
        var request: [String: JSONValue] = [:]
        var paths: [String] = []
        func number(_ field: String, _ fallback: String, _ name: String) throws -> Int64 {
            let text = (form[field] ?? fallback).trimmingCharacters(in: .whitespaces)
            guard let number = Int64(text) else { throw WireError(.invalidConfig, "\(name) must be a whole number.") }
            return number
        }
        for setting in editable(forTenant: forTenant) {
            if let presence = setting.presence {
                guard form[presence] != nil else { continue }
            } else if locks[setting.path] != nil, !setting.fields.contains(where: { form[$0] != nil }) {
                continue
            }
            let value: JSONValue?
            switch setting.path {
            case "signIn.anonymous.enabled": value = .bool(try flag("anonymous"))
            case "signIn.email.enabled": value = .bool(try flag("email"))
            case "signIn.email.passwordRequired": value = .bool(!(try flag("emailLink")))
            case "mfa.state":
                guard let state = form["mfaState"] else { throw WireError(.invalidConfig, "The form gives no MFA state.") }
                value = .string(state)
            case "mfa.enabledProviders": value = .array(try flag("sms") ? ["PHONE_SMS"] : [])
            case "passwordPolicyConfig": value = try passwordPolicy(form, flag: flag, number: number)
            case "emailPrivacyConfig.enableImprovedEmailPrivacy":
                guard let choice = form["emailPrivacy"], ["on", "off"].contains(choice) else {
                    throw WireError(.invalidConfig, "The form gives an unknown value for emailPrivacy.")
                }
                value = .bool(choice == "on")
            case "authorizedDomains": value = .array(names(form["authorizedDomains"]))
            case "notification.sendEmail.callbackUri":
                let url = (form["actionUrl"] ?? "").trimmingCharacters(in: .whitespaces)
                value = url.isEmpty ? nil : .string(url)
            case "smsRegionConfig":
                switch form["smsPolicy"] {
                case "everywhere": value = nil
                case "allowByDefault": value = ["allowByDefault": ["disallowedRegions": .array(names(form["smsRegions"]))]]
                case "allowlistOnly": value = ["allowlistOnly": ["allowedRegions": .array(names(form["smsRegions"]))]]
                default: throw WireError(.invalidConfig, "The form gives an unknown value for smsPolicy.")
                }
            default:
                let intervals = try number("adjacentIntervals", "1", "The TOTP window (adjacentIntervals)")
                value = [[
                    "state": .string(try flag("totp") ? "ENABLED" : "DISABLED"),
                    "totpProviderConfig": ["adjacentIntervals": .integer(intervals)],
                ]]
            }
            if setting.presence != nil, ProjectConfigRules.value(in: current, at: setting.path) == value { continue }
            // nil: the path is named without a value, which clears it.
            if let value {
                request = ProjectConfigRules.overlaid(request, with: ProjectConfigRules.object(setting: setting.path, to: value))
            }
            paths.append(setting.path)
        }
        return Change(request: request, paths: paths)
    }

    /// The names of a text area: separated by commas or white space, the empty ones dropped.
    private static func names(_ text: String?) -> [JSONValue] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { .string(String($0)) }
    }

    /// The `passwordPolicyConfig` object the form's password fields state.
    private static func passwordPolicy(
        _ form: [String: String], flag: (String) throws -> Bool, number: (String, String, String) throws -> Int64
    ) throws -> JSONValue {
        guard let state = form["passwordPolicy"], ["OFF", "ENFORCE"].contains(state) else {
            throw WireError(.invalidConfig, "The form gives an unknown value for passwordPolicy.")
        }
        let options: [String: JSONValue] = [
            "minPasswordLength": .integer(try number("minLength", "6", "The minimum length")),
            "maxPasswordLength": .integer(try number("maxLength", "4096", "The maximum length")),
            "containsLowercaseCharacter": .bool(try flag("lowercase")),
            "containsUppercaseCharacter": .bool(try flag("uppercase")),
            "containsNumericCharacter": .bool(try flag("numeric")),
            "containsNonAlphanumericCharacter": .bool(try flag("symbol")),
        ]
        return [
            "passwordPolicyEnforcementState": .string(state),
            "passwordPolicyVersions": [["customStrengthOptions": .object(options)]],
            "forceUpgradeOnSignin": .bool(try flag("forceUpgrade")),
        ]
    }

    /// The page's configuration after a refused `change`: the values posted laid over it (nothing typed is lost).
    public func showing(_ change: Change) -> ConfigPage {
        var page = self
        page.config = ProjectConfigRules.merged(config, with: change.request, paths: change.paths)
        return page
    }

    /// The whole page for `viewer`: the form, posting to the scope's configuration path with the CSRF token.
    public func html(_ viewer: ConsoleViewer) -> String {
        let status = notice.map { "<p class=\"status\" role=\"status\">\(ConsoleHTML.escape($0))</p>" } ?? ""
        let totp = Self.totp(in: config)
        let state = value("mfa.state")?.stringValue ?? "DISABLED"
        let sms = value("mfa.enabledProviders")?.arrayValue?.contains(.string("PHONE_SMS")) == true
        let editable = Self.editable(forTenant: tenant != nil).map(\.path).contains { locks[$0] == nil }
        let title = tenant.map { "Configuration of tenant \($0.displayName ?? $0.id)" } ?? "Configuration"
        let intro = tenant.map {
            """
            <p id="scope">Tenant <span class="mono">\(ConsoleHTML.escape($0.id))</span>: its own settings, as the tenant API \
            (<code>/v2/projects/{p}/tenants/{t}</code>) sets them. A password policy or email privacy it does not set is the \
            server's default; continue URLs are held to the project's authorized domains.</p>
            """
        } ?? """
            <p>The project's effective configuration: what the config file sets, over what was changed here or through the \
            configuration API (<code>/v2/projects/{p}/config</code>), over the defaults. Tenants keep their own settings.</p>
            """
        return ConsoleLayout.page(title: title, viewer: viewer, section: tenant == nil ? .config : .tenants, body: """
            \(status)
            \(intro)
            <form method="post" action="\(ConsoleHTML.escape(ConsoleHTML.configPath(tenantID: tenant?.id)))" id="config">\(ConsoleHTML.csrfField(viewer))
            \(ConsoleHTML.alert(error.map { "Not saved: \($0)" }))
            <section aria-labelledby="sign-in-heading"><h2 id="sign-in-heading">Sign-in methods</h2>
            \(checkbox("anonymous", "signIn.anonymous.enabled", "Anonymous sign-up (guests)", value("signIn.anonymous.enabled")?.boolValue ?? true))
            \(checkbox("email", "signIn.email.enabled", "Email and password sign-up and sign-in", value("signIn.email.enabled")?.boolValue ?? true))
            \(checkbox("emailLink", "signIn.email.passwordRequired", "Email link sign-in (with email sign-in on)", !(value("signIn.email.passwordRequired")?.boolValue ?? false)))
            </section>
            <section aria-labelledby="mfa-heading"><h2 id="mfa-heading">Second factors</h2>
            <label for="mfaState">SMS second factors (<code>mfa.state</code>)</label>
            \(select("mfaState", "mfa.state", Self.mfaStates.map { ($0, $0) }, selected: state))
            \(checkbox("sms", "mfa.enabledProviders", "SMS codes (PHONE_SMS), while the state is ENABLED or MANDATORY", sms))
            \(checkbox("totp", "mfa.providerConfigs", "Authenticator apps (TOTP)", totp.enabled))
            <label for="adjacentIntervals">TOTP steps accepted before and after the current one (0–10)</label>
            \(number("adjacentIntervals", "mfa.providerConfigs", totp.intervals, 0...10))
            </section>
            \(passwordSection)
            \(tenant == nil ? domainsSection : "")
            \(smsSection)
            \(editable ? "<div class=\"actions save\"><button type=\"submit\" id=\"save-config\">Save configuration</button></div>" : "<p class=\"muted\" id=\"all-locked\">Every setting here is set by the config file.</p>")
            </form>
            """)
    }

    /// The password policy's controls and email privacy.
    private var passwordSection: String {
        let path = "passwordPolicyConfig"
        let options = value("passwordPolicyConfig.passwordPolicyVersions")?.arrayValue?.first?
            .objectValue?["customStrengthOptions"]?.objectValue ?? [:]
        func option(_ name: String) -> Bool { options[name]?.boolValue ?? false }
        func length(_ name: String, _ fallback: Int) -> String {
            switch options[name] {
            case .integer(let number): String(number)
            case .string(let text): text
            default: String(fallback)
            }
        }
        let state = value("passwordPolicyConfig.passwordPolicyEnforcementState")?.stringValue == "ENFORCE" ? "ENFORCE" : "OFF"
        let privacy = value("emailPrivacyConfig.enableImprovedEmailPrivacy")?.boolValue ?? true
        let privacyPath = "emailPrivacyConfig.enableImprovedEmailPrivacy"
        return """
            <section aria-labelledby="passwords-heading"><h2 id="passwords-heading">Passwords and email privacy</h2>
            <label for="passwordPolicy">Password policy (<code>passwordPolicyConfig</code>)</label>
            \(select("passwordPolicy", path, [("OFF", "Off: at least 6 characters"), ("ENFORCE", "Enforced: the rules below")], selected: state))
            <label for="minLength">Minimum length (6–30)</label>
            \(number("minLength", path, length("minPasswordLength", PasswordPolicy.minimumLength), 6...30, reasonOf: "passwordPolicy"))
            <label for="maxLength">Maximum length (up to 4096)</label>
            \(number("maxLength", path, length("maxPasswordLength", PasswordPolicy.maximumLength), 6...4096, reasonOf: "passwordPolicy"))
            \(checkbox("lowercase", path, "A lower case letter", option("containsLowercaseCharacter"), reasonOf: "passwordPolicy"))
            \(checkbox("uppercase", path, "An upper case letter", option("containsUppercaseCharacter"), reasonOf: "passwordPolicy"))
            \(checkbox("numeric", path, "A digit", option("containsNumericCharacter"), reasonOf: "passwordPolicy"))
            \(checkbox("symbol", path, "A symbol (non-alphanumeric)", option("containsNonAlphanumericCharacter"), reasonOf: "passwordPolicy"))
            \(checkbox("forceUpgrade", path, "Refuse sign-in with a password the enforced policy refuses, until it is reset", value("passwordPolicyConfig.forceUpgradeOnSignin")?.boolValue ?? false, reasonOf: "passwordPolicy"))
            <label for="emailPrivacy">Email enumeration protection (<code>emailPrivacyConfig</code>)</label>
            \(select("emailPrivacy", privacyPath, [("on", "On: answers never tell which emails have accounts"), ("off", "Off")], selected: privacy ? "on" : "off"))
            </section>
            """
    }

    /// The SMS region policy: which one, and its regions.
    private var smsSection: String {
        let regions = value("smsRegionConfig")?.objectValue ?? [:]
        let (policy, list): (String, [JSONValue]) =
            if let allowed = regions["allowlistOnly"] {
                ("allowlistOnly", allowed["allowedRegions"]?.arrayValue ?? [])
            } else if let disallowed = regions["allowByDefault"] {
                ("allowByDefault", disallowed["disallowedRegions"]?.arrayValue ?? [])
            } else {
                ("everywhere", [])
            }
        let path = "smsRegionConfig"
        return """
            <section aria-labelledby="sms-heading"><h2 id="sms-heading">SMS regions</h2>
            <label for="smsPolicy">Regions verification codes may be sent to (<code>smsRegionConfig</code>)</label>
            \(select("smsPolicy", path, Self.smsPolicies, selected: policy))
            <label for="smsRegions">Region codes listed (two letters each, such as US or GB)</label>
            <textarea id="smsRegions" name="smsRegions" rows="2"\(locked("smsPolicy", path))>\(ConsoleHTML.escape(list.compactMap(\.stringValue).joined(separator: " ")))</textarea>
            </section>
            """
    }

    /// The project's authorized domains, one per line.
    private var domainsSection: String {
        let domains = (value("authorizedDomains")?.arrayValue ?? []).compactMap(\.stringValue)
        return """
            <section aria-labelledby="domains-heading"><h2 id="domains-heading">Authorized domains and email links</h2>
            <label for="authorizedDomains">Hosts continue URLs may point at, one per line (<code>authorizedDomains</code>)</label>
            <textarea id="authorizedDomains" name="authorizedDomains" rows="4"\(locked("authorizedDomains", "authorizedDomains"))>\(ConsoleHTML.escape(domains.joined(separator: "\n")))</textarea>\(reason("authorizedDomains", "authorizedDomains"))
            <label for="actionUrl">Action URL: the page email links open instead of Hearth's, empty for Hearth's (<code>notification.sendEmail.callbackUri</code>)</label>
            <input type="url" id="actionUrl" name="actionUrl" value="\(ConsoleHTML.escape(value("notification.sendEmail.callbackUri")?.stringValue ?? ""))"\(locked("actionUrl", "notification.sendEmail.callbackUri"))>\(reason("actionUrl", "notification.sendEmail.callbackUri"))
            </section>
            """
    }

    private func value(_ path: String) -> JSONValue? { ProjectConfigRules.value(in: config, at: path) }

    /// A checkbox for `path`, disabled with the reason when the file locks it (the reason shown under the control
    /// `reasonOf` when given, else under this one).
    private func checkbox(_ id: String, _ path: String, _ label: String, _ checked: Bool, reasonOf: String? = nil) -> String {
        """
        <div class="check"><input type="checkbox" id="\(id)" name="\(id)" value="true"\(checked ? " checked" : "")\(locked(reasonOf ?? id, path))>\
        <label for="\(id)">\(ConsoleHTML.escape(label))</label></div>\(reasonOf == nil ? reason(id, path) : "")
        """
    }

    /// A select of `choices` (value, text) for `path`; a selected value not among them is offered too.
    private func select(_ id: String, _ path: String, _ choices: [(String, String)], selected: String) -> String {
        let all = choices.contains { $0.0 == selected } ? choices : choices + [(selected, selected)]
        let options = all.map { value, text in
            "<option value=\"\(ConsoleHTML.escape(value))\"\(value == selected ? " selected" : "")>\(ConsoleHTML.escape(text))</option>"
        }.joined()
        return "<select id=\"\(id)\" name=\"\(id)\"\(locked(id, path))>\(options)</select>\(reason(id, path))"
    }

    /// A whole-number input for `path` within `range`.
    private func number(
        _ id: String, _ path: String, _ value: String, _ range: ClosedRange<Int>, reasonOf: String? = nil
    ) -> String {
        """
        <input type="number" id="\(id)" name="\(id)" min="\(range.lowerBound)" max="\(range.upperBound)" step="1" value="\(ConsoleHTML.escape(value))"\(locked(reasonOf ?? id, path))>\(reasonOf == nil ? reason(id, path) : "")
        """
    }

    /// ` disabled aria-describedby=…` for a control of a locked `path`, described by the reason under `reasonID`.
    private func locked(_ reasonID: String, _ path: String) -> String {
        locks[path] == nil ? "" : " disabled aria-describedby=\"\(reasonID)-lock\""
    }

    /// Why the control `id` of `path` is locked, or nothing.
    private func reason(_ id: String, _ path: String) -> String {
        locks[path].map {
            "<p class=\"lock\" id=\"\(id)-lock\">Locked: set by the config file (<code>\(ConsoleHTML.escape($0))</code>).</p>"
        } ?? ""
    }

    /// Whether TOTP is enabled, and its window as text, from the first TOTP entry of `mfa.providerConfigs`.
    static func totp(in config: [String: JSONValue]) -> (enabled: Bool, intervals: String) {
        let entries = ProjectConfigRules.value(in: config, at: "mfa.providerConfigs")?.arrayValue ?? []
        guard let entry = entries.compactMap(\.objectValue).first(where: { $0["totpProviderConfig"] != nil }) else {
            return (false, "1")
        }
        let intervals: String = switch entry["totpProviderConfig"]?.objectValue?["adjacentIntervals"] {
        case .integer(let number): String(number)
        case .string(let text): text
        default: "1"
        }
        return (entry["state"]?.stringValue == "ENABLED", intervals)
    }
}
