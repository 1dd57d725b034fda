/// `verifyPassword` (v1 `accounts:signInWithPassword`): signs in with an email and password (PROTOCOL.md §3.2).
struct VerifyPasswordCall: BackendRequest {
    struct Body: Encodable, Sendable {
        var email: String
        var password: String
        var returnSecureToken = true
        var clientType = Backend.clientType
    }

    typealias Response = EmailSignInResponse
    var body: Body
    var service: Service { .relyingParty("verifyPassword") }
}
