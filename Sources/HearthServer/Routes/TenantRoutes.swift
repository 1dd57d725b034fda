import HearthCore
import HearthHTTP
import HearthProtocol

/// Identity Platform's tenant API (`/identitytoolkit.googleapis.com/v2/projects/{project}/tenants…`), as
/// firebase-admin's `tenant_mgt` calls it: create, list, get, patch (`updateMask`), delete. Behind the admin edge,
/// like the account endpoints (a service account's token, or `Bearer owner` in `--dev`).
struct TenantRoutes {
    let platform: IdentityPlatform
    let edge: Edge

    static let base = "\(IdentityToolkitRoutes.v2)/projects/{project}/tenants"

    func register(in router: inout Router) {
        let tenants = platform.tenants
        let admin = edge.admin
        // A tenant changed or deleted here is read again by the next request naming it.
        let cached = edge.scopes.tenants
        router.add(.post, Self.base, admin.handler { request in
            Responses.json(try tenants.create(TenantFields(fields: try RequestFields(json: request.body)), by: try request.administrator()))
        })
        router.add(.get, Self.base, admin.handler { request in
            Responses.json(try tenants.list(ListTenantsRequest(fields: Self.query(request))))
        })
        router.add(.get, "\(Self.base)/{tenant}", admin.handler { request in
            Responses.json(try tenants.get(id: Self.tenantID(request)))
        })
        router.add(.patch, "\(Self.base)/{tenant}", admin.handler { request in
            let fields = try TenantFields(fields: try RequestFields(json: request.body))
            let mask = try Self.query(request).string("updateMask")
            defer { cached.forget(Self.tenantID(request)) }
            return Responses.json(
                try tenants.update(id: Self.tenantID(request), fields, updateMask: mask, by: try request.administrator()))
        })
        router.add(.delete, "\(Self.base)/{tenant}", admin.handler { request in
            defer { cached.forget(Self.tenantID(request)) }
            try tenants.delete(id: Self.tenantID(request), by: try request.administrator())
            return Responses.json([:] as [String: JSONValue])
        })
    }

    static func query(_ request: HTTPRequest) -> RequestFields { RequestFields(request.query.mapValues(JSONValue.string)) }

    static func tenantID(_ request: HTTPRequest) -> String { request.pathParameters["tenant"] ?? "" }
}
