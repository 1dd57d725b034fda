import HearthCore
import HearthHTTP
import HearthProtocol

/// Firebase's admin account endpoints (`/identitytoolkit.googleapis.com/v1/projects/{project}/accounts…`),
/// as firebase-admin calls them. Each is only its logic: the edge (`Edge.admin`) authorizes the caller,
/// checks the project and renders errors.
struct AdminRoutes {
    let platform: IdentityPlatform
    let edge: Edge

    static let base = "\(IdentityToolkitRoutes.v1)/projects/{project}"

    func register(in router: inout Router) {
        let admin = platform.admin
        let endpoints: [(method: HTTPMethod, name: String, responder: HTTPResponder)] = [
            (.post, "accounts", IdentityToolkitRoutes.json { fields, _ in
                try admin.create(AdminCreateAccountRequest(fields: fields))
            }),
            (.post, "accounts:lookup", IdentityToolkitRoutes.json { fields, _ in
                try admin.lookup(AdminLookupRequest(fields: fields))
            }),
            (.post, "accounts:update", IdentityToolkitRoutes.json { fields, _ in
                try admin.update(AdminUpdateAccountRequest(fields: fields))
            }),
            (.post, "accounts:delete", IdentityToolkitRoutes.json { fields, _ in
                try admin.delete(AdminDeleteAccountRequest(fields: fields))
            }),
            (.post, "accounts:batchDelete", IdentityToolkitRoutes.json { fields, _ in
                try admin.batchDelete(BatchDeleteRequest(fields: fields))
            }),
            (.post, "accounts:query", IdentityToolkitRoutes.json { fields, _ in
                try admin.query(QueryAccountsRequest(fields: fields))
            }),
            (.post, "accounts:batchCreate", IdentityToolkitRoutes.json { fields, _ in
                try admin.batchCreate(BatchCreateRequest(fields: fields))
            }),
            (.get, "accounts:batchGet", { request in
                let fields = RequestFields(request.query.mapValues(JSONValue.string))
                try IdentityToolkitRoutes.refuseTenant(fields)
                return Responses.json(try admin.batchGet(BatchGetRequest(fields: fields)))
            }),
        ]
        let tenants: HTTPResponder = { _ in
            throw WireError(.tenantNotFound, "This Hearth server has no tenants; call the project's own paths.")
        }
        for endpoint in endpoints {
            router.add(endpoint.method, "\(Self.base)/\(endpoint.name)", edge.admin.handler(endpoint.responder))
            router.add(endpoint.method, "\(Self.base)/tenants/{tenant}/\(endpoint.name)", edge.admin.handler(tenants))
        }
        let tokens = platform.tokens
        router.add(.post, "\(Self.base):createSessionCookie", edge.admin.handler(IdentityToolkitRoutes.json { fields, _ in
            let request = try CreateSessionCookieRequest(fields: fields)
            return CreateSessionCookieResponse(
                sessionCookie: try tokens.mintSessionCookie(idToken: request.idToken, validDuration: request.validDuration))
        }))
        router.add(.post, "\(Self.base)/tenants/{tenant}:createSessionCookie", edge.admin.handler(tenants))
    }
}
