import HearthCore
import HearthHTTP
import HearthProtocol

/// `GET /identitytoolkit.googleapis.com/v1/projects/{project}/auditEvents` (a Hearth extension of the admin API):
/// the audit log a page at a time, newest first. Behind the admin edge, like the account endpoints.
struct AuditRoutes {
    let platform: IdentityPlatform
    let edge: Edge

    func register(in router: inout Router) {
        let platform = platform
        router.add(.get, "\(AdminRoutes.base)/auditEvents", edge.admin.handler { request in
            let fields = RequestFields(request.query.mapValues(JSONValue.string))
            return Responses.json(try platform.auditEvents(AuditEventsRequest(fields: fields)))
        })
    }
}
