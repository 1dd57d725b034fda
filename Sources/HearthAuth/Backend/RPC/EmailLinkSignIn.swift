/// `emailLinkSignin` (v1 `accounts:signInWithEmailLink`): signs in with the code of an email sign-in link, or with
/// `idToken` links the email to the signed-in user (PROTOCOL.md §3.11). iOS sends no `clientType` here.
struct EmailLinkSignInCall: BackendRequest {
    struct Body: Encodable, Sendable {
        var email: String
        var oobCode: String
        var idToken: String?
    }

    typealias Response = EmailSignInResponse
    var body: Body
    var service: Service { .relyingParty("emailLinkSignin") }
}
