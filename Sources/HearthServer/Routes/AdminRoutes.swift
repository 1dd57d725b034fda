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
        let platform = self.platform
        let endpoints: [(method: HTTPMethod, name: String, responder: HTTPResponder)] = [
            (.post, "accounts", Self.json(platform) { try $1.create(AdminCreateAccountRequest(fields: $0)) }),
            (.post, "accounts:lookup", Self.json(platform) { try $1.lookup(AdminLookupRequest(fields: $0)) }),
            (.post, "accounts:update", Self.json(platform) { try $1.update(AdminUpdateAccountRequest(fields: $0)) }),
            (.post, "accounts:delete", Self.json(platform) { try $1.delete(AdminDeleteAccountRequest(fields: $0)) }),
            (.post, "accounts:batchDelete", Self.json(platform) { try $1.batchDelete(BatchDeleteRequest(fields: $0)) }),
            (.post, "accounts:query", Self.json(platform) { try $1.query(QueryAccountsRequest(fields: $0)) }),
            (.post, "accounts:batchCreate", Self.json(platform) { try $1.batchCreate(BatchCreateRequest(fields: $0)) }),
            (.get, "accounts:batchGet", { request in
                let fields = RequestFields(request.query.mapValues(JSONValue.string))
                try IdentityToolkitRoutes.refuseTenant(fields)
                let admin = platform.admin(as: AuditActor(try request.adminCaller()))
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

    /// An admin call taking the request's JSON fields and the admin operations acting as the request's caller, as
    /// ``RequireAdmin`` accepted it, so that its changes are recorded as that caller's (the audit log's actor).
    static func json(
        _ platform: IdentityPlatform, _ operation: @escaping @Sendable (RequestFields, AdminService) throws -> any Encodable
    ) -> HTTPResponder {
        { request in
            let caller = platform.admin(as: AuditActor(try request.adminCaller()))
            return try IdentityToolkitRoutes.json { fields, _ in try operation(fields, caller) }(request)
        }
    }
}
