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
            (.post, "accounts", Self.json { try admin.create(AdminCreateAccountRequest(fields: $0), by: $1) }),
            (.post, "accounts:lookup", Self.json { fields, _ in try admin.lookup(AdminLookupRequest(fields: fields)) }),
            (.post, "accounts:update", Self.json { try admin.update(AdminUpdateAccountRequest(fields: $0), by: $1) }),
            (.post, "accounts:delete", Self.json { try admin.delete(AdminDeleteAccountRequest(fields: $0), by: $1) }),
            (.post, "accounts:batchDelete", Self.json { try admin.batchDelete(BatchDeleteRequest(fields: $0), by: $1) }),
            (.post, "accounts:query", Self.json { fields, _ in try admin.query(QueryAccountsRequest(fields: fields)) }),
            (.post, "accounts:batchCreate", Self.json { try admin.batchCreate(BatchCreateRequest(fields: $0), by: $1) }),
            (.get, "accounts:batchGet", { request in
                let fields = RequestFields(request.query.mapValues(JSONValue.string))
                try IdentityToolkitRoutes.refuseTenant(fields)
                // Only administrators reach this route (`edge.admin`): they see the hashes, as Firebase shows them.
                return Responses.json(try admin.batchGet(BatchGetRequest(fields: fields), revealsPasswordHashes: true))
            }),
        ]
        // A tenant's own account paths are not served yet: a tenant that does not exist is TENANT_NOT_FOUND, one that
        // does is refused plainly, never served as if it were the project.
        let tenants: HTTPResponder = { [tenantRecords = platform.tenants] request in
            _ = try tenantRecords.tenant(id: request.pathParameters["tenant"] ?? "")
            throw WireError(
                .operationNotAllowed, "This Hearth server does not serve a tenant's own accounts yet; only the tenant API.")
        }
        for endpoint in endpoints {
            router.add(endpoint.method, "\(Self.base)/\(endpoint.name)", edge.admin.handler(endpoint.responder))
            router.add(endpoint.method, "\(Self.base)/tenants/{tenant}/\(endpoint.name)", edge.admin.handler(tenants))
        }
        // `projects/{p}:queryAccounts`: the older name of `accounts:query` (the emulator answers both).
        router.add(.post, "\(Self.base):queryAccounts", edge.admin.handler(Self.json { fields, _ in
            try admin.query(QueryAccountsRequest(fields: fields))
        }))
        registerLegacyAccountTransfer(in: &router)
        let tokens = platform.tokens
        router.add(.post, "\(Self.base):createSessionCookie", edge.admin.handler(Self.json { fields, _ in
            let request = try CreateSessionCookieRequest(fields: fields)
            return CreateSessionCookieResponse(
                sessionCookie: try tokens.mintSessionCookie(idToken: request.idToken, validDuration: request.validDuration))
        }))
        router.add(.post, "\(Self.base)/tenants/{tenant}:createSessionCookie", edge.admin.handler(tenants))
    }

    /// The iOS-era v3 names of `batchGet` and `batchCreate` (`relyingparty/downloadAccount`, `uploadAccount`): POST
    /// bodies naming the project as `targetProjectId` (this server's when absent), answered as the v1 calls.
    private func registerLegacyAccountTransfer(in router: inout Router) {
        let admin = platform.admin
        let projectID = platform.project.projectID
        let calls: [(String, HTTPResponder)] = [
            ("downloadAccount", Self.json { fields, _ in
                try admin.batchGet(BatchGetRequest(fields: fields), revealsPasswordHashes: true)
            }),
            ("uploadAccount", Self.json { try admin.batchCreate(BatchCreateRequest(fields: $0), by: $1) }),
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

    /// An admin call taking the request's JSON fields and its caller as ``RequireAdmin`` accepted it
    /// (``HTTPRequest/administrator()``), so that its changes are recorded as that caller's.
    static func json(_ operation: @escaping @Sendable (RequestFields, Caller) throws -> any Encodable) -> HTTPResponder {
        IdentityToolkitRoutes.json(caller: { try $0.administrator() }, operation)
    }
}
