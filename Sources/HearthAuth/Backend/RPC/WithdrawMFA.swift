import HearthProtocol

/// `mfaEnrollment:withdraw` (v2): removes a factor; answers new tokens.
struct WithdrawMFACall: BackendRequest {
    typealias Response = MFATokensResponse
    var body: WithdrawMFARequest
    var service: Service { .identityPlatform("accounts/mfaEnrollment:withdraw") }
}
