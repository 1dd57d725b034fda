import Foundation
import HearthCore
public import HearthProtocol

/// The project configuration (`/console/config`): the effective configuration as the config API answers it
/// (``ProjectConfigService/get(in:)``), with a form for the sign-in switches and the MFA settings, and read-only the
/// settings the config file alone sets (password policy, email privacy, authorized domains). A setting the config
/// file locks is shown as a disabled control naming the file key.
public struct ConfigPage: Sendable {
    /// The effective configuration (every field present: the service fills the defaults).
    public var config: [String: JSONValue]
    /// Each shown path the config file locks → the file key that declares it (``locks(_:)``).
    public var locks: [String: String]
    /// What the last change did.
    public var notice: String?
    /// Why the posted form was refused (nothing was changed).
    public var error: String?

    /// The page for `config` (``ProjectConfigService/get(in:)``) with the `locks` of ``locks(_:)``; `notice` after a
    /// saved change, `error` after a refused one.
    public init(config: [String: JSONValue], locks: [String: String], notice: String? = nil, error: String? = nil) {
        self.config = config
        self.locks = locks
        self.notice = notice
        self.error = error
    }

    /// A setting the form edits: its path in the configuration and the form fields that give its value.
    private struct Editable {
        var path: String
        var fields: [String]
    }

    private static let editable = [
        Editable(path: "signIn.anonymous.enabled", fields: ["anonymous"]),
        Editable(path: "signIn.email.enabled", fields: ["email"]),
        Editable(path: "signIn.email.passwordRequired", fields: ["emailLink"]),
        Editable(path: "mfa.state", fields: ["mfaState"]),
        Editable(path: "mfa.enabledProviders", fields: ["sms"]),
        Editable(path: "mfa.providerConfigs", fields: ["totp", "adjacentIntervals"]),
    ]

    /// The paths shown read-only: the config file alone sets them.
    private static let readOnly = ["passwordPolicyConfig", "emailPrivacyConfig", "authorizedDomains"]

    /// The states `mfa.state` is offered with.
    private static let mfaStates = ["DISABLED", "ENABLED", "MANDATORY"]

    /// The shown paths `lock` reports locked (it answers the locking file key of a path, or nil:
    /// ``ProjectConfigService/lock(of:)``).
    public static func locks(_ lock: (String) -> String?) -> [String: String] {
        var locks: [String: String] = [:]
        for path in editable.map(\.path) + readOnly {
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
    /// checkbox left out is off). A locked setting is left out, unless the form still gives it (a page opened before
    /// the config file locked it, or a crafted post): then it is named too, so that the config API refuses it
    /// (`OPERATION_NOT_ALLOWED`, naming the file key) and nothing changes. A checkbox with another value than `true`,
    /// a missing MFA state or a TOTP window that is not a whole number is `INVALID_CONFIG`; the values' ranges are the
    /// config API's to check.
    public static func change(from form: [String: String], locks: [String: String]) throws -> Change {
        func flag(_ field: String) throws -> Bool {
            switch form[field] {
            case nil: return false
            case "true": return true
            case .some: throw WireError(.invalidConfig, "The form gives an unknown value for \(field).")
            }
        }
        var request: [String: JSONValue] = [:]
        var paths: [String] = []
        for setting in editable where locks[setting.path] == nil || setting.fields.contains(where: { form[$0] != nil }) {
            let value: JSONValue
            switch setting.path {
            case "signIn.anonymous.enabled": value = .bool(try flag("anonymous"))
            case "signIn.email.enabled": value = .bool(try flag("email"))
            case "signIn.email.passwordRequired": value = .bool(!(try flag("emailLink")))
            case "mfa.state":
                guard let state = form["mfaState"] else { throw WireError(.invalidConfig, "The form gives no MFA state.") }
                value = .string(state)
            case "mfa.enabledProviders": value = .array(try flag("sms") ? ["PHONE_SMS"] : [])
            default:
                let text = (form["adjacentIntervals"] ?? "1").trimmingCharacters(in: .whitespaces)
                guard let intervals = Int64(text) else {
                    throw WireError(.invalidConfig, "The TOTP window (adjacentIntervals) must be a whole number.")
                }
                value = [[
                    "state": .string(try flag("totp") ? "ENABLED" : "DISABLED"),
                    "totpProviderConfig": ["adjacentIntervals": .integer(intervals)],
                ]]
            }
            request = ProjectConfigRules.overlaid(request, with: ProjectConfigRules.object(setting: setting.path, to: value))
            paths.append(setting.path)
        }
        return Change(request: request, paths: paths)
    }

    /// The whole page for `viewer`: the form (posting to ``ConsolePaths/config`` with the CSRF token) and the
    /// read-only settings.
    public func html(_ viewer: ConsoleViewer) -> String {
        let status = notice.map { "<p class=\"status\" role=\"status\">\(ConsoleHTML.escape($0))</p>" } ?? ""
        let totp = Self.totp(in: config)
        let state = value("mfa.state")?.stringValue ?? "DISABLED"
        let states = (Self.mfaStates.contains(state) ? Self.mfaStates : Self.mfaStates + [state]).map {
            "<option value=\"\(ConsoleHTML.escape($0))\"\($0 == state ? " selected" : "")>\(ConsoleHTML.escape($0))</option>"
        }.joined()
        let sms = value("mfa.enabledProviders")?.arrayValue?.contains(.string("PHONE_SMS")) == true
        let editable = Self.editable.map(\.path).contains { locks[$0] == nil }
        return ConsoleLayout.page(title: "Configuration", viewer: viewer, section: .config, body: """
            \(status)
            <p>The project's effective configuration: what the config file sets, over what was changed here or through the \
            configuration API (<code>/v2/projects/{p}/config</code>), over the defaults. Tenants keep their own settings.</p>
            <form method="post" action="\(ConsolePaths.config)" id="config">\(ConsoleHTML.csrfField(viewer))
            \(ConsoleHTML.alert(error.map { "Not saved: \($0)" }))
            <section aria-labelledby="sign-in-heading"><h2 id="sign-in-heading">Sign-in methods</h2>
            \(checkbox("anonymous", "signIn.anonymous.enabled", "Anonymous sign-up (guests)", value("signIn.anonymous.enabled")?.boolValue ?? true))
            \(checkbox("email", "signIn.email.enabled", "Email and password sign-up and sign-in", value("signIn.email.enabled")?.boolValue ?? true))
            \(checkbox("emailLink", "signIn.email.passwordRequired", "Email link sign-in (with email sign-in on)", !(value("signIn.email.passwordRequired")?.boolValue ?? false)))
            </section>
            <section aria-labelledby="mfa-heading"><h2 id="mfa-heading">Second factors</h2>
            <label for="mfaState">SMS second factors (<code>mfa.state</code>)</label>
            <select id="mfaState" name="mfaState"\(locked("mfaState", "mfa.state"))>\(states)</select>\(reason("mfaState", "mfa.state"))
            \(checkbox("sms", "mfa.enabledProviders", "SMS codes (PHONE_SMS), while the state is ENABLED or MANDATORY", sms))
            \(checkbox("totp", "mfa.providerConfigs", "Authenticator apps (TOTP)", totp.enabled))
            <label for="adjacentIntervals">TOTP steps accepted before and after the current one (0–10)</label>
            <input type="number" id="adjacentIntervals" name="adjacentIntervals" min="0" max="10" step="1" value="\(ConsoleHTML.escape(totp.intervals))"\(locked("adjacentIntervals", "mfa.providerConfigs"))>\(reason("adjacentIntervals", "mfa.providerConfigs"))
            </section>
            \(editable ? "<div class=\"actions save\"><button type=\"submit\" id=\"save-config\">Save configuration</button></div>" : "<p class=\"muted\" id=\"all-locked\">Every setting here is set by the config file.</p>")
            </form>
            <section aria-labelledby="file-heading"><h2 id="file-heading">Set by the config file</h2>
            <p class="muted">Read from the config file only; change them there and restart.</p>
            <dl id="file-settings">
            \(row("password-policy", "Password policy", passwordPolicy, "passwordPolicyConfig"))
            \(row("email-privacy", "Email enumeration protection", value("emailPrivacyConfig.enableImprovedEmailPrivacy")?.boolValue == true ? "on" : "off", "emailPrivacyConfig"))
            \(row("authorized-domains", "Authorized domains", (value("authorizedDomains")?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "), "authorizedDomains"))
            </dl></section>
            """)
    }

    private func value(_ path: String) -> JSONValue? { ProjectConfigRules.value(in: config, at: path) }

    /// A checkbox for `path`, disabled with the reason when the file locks it.
    private func checkbox(_ id: String, _ path: String, _ label: String, _ checked: Bool) -> String {
        """
        <div class="check"><input type="checkbox" id="\(id)" name="\(id)" value="true"\(checked ? " checked" : "")\(locked(id, path))>\
        <label for="\(id)">\(ConsoleHTML.escape(label))</label></div>\(reason(id, path))
        """
    }

    /// ` disabled aria-describedby=…` for the control `id` of a locked `path`.
    private func locked(_ id: String, _ path: String) -> String {
        locks[path] == nil ? "" : " disabled aria-describedby=\"\(id)-lock\""
    }

    /// Why the control `id` of `path` is locked, or nothing.
    private func reason(_ id: String, _ path: String) -> String {
        locks[path].map {
            "<p class=\"lock\" id=\"\(id)-lock\">Locked: set by the config file (<code>\(ConsoleHTML.escape($0))</code>).</p>"
        } ?? ""
    }

    /// A read-only setting with the file key it comes from.
    private func row(_ id: String, _ name: String, _ text: String, _ path: String) -> String {
        let from = locks[path].map { " <span class=\"lock\">(<code>\(ConsoleHTML.escape($0))</code>)</span>" } ?? ""
        return "<dt>\(name)</dt><dd id=\"\(id)\">\(ConsoleHTML.escape(text.isEmpty ? "—" : text))\(from)</dd>"
    }

    /// The password policy in words: the enforcement state and each strength option of its first version.
    private var passwordPolicy: String {
        let state = value("passwordPolicyConfig.passwordPolicyEnforcementState")?.stringValue ?? "OFF"
        let version = value("passwordPolicyConfig.passwordPolicyVersions")?.arrayValue?.first?.objectValue
        let options = version?["customStrengthOptions"]?.objectValue ?? [:]
        let parts = options.keys.sorted().map { key -> String in
            switch options[key] {
            case .bool(let on): "\(key) \(on ? "yes" : "no")"
            case .integer(let number): "\(key) \(number)"
            default: key
            }
        }
        return ([state] + parts).joined(separator: ", ")
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
