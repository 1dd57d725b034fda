import HearthProtocol

/// What `verifyPassword`, `signupNewUser` and `emailLinkSignin` answer: tokens, or, when a second factor is
/// needed, `mfaPendingCredential` and `mfaInfo` and no tokens (PROTOCOL.md §6.1).
struct EmailSignInResponse: Decodable, Sendable {
    var localId: String?
    var email: String?
    var idToken: String?
    var refreshToken: String?
    /// Seconds, as a string.
    var expiresIn: String?
    var isNewUser: Bool?
    var mfaPendingCredential: String?
    var mfaInfo: [MFAEnrollmentInfo]?
}
