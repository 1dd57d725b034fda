import HearthProtocol

/// `mfaSignIn:start` (v2): sends an SMS code to an enrolled phone factor. TOTP has no start.
struct StartMFASignInCall: BackendRequest {
    typealias Response = StartMFASignInResponse
    var body: StartMFASignInRequest
    var service: Service { .identityPlatform("accounts/mfaSignIn:start") }
}
