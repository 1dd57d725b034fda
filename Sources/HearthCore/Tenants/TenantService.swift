import Foundation
public import HearthProtocol

/// Identity Platform's tenant API (`/v2/projects/{p}/tenants…`, as firebase-admin's `tenant_mgt` calls it): create
/// with a server-made id, get, list by id in pages, update with an `updateMask`, delete. Callers are authorized at
/// the request edge; each change is one transaction that records its audit event (`tenant_created`,
/// `tenant_updated`, `tenant_deleted`, in the project's log, `detail` naming the tenant).
///
/// Deleting a tenant deletes its users, sessions and codes with it (see `delete(id:by:)`).
public final class TenantService: Sendable {
    let store: any HearthStore
    let time: any TimeSource
    let audit: AuditRecorder
    let projectID: String
    let purge: TenantPurge

    /// How many ids `create` tries before giving up (a generated id that is taken is drawn again).
    static let idAttempts = 5

    public init(context: ServiceContext) {
        store = context.store.scoped(to: .project)
        time = context.time
        audit = context.auditRecorder
        projectID = context.project.projectID
        purge = TenantPurge(store: store, time: time, batchSize: 500)
    }

    // MARK: - create

    /// `POST …/tenants`: a new tenant with an id made from its display name (``TenantRules/newID(displayName:)``);
    /// unset booleans are `false` and an unset `mfaConfig` is `{"state": "DISABLED", "enabledProviders": []}`, as
    /// the emulator answers.
    public func create(_ fields: TenantFields, by caller: Caller) throws -> TenantResponse {
        guard let displayName = fields.displayName else {
            throw WireError(.invalidDisplayName, "A tenant needs a display name.")
        }
        let now = time.nowMillis
        var tenant = try Self.applying(fields, to: Tenant(id: "", createdAtMillis: now, updatedAtMillis: now))
        if tenant.mfaConfig == nil { tenant.mfaConfig = Self.disabledMFAConfig }
        for attempt in 1...Self.idAttempts {
            tenant.id = TenantRules.newID(displayName: displayName)
            // A deleted tenant's id is not given again while its purge is unfinished.
            guard try store.scoped(to: .tenant(tenant.id)).read({ try $0.accountCount() }) == 0 else { continue }
            do {
                try store.write { writer in
                    try writer.insertTenant(tenant)
                    try audit.record(.tenantCreated, by: caller, detail: Self.detail(tenant.id), in: writer)
                }
                return try response(tenant)
            } catch let error as StoreError where error.code == .duplicateTenant && attempt < Self.idAttempts {
                continue
            }
        }
        throw WireError(.internalError, "No free tenant id was found.")
    }

    // MARK: - get, list

    /// `GET …/tenants/{t}`: `TENANT_NOT_FOUND` for an id no tenant has.
    public func get(id: String) throws -> TenantResponse {
        try response(try tenant(id: id))
    }

    /// The tenant `id`; `INVALID_TENANT_ID` for an id no tenant can have, `TENANT_NOT_FOUND` for one no tenant has.
    public func tenant(id: String) throws -> Tenant {
        try TenantRules.checkID(id)
        guard let tenant = try store.read({ try $0.tenant(id: id) }) else { throw Self.notFound }
        return tenant
    }

    /// `GET …/tenants`: a page of tenants by id, after the previous page's last (`pageToken`); `nextPageToken` only
    /// when more follow.
    public func list(_ request: ListTenantsRequest) throws -> ListTenantsResponse {
        if let token = request.pageToken { try TenantRules.checkID(token, code: .invalidPageSelection) }
        let found = try store.read { try $0.tenants(after: request.pageToken, limit: request.pageSize + 1) }
        let page = Array(found.prefix(request.pageSize))
        return ListTenantsResponse(
            tenants: try page.map(response), nextPageToken: found.count > page.count ? page.last?.id : nil)
    }

    // MARK: - update

    /// `PATCH …/tenants/{t}?updateMask=…`: sets the fields the mask names (top-level names, or `mfaConfig.state`
    /// and the like inside the object settings) to the request's values, clearing those it leaves out; a mask
    /// naming a field the tenant has not is `INVALID_ARGUMENT`. Without a mask every settable field is replaced
    /// (unset ones reset), as the emulator does.
    public func update(id: String, _ fields: TenantFields, updateMask: String?, by caller: Caller) throws
        -> TenantResponse
    {
        try TenantRules.checkID(id)
        let paths = try updateMask.map(Self.maskPaths) ?? TenantFields.settable
        let updated = try store.write { writer -> Tenant in
            guard let stored = try writer.tenant(id: id) else { throw Self.notFound }
            var tenant = try Self.masked(stored, with: fields, paths: paths)
            if tenant.mfaConfig == nil { tenant.mfaConfig = Self.disabledMFAConfig }
            tenant.updatedAtMillis = time.nowMillis
            try writer.updateTenant(tenant)
            let changed = Set(paths.map { String($0.prefix { $0 != "." }) }).sorted().joined(separator: ",")
            try audit.record(
                .tenantUpdated, by: caller, detail: Self.detail(id) + " fields=\(changed)", in: writer)
            return tenant
        }
        return try response(updated)
    }

    /// The mask's paths; an empty one or a name the tenant resource has not is `INVALID_ARGUMENT`.
    static func maskPaths(_ mask: String) throws -> [String] {
        let paths = mask.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for path in paths {
            let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let known = switch parts.count {
            case 1: TenantFields.settable.contains(parts[0])
            case 2: objectSettings.contains(parts[0]) && !parts[1].isEmpty
            default: false
            }
            guard known else {
                throw WireError(
                    .invalidArgument, "updateMask names a field a tenant does not have: \(TenantFields.shown(path)).")
            }
        }
        return paths
    }

    /// The settings whose members a mask may name one by one.
    private static let objectSettings: Set<String> = [
        "mfaConfig", "passwordPolicyConfig", "emailPrivacyConfig", "smsRegionConfig",
    ]

    /// `stored` with the masked fields taken from `fields`, each checked.
    static func masked(_ stored: Tenant, with fields: TenantFields, paths: [String]) throws -> Tenant {
        var replaced = TenantFields()
        var current = try settings(of: stored)
        for path in paths {
            let parts = path.split(separator: ".").map(String.init)
            if parts.count == 2 {
                var object = current[parts[0]]?.objectValue ?? [:]
                object[parts[1]] = fieldValue(fields, parts[0])?[parts[1]]
                current[parts[0]] = .object(object)
            } else {
                current[path] = fieldValue(fields, path)
            }
        }
        replaced.displayName = current["displayName"]?.stringValue
        replaced.allowPasswordSignup = current["allowPasswordSignup"]?.boolValue ?? false
        replaced.enableEmailLinkSignin = current["enableEmailLinkSignin"]?.boolValue ?? false
        replaced.disableAuth = current["disableAuth"]?.boolValue ?? false
        replaced.enableAnonymousUser = current["enableAnonymousUser"]?.boolValue ?? false
        replaced.mfaConfig = current["mfaConfig"]
        replaced.testPhoneNumbers = current["testPhoneNumbers"]
        replaced.passwordPolicyConfig = current["passwordPolicyConfig"]
        replaced.emailPrivacyConfig = current["emailPrivacyConfig"]
        replaced.smsRegionConfig = current["smsRegionConfig"]
        return try applying(
            replaced, to: Tenant(id: stored.id, createdAtMillis: stored.createdAtMillis, updatedAtMillis: stored.updatedAtMillis))
    }

    // MARK: - delete

    /// `DELETE …/tenants/{t}`: `TENANT_NOT_FOUND` for an id no tenant has. The tenant record goes first, with its
    /// audit event, so the tenant is gone at once; then its users, sessions and codes are purged in batches
    /// (``TenantPurge``): up to ``inlinePurgeBatches`` here, the rest by the maintenance task's next pass.
    public func delete(id: String, by caller: Caller) throws {
        try TenantRules.checkID(id)
        try store.write { writer in
            guard try writer.deleteTenant(id: id) else { throw Self.notFound }
            try audit.record(.tenantDeleted, by: caller, detail: Self.detail(id), in: writer)
        }
        var batches = 0
        _ = try purge.purge(try .tenant(id)) {
            batches += 1
            return batches >= Self.inlinePurgeBatches
        }
    }

    /// How many purge transactions `delete` runs before it answers (of `TenantPurge.batchSize` records each).
    static let inlinePurgeBatches = 20

    // MARK: - records and answers

    static let notFound = WireError(.tenantNotFound, "There is no tenant with this id.")
    static let disabledMFAConfig = #"{"enabledProviders":[],"state":"DISABLED"}"#

    static func detail(_ id: String) -> String { "tenant=\(id)" }

    /// `tenant` with every field `fields` gives checked and set (the others unchanged).
    static func applying(_ fields: TenantFields, to tenant: Tenant) throws -> Tenant {
        var tenant = tenant
        if let name = fields.displayName {
            try TenantRules.checkDisplayName(name)
            tenant.displayName = name
        }
        if let value = fields.allowPasswordSignup { tenant.allowPasswordSignup = value }
        if let value = fields.enableEmailLinkSignin { tenant.enableEmailLinkSignin = value }
        if let value = fields.disableAuth { tenant.disableAuth = value }
        if let value = fields.enableAnonymousUser { tenant.enableAnonymousUser = value }
        tenant.mfaConfig = try checked(fields.mfaConfig, "mfaConfig", TenantRules.checkMFAConfig) ?? tenant.mfaConfig
        tenant.testPhoneNumbers =
            try checked(fields.testPhoneNumbers, "testPhoneNumbers", TenantRules.checkTestPhoneNumbers)
            ?? tenant.testPhoneNumbers
        tenant.passwordPolicyConfig =
            try checked(fields.passwordPolicyConfig, "passwordPolicyConfig", TenantRules.checkPasswordPolicyConfig)
            ?? tenant.passwordPolicyConfig
        tenant.emailPrivacyConfig =
            try checked(fields.emailPrivacyConfig, "emailPrivacyConfig", TenantRules.checkEmailPrivacyConfig)
            ?? tenant.emailPrivacyConfig
        tenant.smsRegionConfig =
            try checked(fields.smsRegionConfig, "smsRegionConfig", TenantRules.checkSMSRegionConfig) ?? tenant.smsRegionConfig
        return tenant
    }

    /// The JSON text of a setting the request gives, once `check` accepted it; `nil` when it gives none.
    private static func checked(_ value: JSONValue?, _ name: String, _ check: (JSONValue) throws -> Void) throws
        -> String?
    {
        guard let value else { return nil }
        try check(value)
        return try TenantRules.storedText(value, name)
    }

    /// The settable fields of a stored tenant as wire values, by name (unset ones left out).
    static func settings(of tenant: Tenant) throws -> [String: JSONValue] {
        var settings: [String: JSONValue] = [
            "allowPasswordSignup": .bool(tenant.allowPasswordSignup),
            "enableEmailLinkSignin": .bool(tenant.enableEmailLinkSignin), "disableAuth": .bool(tenant.disableAuth),
            "enableAnonymousUser": .bool(tenant.enableAnonymousUser),
        ]
        settings["displayName"] = tenant.displayName.map(JSONValue.string)
        settings["mfaConfig"] = try parsed(tenant.mfaConfig)
        settings["testPhoneNumbers"] = try parsed(tenant.testPhoneNumbers)
        settings["passwordPolicyConfig"] = try parsed(tenant.passwordPolicyConfig)
        settings["emailPrivacyConfig"] = try parsed(tenant.emailPrivacyConfig)
        settings["smsRegionConfig"] = try parsed(tenant.smsRegionConfig)
        return settings
    }

    private static func fieldValue(_ fields: TenantFields, _ name: String) -> JSONValue? {
        switch name {
        case "displayName": fields.displayName.map(JSONValue.string)
        case "allowPasswordSignup": fields.allowPasswordSignup.map(JSONValue.bool)
        case "enableEmailLinkSignin": fields.enableEmailLinkSignin.map(JSONValue.bool)
        case "disableAuth": fields.disableAuth.map(JSONValue.bool)
        case "enableAnonymousUser": fields.enableAnonymousUser.map(JSONValue.bool)
        case "mfaConfig": fields.mfaConfig
        case "testPhoneNumbers": fields.testPhoneNumbers
        case "passwordPolicyConfig": fields.passwordPolicyConfig
        case "emailPrivacyConfig": fields.emailPrivacyConfig
        case "smsRegionConfig": fields.smsRegionConfig
        default: nil
        }
    }

    private static func parsed(_ text: String?) throws -> JSONValue? {
        guard let text else { return nil }
        guard let value = try? JSONValue(parsing: Data(text.utf8)) else {
            throw StoreError(.corrupt, "tenant: a setting is not JSON")
        }
        return value
    }

    func response(_ tenant: Tenant) throws -> TenantResponse {
        TenantResponse(
            name: "projects/\(projectID)/tenants/\(tenant.id)",
            settings: TenantFields(
                displayName: tenant.displayName, allowPasswordSignup: tenant.allowPasswordSignup,
                enableEmailLinkSignin: tenant.enableEmailLinkSignin, disableAuth: tenant.disableAuth,
                enableAnonymousUser: tenant.enableAnonymousUser, mfaConfig: try Self.parsed(tenant.mfaConfig),
                testPhoneNumbers: try Self.parsed(tenant.testPhoneNumbers),
                passwordPolicyConfig: try Self.parsed(tenant.passwordPolicyConfig),
                emailPrivacyConfig: try Self.parsed(tenant.emailPrivacyConfig),
                smsRegionConfig: try Self.parsed(tenant.smsRegionConfig)))
    }
}
