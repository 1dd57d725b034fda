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
        let scopes = edge.scopes
        let endpoints: [(method: HTTPMethod, name: String, responder: HTTPResponder)] = [
            (.post, "accounts", Self.json(scopes) { try $0.admin.create(AdminCreateAccountRequest(fields: $1), by: $2) }),
            (.post, "accounts:lookup", Self.json(scopes) { platform, fields, _ in
                try platform.admin.lookup(AdminLookupRequest(fields: fields))
            }),
            (.post, "accounts:update", Self.json(scopes) { try $0.admin.update(AdminUpdateAccountRequest(fields: $1), by: $2) }),
            (.post, "accounts:delete", Self.json(scopes) { try $0.admin.delete(AdminDeleteAccountRequest(fields: $1), by: $2) }),
            (.post, "accounts:batchDelete", Self.json(scopes) { try $0.admin.batchDelete(BatchDeleteRequest(fields: $1), by: $2) }),
            (.post, "accounts:query", Self.json(scopes) { platform, fields, _ in
                try platform.admin.query(QueryAccountsRequest(fields: fields))
            }),
            (.post, "accounts:batchCreate", Self.json(scopes) { try $0.admin.batchCreate(BatchCreateRequest(fields: $1), by: $2) }),
            (.get, "accounts:batchGet", { request in
                let fields = RequestFields(request.query.mapValues(JSONValue.string))
                let platform = try scopes.admin(request, fields)
                // Only administrators reach this route (`edge.admin`): they see the hashes, as Firebase shows them.
                return Responses.json(
                    try platform.admin.batchGet(BatchGetRequest(fields: fields), revealsPasswordHashes: true))
            }),
        ]
        // A tenant's own accounts: the same handlers, with the services of the path's tenant (TENANT_NOT_FOUND when
        // it does not exist).
        for endpoint in endpoints {
            let handler = edge.admin.handler(endpoint.responder)
            router.add(endpoint.method, "\(Self.base)/\(endpoint.name)", handler)
            router.add(endpoint.method, "\(Self.base)/tenants/{tenant}/\(endpoint.name)", handler)
        }
        // `projects/{p}:queryAccounts`: the older name of `accounts:query` (the emulator answers both).
        router.add(.post, "\(Self.base):queryAccounts", edge.admin.handler(Self.json(scopes) { platform, fields, _ in
            try platform.admin.query(QueryAccountsRequest(fields: fields))
        }))
        registerLegacyAccountTransfer(in: &router)
        let sessionCookie = edge.admin.handler(Self.json(scopes) { platform, fields, _ in
            let request = try CreateSessionCookieRequest(fields: fields)
            return CreateSessionCookieResponse(
                sessionCookie: try platform.tokens.mintSessionCookie(
                    idToken: request.idToken, validDuration: request.validDuration))
        })
        router.add(.post, "\(Self.base):createSessionCookie", sessionCookie)
        router.add(.post, "\(Self.base)/tenants/{tenant}:createSessionCookie", sessionCookie)
    }

    /// The iOS-era v3 names of `batchGet` and `batchCreate` (`relyingparty/downloadAccount`, `uploadAccount`): POST
    /// bodies naming the project as `targetProjectId` (this server's when absent), answered as the v1 calls.
    private func registerLegacyAccountTransfer(in router: inout Router) {
        let scopes = edge.scopes
        let projectID = platform.project.projectID
        let calls: [(String, HTTPResponder)] = [
            ("downloadAccount", Self.json(scopes) { platform, fields, _ in
                try platform.admin.batchGet(BatchGetRequest(fields: fields), revealsPasswordHashes: true)
            }),
            ("uploadAccount", Self.json(scopes) { try $0.admin.batchCreate(BatchCreateRequest(fields: $1), by: $2) }),
        ]
        for (name, responder) in calls {
            let handler = edge.admin.handler(responder)
            router.add(.post, "\(IdentityToolkitRoutes.legacy)/\(name)", crossOrigin: handler.crossOrigin) { request in
                var request = request
                let target = (try? RequestFields(json: request.body)).flatMap { try? $0.string("targetProjectId") }
                request.pathParameters["project"] = target ?? projectID
                return handler(request)
            }
        }
    }

    /// An admin call served by the scope its path or body names (``IdentityToolkitRoutes/adminJSON(_:_:)``).
    static func json(
        _ scopes: Scopes, _ operation: @escaping @Sendable (IdentityPlatform, RequestFields, Caller) throws -> any Encodable
    ) -> HTTPResponder {
        IdentityToolkitRoutes.adminJSON(scopes, operation)
    }
}
