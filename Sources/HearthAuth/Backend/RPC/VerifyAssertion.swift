import HearthProtocol

/// `verifyAssertion` (v1 `accounts:signInWithIdp`): sign in or link with an IdP credential.
struct VerifyAssertionCall: BackendRequest {
    typealias Response = SignInWithIdpResponse
    var body: SignInWithIdpRequest
    var service: Service { .relyingParty("verifyAssertion") }
}
