import HearthProtocol

/// Makes TOTP secrets and assertions (FirebaseAuth's `TOTPMultiFactorGenerator`).
///
/// Enrolment:
/// ```swift
/// let session = try await user.multiFactor.getSession()
/// let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
/// showQRCode(secret.generateQRCodeURL(withAccountName: user.email ?? user.uid, issuer: "Portfolio"))
/// let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: codeFromApp)
/// try await user.multiFactor.enroll(with: assertion, displayName: "Authenticator")
/// ```
///
/// Sign-in, after `signIn(with:)` threw `.secondFactorRequired` with a TOTP hint:
/// ```swift
/// let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code)
/// let result = try await resolver.resolveSignIn(with: assertion)
/// ```
public enum TOTPMultiFactorGenerator {
    /// `totp`.
    public static let factorID = "totp"

    /// Asks the server for a new TOTP secret (`mfaEnrollment:start` with `totpEnrollmentInfo: {}`).
    ///
    /// - Parameter session: from `user.multiFactor.getSession()`.
    /// - Throws: `AuthError`: `.invalidMultiFactorSession` for a sign-in session;
    ///   `.unverifiedEmail`, `.unsupportedFirstFactor`, `.maximumSecondFactorCountExceeded` from the
    ///   server; `.internalError` if the answer has no usable `totpSessionInfo`.
    public static func generateSecret(with session: MultiFactorSession) async throws -> TOTPSecret {
        guard case .enrollment(let idToken, let user) = session.kind else {
            throw AuthError(
                code: .invalidMultiFactorSession,
                message: "generateSecret(with:) needs an enrolment session from user.multiFactor.getSession().")
        }
        return try await user.signingOutIfSessionIsDead { () async throws(AuthError) -> TOTPSecret in
            let reply = try await user.backend.call(
                StartMFAEnrollmentCall(body: StartMFAEnrollmentRequest(idToken: idToken, totpEnrollmentInfo: EmptyObject())))
            return try TOTPSecret(sessionInfo: reply.json["totpSessionInfo"])
        }
    }

    /// An assertion that enrols `secret`, proven by a code the user's app shows for it.
    public static func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(target: .secret(secret), oneTimePassword: oneTimePassword)
    }

    /// An assertion that signs in with the enrolled TOTP factor `enrollmentID` (a hint's `uid`).
    public static func assertionForSignIn(
        withEnrollmentID enrollmentID: String, oneTimePassword: String
    ) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(target: .enrollmentID(enrollmentID), oneTimePassword: oneTimePassword)
    }
}
