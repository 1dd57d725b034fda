import HearthCore
import HearthHTTP
import HearthProtocol

/// `GET /v2/passwordPolicy` (with the API key, like every client call): the password policy of the project, or of
/// the tenant its `tenantId` query parameter names (as the web SDK asks), in the shape the web SDK's
/// `validatePassword` reads (`PasswordPolicy.wireForm`); the one sign-up, changes and resets enforce.
struct PasswordPolicyRoutes {
    let edge: Edge

    func register(in router: inout Router) {
        let scopes = edge.scopes
        router.add(.get, "\(IdentityToolkitRoutes.v2)/passwordPolicy", edge.clientCall().handler { request in
            let platform = try scopes.client(ProviderConfigRoutes.query(request), .other)
            return HTTPResponse.json(try platform.configSettings().passwordPolicy.wireForm.jsonData())
        })
    }
}
