import HearthProtocol

/// `signupNewUser` (v1 `accounts:signUp`), as the iOS SDK's `signInAnonymously` calls it.
struct SignUpCall: BackendRequest {
    typealias Response = SignUpResponse
    var body: SignUpRequest
    var service: Service { .relyingParty("signupNewUser") }
}
