import HearthProtocol

/// `mfaEnrollment:finalize` (v2): proves the new factor and adds it; answers new tokens.
struct FinalizeMFAEnrollmentCall: BackendRequest {
    typealias Response = MFATokensResponse
    var body: FinalizeMFAEnrollmentRequest
    var service: Service { .identityPlatform("accounts/mfaEnrollment:finalize") }
}
