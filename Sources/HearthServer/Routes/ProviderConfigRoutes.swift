import HearthCore
import HearthHTTP
import HearthProtocol

/// Identity Platform's provider-configuration API, as firebase-admin calls it: `…/v2/projects/{project}/oauthIdpConfigs`
/// (create with `?oauthIdpConfigId=`, list with `pageSize`/`pageToken`) and `…/oauthIdpConfigs/{id}` (get, patch with
/// `updateMask`, delete), the same for `defaultSupportedIdpConfigs` (create with `?idpId=`), and both under
/// `…/projects/{project}/tenants/{tenant}/` in the tenant's scope; `inboundSamlConfigs` likewise (create with
/// `?inboundSamlConfigId=`). Behind the admin edge, like the tenant API.
struct ProviderConfigRoutes {
    let platform: IdentityPlatform
    let edge: Edge

    static let project = "\(IdentityToolkitRoutes.v2)/projects/{project}"
    static let tenant = "\(project)/tenants/{tenant}"

    func register(in router: inout Router) {
        for kind in ProviderConfigRecord.Kind.allCases {
            for parent in [Self.project, Self.tenant] {
                register(kind, under: parent, in: &router)
            }
        }
    }

    private func register(_ kind: ProviderConfigRecord.Kind, under parent: String, in router: inout Router) {
        let configs = platform.providerConfigs
        let admin = edge.admin
        let base = "\(parent)/\(ProviderConfigService.collection(kind))"
        let allowed = ProviderConfigService.allowedFields(kind)
        let idParameter = ProviderConfigService.idParameter(kind)
        router.add(.post, base, admin.handler { request in
            let fields = try ProviderConfigFields(fields: try RequestFields(json: request.body), allowed: allowed)
            let id = try Self.query(request).string(idParameter)
            return Responses.json(
                try configs.create(kind, id: id, fields, tenantID: Self.tenantID(request), by: try request.administrator()))
        })
        router.add(.get, base, admin.handler { request in
            let page = try ListProviderConfigsRequest(fields: Self.query(request))
            return Responses.json(try configs.list(kind, page, tenantID: Self.tenantID(request)))
        })
        router.add(.get, "\(base)/{config}", admin.handler { request in
            Responses.json(try configs.get(kind, id: Self.configID(request), tenantID: Self.tenantID(request)))
        })
        router.add(.patch, "\(base)/{config}", admin.handler { request in
            let fields = try ProviderConfigFields(fields: try RequestFields(json: request.body), allowed: allowed)
            let mask = try Self.query(request).string("updateMask")
            return Responses.json(
                try configs.update(
                    kind, id: Self.configID(request), fields, updateMask: mask, tenantID: Self.tenantID(request),
                    by: try request.administrator()))
        })
        router.add(.delete, "\(base)/{config}", admin.handler { request in
            try configs.delete(
                kind, id: Self.configID(request), tenantID: Self.tenantID(request), by: try request.administrator())
            return Responses.json([:] as [String: JSONValue])
        })
    }

    static func query(_ request: HTTPRequest) -> RequestFields { RequestFields(request.query.mapValues(JSONValue.string)) }

    /// The tenant of a tenant path; nil on the project's.
    static func tenantID(_ request: HTTPRequest) -> String? { request.pathParameters["tenant"] }

    static func configID(_ request: HTTPRequest) -> String { request.pathParameters["config"] ?? "" }
}
