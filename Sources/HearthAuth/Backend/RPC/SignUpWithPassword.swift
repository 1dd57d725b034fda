/// `signupNewUser` (v1 `accounts:signUp`) with an email and password: creates an account, or with `idToken` adds
/// the password to the signed-in user (PROTOCOL.md §3.1).
struct SignUpWithPasswordCall: BackendRequest {
    struct Body: Encodable, Sendable {
        var email: String
        var password: String
        /// The signed-in user's ID token when linking.
        var idToken: String?
        var returnSecureToken = true
        var clientType = Backend.clientType
    }

    typealias Response = EmailSignInResponse
    var body: Body
    var service: Service { .relyingParty("signupNewUser") }
}
