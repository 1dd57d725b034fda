import HearthProtocol

/// `mfaSignIn:finalize` (v2): the second factor's proof plus the pending credential; answers
/// tokens without `expiresIn`.
struct FinalizeMFASignInCall: BackendRequest {
    typealias Response = MFATokensResponse
    var body: FinalizeMFASignInRequest
    var service: Service { .identityPlatform("accounts/mfaSignIn:finalize") }
}
