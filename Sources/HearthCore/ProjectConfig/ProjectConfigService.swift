import Foundation
public import HearthProtocol

/// What the config file says about the project configuration: its settings as a wire object of the config
/// resource, and for each field path it declares, the file key that declares it. A declared path is locked: the
/// config API answers it from the file and refuses to change it (`OPERATION_NOT_ALLOWED`, naming the key).
public struct FileDeclaredConfig: Sendable {
    /// The file's settings, shaped as the resource (`{"mfa": {…}, "signIn": {"anonymous": {"enabled": false}}}`).
    public var settings: [String: JSONValue]
    /// Wire path → the file key that declares it (`"mfa"` → `"mfa"`, `"signIn.anonymous.enabled"` →
    /// `"signIn.anonymous.enabled"`).
    public var keys: [String: String]

    public init(settings: [String: JSONValue] = [:], keys: [String: String] = [:]) {
        self.settings = settings
        self.keys = keys
    }
}

/// Identity Platform's project configuration API (`GET/PATCH /v2/projects/{p}/config`, as Go's
/// `GetProjectConfig`/`UpdateProjectConfig` and Node's `projectConfigManager()` call it). Callers are authorized at
/// the request edge; each change is one transaction with its audit event (`project_config_updated`, `detail` the
/// mask's paths, never a value).
///
/// The configuration answered is the effective one: the config file's settings (which win), over what the API set
/// (stored per scope, ``ProjectConfigRecord``), over the defaults (every sign-in method on, the MFA policy the
/// server was started with, Firebase's password policy, Hearth's email privacy and authorized domains).
public final class ProjectConfigService: Sendable {
    let store: any HearthStore
    let time: any TimeSource
    let audit: AuditRecorder
    let projectID: String
    /// The defaults with the file's settings laid over them.
    let base: [String: JSONValue]
    /// Locked path → the file key that declares it.
    let locked: [String: String]
    /// Told the scope of every committed change (the settings cache drops its entry).
    let changed: @Sendable (StoreScope) -> Void

    public init(
        context: ServiceContext, file: FileDeclaredConfig, authorizedDomains: [String],
        changed: @escaping @Sendable (StoreScope) -> Void = { _ in }
    ) {
        store = context.store.scoped(to: .project)
        time = context.time
        audit = context.auditRecorder
        projectID = context.project.projectID
        self.changed = changed
        let defaults: [String: JSONValue] = [
            "signIn": [
                "allowDuplicateEmails": false, "anonymous": ["enabled": true],
                "email": ["enabled": true, "passwordRequired": false],
            ],
            "mfa": ProjectSettings.wire(context.project.mfa),
            "passwordPolicyConfig": PasswordPolicy.firebaseDefault.configForm,
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(context.project.emailEnumerationProtection)],
            "authorizedDomains": .array(authorizedDomains.map(JSONValue.string)),
        ]
        base = ProjectConfigRules.overlaid(defaults, with: file.settings)
        locked = file.keys
    }

    /// `GET …/config`: the effective configuration of `scope`, with its resource `name`.
    public func get(in scope: StoreScope = .project) throws -> [String: JSONValue] {
        response(try effective(in: scope), scope: scope)
    }

    /// The effective configuration's enforced settings (read from the store; ``ProjectConfigDirectory`` caches them).
    public func settings(in scope: StoreScope) throws -> ProjectSettings {
        if let tenantID = scope.tenant { return try store.read { try settings(ofTenant: tenantID, $0) } }
        return try store.read { try settings(from: $0, in: .project) }
    }

    /// The enforced settings of `scope`, read through `reader` (inside a transaction of that scope).
    public func settings(from reader: any StoreReader, in scope: StoreScope) throws -> ProjectSettings {
        if let tenantID = scope.tenant { return try settings(ofTenant: tenantID, reader) }
        let stored = try Self.parsed(try reader.projectConfig())
        let domains = lock(of: "authorizedDomains") == nil
            ? stored["authorizedDomains"]?.arrayValue.map { Set($0.compactMap { $0.stringValue?.lowercased() }) } : nil
        let actionURL = lock(of: "notification.sendEmail.callbackUri") == nil
            ? ProjectConfigRules.value(in: stored, at: "notification.sendEmail.callbackUri")?.stringValue : nil
        return ProjectSettings(effective: effective(stored: stored), authorizedDomains: domains, emailActionURL: actionURL)
    }

    /// A tenant's settings are its own record's (the tenant API's fields), not the project's configuration: its
    /// switches, its `mfaConfig`, `smsRegionConfig` and `testPhoneNumbers`, and its `passwordPolicyConfig` and `emailPrivacyConfig` when
    /// it sets them (else the defaults and the config file's, never what the config API set for the project). A tenant that is gone
    /// allows nothing (its calls are `TENANT_NOT_FOUND` anyway).
    func settings(ofTenant id: String, _ reader: any StoreReader) throws -> ProjectSettings {
        guard let tenant = try reader.tenant(id: id) else {
            return ProjectSettings(
                switches: SignInSwitches(disabled: true, password: false, emailLink: false, anonymous: false, subject: "this tenant"),
                mfa: MFAPolicy(enabled: false, factors: [], totpAdjacentIntervals: 1))
        }
        func object(_ text: String?) -> JSONValue? { text.flatMap { try? JSONValue(parsing: Data($0.utf8)) } }
        let defaults = ProjectSettings(effective: base)
        return ProjectSettings(
            switches: tenant.switches, mfa: ProjectSettings.policy(object(tenant.mfaConfig)?.objectValue ?? [:]),
            passwordPolicy: object(tenant.passwordPolicyConfig).map(ProjectSettings.passwordPolicy) ?? defaults.passwordPolicy,
            emailEnumerationProtection: object(tenant.emailPrivacyConfig)?["enableImprovedEmailPrivacy"]?.boolValue
                ?? defaults.emailEnumerationProtection,
            smsRegions: SMSRegionPolicy(config: object(tenant.smsRegionConfig)),
            testPhoneNumbers: ProjectSettings.testPhoneNumbers(object(tenant.testPhoneNumbers)))
    }

    /// `PATCH …/config?updateMask=…`: sets the paths the mask names to the request's values, clearing those the
    /// request leaves out (``ProjectConfigRules/merged(_:with:paths:)``); without a mask, every path the request
    /// gives. A path the file declares (or overlapping one) is `OPERATION_NOT_ALLOWED` naming the file's key; an
    /// unknown path or a value a field cannot take is `INVALID_CONFIG`. Answers the effective configuration.
    public func update(
        _ request: [String: JSONValue], updateMask: String?, in scope: StoreScope = .project, by caller: Caller
    ) throws -> [String: JSONValue] {
        let paths = try updateMask.map(ProjectConfigRules.maskPaths) ?? ProjectConfigRules.leafPaths(of: request)
        guard !paths.isEmpty else { throw WireError(.invalidConfig, "The update names no field.") }
        try checkUnlocked(paths)
        let config = try store.scoped(to: scope).write { writer -> [String: JSONValue] in
            let stored = try Self.parsed(try writer.projectConfig())
            let updated = ProjectConfigRules.keepingOneSMSPolicy(
                ProjectConfigRules.merged(stored, with: request, paths: paths), named: paths)
            try ProjectConfigRules.check(updated)
            let text = String(decoding: JSONValue.object(updated).jsonData(sortedKeys: true), as: UTF8.self)
            try writer.putProjectConfig(ProjectConfigRecord(settings: text, updatedAtMillis: time.nowMillis))
            try audit.record(
                .projectConfigUpdated, by: caller, detail: "fields=\(paths.sorted().joined(separator: ","))", in: writer)
            return updated
        }
        changed(scope)
        return response(effective(stored: config), scope: scope)
    }

    /// The locked path that overlaps `path` (it, an object containing it, or a path inside it) and the file key
    /// that declares it; nil when the API may change `path`. What the console shows as locked, and what
    /// ``update(_:updateMask:in:by:)`` refuses.
    public func lock(of path: String) -> (path: String, key: String)? {
        locked.sorted(by: { $0.key < $1.key }).first { ProjectConfigRules.overlap(path, $0.key) }.map { ($0.key, $0.value) }
    }

    /// Refuses paths that overlap a locked one, naming the file key.
    func checkUnlocked(_ paths: [String]) throws {
        for path in paths {
            guard let (lockedPath, key) = lock(of: path) else { continue }
            throw WireError(
                .operationNotAllowed,
                "\(lockedPath) is declared by the config file (\(key)) and cannot be changed through the API.")
        }
    }

    /// The effective configuration of `scope`: the file's settings over the stored ones (its locked paths dropped)
    /// over the defaults.
    func effective(in scope: StoreScope) throws -> [String: JSONValue] {
        effective(stored: try Self.parsed(try store.scoped(to: scope).read { try $0.projectConfig() }))
    }

    private func effective(stored: [String: JSONValue]) -> [String: JSONValue] {
        let unlocked = ProjectConfigRules.merged(stored, with: [:], paths: Array(locked.keys))
        let effective = ProjectConfigRules.overlaid(base, with: unlocked)
        // The file wins: its values are laid over the result again.
        return ProjectConfigRules.merged(effective, with: base, paths: Array(locked.keys))
    }

    private func response(_ config: [String: JSONValue], scope: StoreScope) -> [String: JSONValue] {
        var response = config
        response["name"] = .string(
            scope.tenant.map { "projects/\(projectID)/tenants/\($0)/config" } ?? "projects/\(projectID)/config")
        return response
    }

    static func parsed(_ record: ProjectConfigRecord?) throws -> [String: JSONValue] {
        guard let record else { return [:] }
        guard let value = try? JSONValue(parsing: Data(record.settings.utf8)), let object = value.objectValue else {
            throw StoreError(.corrupt, "project_config: the settings are not a JSON object")
        }
        return object
    }
}
