import HearthProtocol

/// `mfaEnrollment:start` (v2): sends an SMS code to a new number (`phoneEnrollmentInfo`) or makes a
/// TOTP secret (`totpEnrollmentInfo: {}`), PROTOCOL.md §6.3, §6.4.
struct StartMFAEnrollmentCall: BackendRequest {
    /// Only `phoneSessionInfo` is decoded here. `totpSessionInfo` is read from the raw JSON by
    /// `TOTPSecret(sessionInfo:)`, so that a missing field is a clear error rather than "could not
    /// be decoded".
    struct Response: Decodable, Sendable {
        var phoneSessionInfo: StartMFAEnrollmentResponse.PhoneSessionInfo?
    }

    var body: StartMFAEnrollmentRequest
    var service: Service { .identityPlatform("accounts/mfaEnrollment:start") }
}
