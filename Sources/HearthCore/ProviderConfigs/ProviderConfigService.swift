import Foundation
public import HearthProtocol

/// Identity Platform's provider-configuration API (`/v2/projects/{p}/oauthIdpConfigs…`,
/// `/v2/projects/{p}/defaultSupportedIdpConfigs…` and `/v2/projects/{p}/inboundSamlConfigs…`, and the same under
/// `/tenants/{t}/`), as firebase-admin calls it:
/// create with a caller-chosen id, get, list by id in pages, update with an `updateMask`, delete. Callers are
/// authorized at the request edge; each change is one transaction with its audit event (`provider_config_created`,
/// `…_updated`, `…_deleted`, in the scope's log, never with the secret).
///
/// The providers the config file declares (the project's registry) show in the project's get and list as `locked`,
/// and creating, changing or deleting one answers `OPERATION_NOT_ALLOWED` naming the file: the file wins.
public final class ProviderConfigService: Sendable {
    let store: any HearthStore
    let time: any TimeSource
    let audit: AuditRecorder
    let projectID: String
    /// The file's providers as records, by kind and id (project scope only).
    let fileDeclared: [ProviderConfigRecord.Kind: [String: ProviderConfigRecord]]
    /// Told the scope of every committed change (the sign-in directory drops its cached entries).
    let changed: @Sendable (StoreScope) -> Void

    public init(
        context: ServiceContext, fileDeclared: [IdentityProvider], changed: @escaping @Sendable (StoreScope) -> Void = { _ in }
    ) {
        store = context.store.scoped(to: .project)
        time = context.time
        audit = context.auditRecorder
        projectID = context.project.projectID
        self.changed = changed
        var declared: [ProviderConfigRecord.Kind: [String: ProviderConfigRecord]] = [:]
        for provider in fileDeclared {
            let record = Self.record(of: provider)
            declared[record.kind, default: [:]][record.id] = record
        }
        self.fileDeclared = declared
    }

    /// The wire name of `kind`'s collection.
    public static func collection(_ kind: ProviderConfigRecord.Kind) -> String {
        switch kind {
        case .oauth: "oauthIdpConfigs"
        case .defaultSupported: "defaultSupportedIdpConfigs"
        case .saml: "inboundSamlConfigs"
        }
    }

    /// The wire fields `kind`'s resource has.
    public static func allowedFields(_ kind: ProviderConfigRecord.Kind) -> [String] {
        switch kind {
        case .oauth: ProviderConfigFields.oauthFields
        case .defaultSupported: ProviderConfigFields.defaultSupportedFields
        case .saml: ProviderConfigFields.samlFields
        }
    }

    /// The query parameter that names a new configuration's id.
    public static func idParameter(_ kind: ProviderConfigRecord.Kind) -> String {
        switch kind {
        case .oauth: "oauthIdpConfigId"
        case .defaultSupported: "idpId"
        case .saml: "inboundSamlConfigId"
        }
    }

    // MARK: - create

    /// `POST …/oauthIdpConfigs?oauthIdpConfigId=oidc.x` (or `…/defaultSupportedIdpConfigs?idpId=google.com`): a new
    /// configuration; `enabled` defaults to `false` and `responseType` to `{idToken: true}`, as Identity Platform.
    /// `CONFIGURATION_EXISTS` when the scope has one with that id.
    public func create(
        _ kind: ProviderConfigRecord.Kind, id: String?, _ fields: ProviderConfigFields, tenantID: String?,
        by caller: Caller
    ) throws -> ProviderConfigResponse {
        let id = id ?? ""
        try ProviderConfigRules.checkID(id, kind: kind)
        let scope = try scope(tenantID)
        try checkNotDeclared(kind, id, scope, "created")
        let now = time.nowMillis
        var record = ProviderConfigRecord(
            kind: kind, id: id, idTokenResponse: kind == .oauth, saml: kind == .saml ? SAMLProviderSettings() : nil,
            createdAtMillis: now, updatedAtMillis: now)
        Self.apply(fields, to: &record)
        try ProviderConfigRules.check(record)
        do {
            try store.scoped(to: scope).write { writer in
                try writer.insertProviderConfig(record)
                try audit.record(
                    .providerConfigCreated, provider: id, by: caller, detail: "config=\(Self.collection(kind))",
                    in: writer)
            }
        } catch let error as StoreError where error.code == .duplicateProviderConfig {
            throw WireError(.configurationExists, "A provider configuration with this id exists.")
        }
        changed(scope)
        return response(record, scope: scope)
    }

    // MARK: - get, list

    /// `GET …/{id}`: `CONFIGURATION_NOT_FOUND` for an id the scope has no configuration for.
    public func get(_ kind: ProviderConfigRecord.Kind, id: String, tenantID: String?) throws -> ProviderConfigResponse {
        try ProviderConfigRules.checkID(id, kind: kind)
        let scope = try scope(tenantID)
        if scope.isProject, let declared = fileDeclared[kind]?[id] { return response(declared, scope: scope, locked: true) }
        guard let record = try store.scoped(to: scope).read({ try $0.providerConfig(kind: kind, id: id) }) else {
            throw Self.notFound
        }
        return response(record, scope: scope)
    }

    /// `GET …`: a page of configurations by id (the file's among them in the project scope), after the previous
    /// page's last (`pageToken`); `nextPageToken` only when more follow.
    public func list(_ kind: ProviderConfigRecord.Kind, _ request: ListProviderConfigsRequest, tenantID: String?) throws
        -> ListProviderConfigsResponse
    {
        let scope = try scope(tenantID)
        let declared = scope.isProject ? fileDeclared[kind] ?? [:] : [:]
        let after = request.pageToken
        let stored = try store.scoped(to: scope).read {
            try $0.providerConfigs(kind: kind, after: after, limit: request.pageSize + 1 + declared.count)
        }
        let file = declared.values.filter { record in after.map { $0.utf8.lexicographicallyPrecedes(record.id.utf8) } ?? true }
        let merged = (stored.filter { declared[$0.id] == nil }.map { ($0, false) } + file.map { ($0, true) })
            .sorted { $0.0.id.utf8.lexicographicallyPrecedes($1.0.id.utf8) }
        let page = merged.prefix(request.pageSize)
        return ListProviderConfigsResponse(
            collection: Self.collection(kind), configs: page.map { response($0.0, scope: scope, locked: $0.1) },
            nextPageToken: merged.count > page.count ? page.last?.0.id : nil)
    }

    // MARK: - update

    /// `PATCH …/{id}?updateMask=…`: sets the fields the mask names (`displayName`, `enabled`, `clientId`, `issuer`,
    /// `clientSecret`, `responseType`, `responseType.idToken`, `responseType.code`) to the request's values, clearing
    /// those it leaves out; a name the resource has not is `INVALID_ARGUMENT`. Without a mask, the fields the request
    /// gives are set; a `clientSecret` equal to the masked one answered keeps the stored secret. The result is checked
    /// as a new one is.
    public func update(
        _ kind: ProviderConfigRecord.Kind, id: String, _ fields: ProviderConfigFields, updateMask: String?,
        tenantID: String?, by caller: Caller
    ) throws -> ProviderConfigResponse {
        try ProviderConfigRules.checkID(id, kind: kind)
        let scope = try scope(tenantID)
        try checkNotDeclared(kind, id, scope, "changed")
        let paths = try updateMask.map { try Self.maskPaths($0, kind: kind) }
        let updated = try store.scoped(to: scope).write { writer -> ProviderConfigRecord in
            guard var record = try writer.providerConfig(kind: kind, id: id) else { throw Self.notFound }
            let stored = record.clientSecret
            if let paths {
                Self.apply(fields, paths: paths, to: &record)
            } else {
                Self.apply(fields, to: &record)
            }
            // A client that sends back what it read (the masked secret) keeps the secret.
            if let stored, record.clientSecret == ProviderConfigRules.maskedSecret(stored) { record.clientSecret = stored }
            try ProviderConfigRules.check(record)
            record.updatedAtMillis = time.nowMillis
            try writer.updateProviderConfig(record)
            let names = paths ?? Self.givenFields(fields)
            let changed = Set(names.map { String($0.prefix { $0 != "." }) }).sorted().joined(separator: ",")
            try audit.record(
                .providerConfigUpdated, provider: id, by: caller,
                detail: "config=\(Self.collection(kind)) fields=\(changed)", in: writer)
            return record
        }
        changed(scope)
        return response(updated, scope: scope)
    }

    /// The mask's paths; an empty one or a name the resource has not is `INVALID_ARGUMENT`.
    static func maskPaths(_ mask: String, kind: ProviderConfigRecord.Kind) throws -> [String] {
        let nested: [String] =
            switch kind {
            case .oauth: ["responseType.idToken", "responseType.code"]
            case .defaultSupported: []
            case .saml: ProviderConfigFields.samlMaskPaths
            }
        let allowed = allowedFields(kind) + nested
        let paths = mask.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for path in paths where !allowed.contains(path) {
            throw WireError(
                .invalidArgument,
                "updateMask names a field a provider configuration does not have: \(TenantFields.shown(path)).")
        }
        return paths
    }

    // MARK: - delete

    /// `DELETE …/{id}`: `CONFIGURATION_NOT_FOUND` for an id the scope has no configuration for.
    public func delete(_ kind: ProviderConfigRecord.Kind, id: String, tenantID: String?, by caller: Caller) throws {
        try ProviderConfigRules.checkID(id, kind: kind)
        let scope = try scope(tenantID)
        try checkNotDeclared(kind, id, scope, "deleted")
        try store.scoped(to: scope).write { writer in
            guard try writer.deleteProviderConfig(kind: kind, id: id) else { throw Self.notFound }
            try audit.record(
                .providerConfigDeleted, provider: id, by: caller, detail: "config=\(Self.collection(kind))", in: writer)
        }
        changed(scope)
    }

    // MARK: - records and answers

    static let notFound = WireError(.configurationNotFound, "There is no provider configuration with this id.")

    /// The scope of `tenantID` (the project for `nil`): `INVALID_TENANT_ID`, or `TENANT_NOT_FOUND` for a tenant that
    /// does not exist.
    func scope(_ tenantID: String?) throws -> StoreScope {
        guard let tenantID else { return .project }
        try TenantRules.checkID(tenantID)
        guard try store.read({ try $0.tenant(id: tenantID) }) != nil else {
            throw WireError(.tenantNotFound, "There is no tenant with this id.")
        }
        return try StoreScope.tenant(tenantID)
    }

    private func checkNotDeclared(_ kind: ProviderConfigRecord.Kind, _ id: String, _ scope: StoreScope, _ verb: String)
        throws
    {
        guard scope.isProject, fileDeclared[kind]?[id] != nil else { return }
        throw WireError(
            .operationNotAllowed,
            "\(id) is declared in Hearth's config file, which wins over the API: it cannot be \(verb) here; change the file instead.")
    }

    /// `record` with every field `fields` gives set.
    static func apply(_ fields: ProviderConfigFields, to record: inout ProviderConfigRecord) {
        if let value = fields.displayName { record.displayName = value }
        if let value = fields.enabled { record.enabled = value }
        if let value = fields.clientId { record.clientID = value }
        if let value = fields.issuer { record.issuer = value }
        if let value = fields.clientSecret { record.clientSecret = value }
        if let value = fields.idTokenResponse { record.idTokenResponse = value }
        if let value = fields.codeResponse { record.codeResponse = value }
        guard record.kind == .saml else { return }
        var saml = record.saml ?? SAMLProviderSettings()
        if let value = fields.idpEntityId { saml.idpEntityID = value }
        if let value = fields.ssoUrl { saml.ssoURL = value }
        if let value = fields.signRequest { saml.signRequest = value }
        if let value = fields.idpCertificates { saml.idpCertificates = value }
        if let value = fields.spEntityId { saml.spEntityID = value }
        if let value = fields.callbackUri { saml.callbackURI = value }
        record.saml = saml
    }

    /// `record` with the masked fields taken from `fields` (cleared when it gives none).
    static func apply(_ fields: ProviderConfigFields, paths: [String], to record: inout ProviderConfigRecord) {
        for path in paths {
            switch path {
            case "displayName": record.displayName = fields.displayName
            case "enabled": record.enabled = fields.enabled ?? false
            case "clientId": record.clientID = fields.clientId
            case "issuer": record.issuer = fields.issuer
            case "clientSecret": record.clientSecret = fields.clientSecret
            case "responseType":
                record.idTokenResponse = fields.idTokenResponse ?? false
                record.codeResponse = fields.codeResponse ?? false
            case "responseType.idToken": record.idTokenResponse = fields.idTokenResponse ?? false
            case "responseType.code": record.codeResponse = fields.codeResponse ?? false
            default: break
            }
            guard record.kind == .saml else { continue }
            var saml = record.saml ?? SAMLProviderSettings()
            let idp = path == "idpConfig"
            let sp = path == "spConfig"
            if idp || path == "idpConfig.idpEntityId" { saml.idpEntityID = fields.idpEntityId }
            if idp || path == "idpConfig.ssoUrl" { saml.ssoURL = fields.ssoUrl }
            if idp || path == "idpConfig.signRequest" { saml.signRequest = fields.signRequest ?? false }
            if idp || path == "idpConfig.idpCertificates" { saml.idpCertificates = fields.idpCertificates ?? [] }
            if sp || path == "spConfig.spEntityId" { saml.spEntityID = fields.spEntityId }
            if sp || path == "spConfig.callbackUri" { saml.callbackURI = fields.callbackUri }
            record.saml = saml
        }
    }

    /// The wire names of the fields a request gives.
    static func givenFields(_ fields: ProviderConfigFields) -> [String] {
        var names: [String] = []
        if fields.displayName != nil { names.append("displayName") }
        if fields.enabled != nil { names.append("enabled") }
        if fields.clientId != nil { names.append("clientId") }
        if fields.issuer != nil { names.append("issuer") }
        if fields.clientSecret != nil { names.append("clientSecret") }
        if fields.idTokenResponse != nil || fields.codeResponse != nil { names.append("responseType") }
        if fields.idpEntityId != nil || fields.ssoUrl != nil || fields.signRequest != nil || fields.idpCertificates != nil {
            names.append("idpConfig")
        }
        if fields.spEntityId != nil || fields.callbackUri != nil { names.append("spConfig") }
        return names
    }

    /// The record the API shows for a provider of the config file.
    static func record(of provider: IdentityProvider) -> ProviderConfigRecord {
        let kind: ProviderConfigRecord.Kind = provider.kind == .openID ? .oauth : .defaultSupported
        return ProviderConfigRecord(
            kind: kind, id: provider.id, enabled: !provider.clientIDs.isEmpty, clientID: provider.clientIDs.sorted().first,
            issuer: kind == .oauth ? provider.issuers.first?.issuerNames.sorted().first : nil,
            idTokenResponse: kind == .oauth, codeResponse: kind == .oauth && provider.codeExchange != nil,
            createdAtMillis: 0, updatedAtMillis: 0)
    }

    func response(_ record: ProviderConfigRecord, scope: StoreScope, locked: Bool = false) -> ProviderConfigResponse {
        let parent = scope.isProject ? "projects/\(projectID)" : "projects/\(projectID)/tenants/\(scope.tenantID)"
        return ProviderConfigResponse(
            name: "\(parent)/\(Self.collection(record.kind))/\(record.id)", displayName: record.displayName,
            enabled: record.enabled, clientId: record.clientID, issuer: record.issuer,
            clientSecret: record.clientSecret.map(ProviderConfigRules.maskedSecret),
            responseType: record.kind == .oauth
                ? OAuthResponseType(idToken: record.idTokenResponse, code: record.codeResponse) : nil,
            idpConfig: record.saml.map {
                SAMLIdpConfig(
                    idpEntityId: $0.idpEntityID, ssoUrl: $0.ssoURL, signRequest: $0.signRequest,
                    idpCertificates: $0.idpCertificates)
            },
            spConfig: record.saml.map { SAMLSpConfig(spEntityId: $0.spEntityID, callbackUri: $0.callbackURI) },
            locked: locked ? true : nil)
    }
}
