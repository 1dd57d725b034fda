import HearthCore
import HearthHTTP
import HearthProtocol

/// Which services serve a request: the project's, or a tenant's when the request names one (a client call's
/// `tenantId`, an admin path's `tenants/{tenant}`). A request naming no tenant is served by the project's services
/// with no extra work; one naming a tenant that does not exist is `TENANT_NOT_FOUND`.
struct Scopes: Sendable {
    let project: IdentityPlatform
    let tenants: TenantPlatforms

    init(project: IdentityPlatform) {
        self.project = project
        tenants = TenantPlatforms(project: project)
    }

    /// The services of a client call with `fields`: its `tenantId`'s, once the tenant's switches allow `use`
    /// (``Tenant/permit(_:)``); without one the project's, once the configuration's switches allow it
    /// (``IdentityPlatform/configSettings()``, cached for at most 5 s; only calls that sign up or sign in ask).
    func client(_ fields: RequestFields, _ use: SignInUse) throws -> IdentityPlatform {
        guard let id = try Self.tenantID(fields) else {
            if use != .other { try project.configSettings().switches.permit(use) }
            return project
        }
        let (tenant, platform) = try tenants.tenant(id)
        try tenant.permit(use)
        return platform
    }

    /// The services of an admin call: its path's tenant (`…/tenants/{tenant}/accounts…`) or its body's `tenantId`,
    /// which must agree (`TENANT_ID_MISMATCH`).
    func admin(_ request: HTTPRequest, _ fields: RequestFields) throws -> IdentityPlatform {
        let path = request.pathParameters["tenant"]
        let named = try Self.tenantID(fields)
        if let path, let named, path != named {
            throw WireError(.tenantIDMismatch, "The request's tenantId is not the tenant of its path.")
        }
        guard let id = path ?? named else { return project }
        return try tenants.tenant(id).platform
    }

    /// The `tenantId` a request's fields name; nil when absent or empty.
    static func tenantID(_ fields: RequestFields) throws -> String? {
        guard let id = try fields.string("tenantId"), !id.isEmpty else { return nil }
        return id
    }
}
