import HearthCore
import HearthHTTP
import HearthProtocol

/// `GET /v2/passwordPolicy` (with the API key, like every client call): the project's password policy in
/// the shape the web SDK's `validatePassword` reads (`PasswordPolicy.wireForm`).
struct PasswordPolicyRoutes {
    let policy: PasswordPolicy
    let edge: Edge

    func register(in router: inout Router) {
        let body = policy.wireForm.jsonData()
        router.add(.get, "\(IdentityToolkitRoutes.v2)/passwordPolicy", edge.clientCall().handler { _ in
            HTTPResponse.json(body)
        })
    }
}
