import HearthProtocol

/// Finishes a sign-in that needs a second factor (FirebaseAuth's `MultiFactorResolver`). It comes
/// with the `.secondFactorRequired` error, as `AuthError.resolver`.
///
/// ```swift
/// do {
///     try await auth.signIn(with: credential)
/// } catch let error as AuthError where error.code == .secondFactorRequired {
///     guard let resolver = error.resolver else { throw error }
///     switch resolver.hints.first {
///     case let phone as PhoneMultiFactorInfo:
///         let provider = PhoneAuthProvider.provider(auth: resolver.auth)
///         let verificationID = try await provider.verifyPhoneNumber(with: phone, multiFactorSession: resolver.session)
///         let credential = provider.credential(withVerificationID: verificationID, verificationCode: await askForSMSCode())
///         try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))
///     case let totp as TOTPMultiFactorInfo:
///         let assertion = TOTPMultiFactorGenerator.assertionForSignIn(
///             withEnrollmentID: totp.uid, oneTimePassword: await askForAppCode())
///         try await resolver.resolveSignIn(with: assertion)
///     default:
///         throw error
///     }
/// }
/// ```
public final class MultiFactorResolver: Sendable {
    /// The user's second factors, as the server showed them before the second factor: phone
    /// numbers are masked (`+*******1234`). Kinds this version does not know are left out.
    public let hints: [MultiFactorInfo]
    /// Wraps the pending credential the first factor left.
    public let session: MultiFactorSession
    /// The instance the sign-in happens in.
    public let auth: Auth

    init(pendingCredential: String?, hints: [MultiFactorInfo], auth: Auth) {
        self.hints = hints
        self.auth = auth
        session = MultiFactorSession(.signIn(pendingCredential: pendingCredential))
    }

    /// Finishes the sign-in with a passed second factor (`mfaSignIn:finalize`), then loads the
    /// profile (`getAccountInfo`), saves the session and notifies listeners, as `signIn(with:)` does.
    ///
    /// - Parameter assertion: from `PhoneMultiFactorGenerator.assertion(with:)` or
    ///   `TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:)`.
    /// - Returns: the signed-in user; `additionalUserInfo` and `credential` are nil.
    /// - Throws: `AuthError`: `.invalidVerificationCode`, `.invalidVerificationID`, `.sessionExpired`,
    ///   `.invalidMultiFactorSession`, `.missingMultiFactorSession`, `.multiFactorInfoNotFound`,
    ///   `.tooManyRequests`, `.userDisabled`, …; `.missingMultiFactorInfo` for a TOTP enrolment assertion.
    @discardableResult
    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        guard case .signIn(let pendingCredential) = session.kind else {
            throw AuthError(code: .invalidMultiFactorSession, message: "The resolver's session is not a sign-in session.")
        }
        var request = FinalizeMFASignInRequest(mfaPendingCredential: pendingCredential)
        switch assertion {
        case let phone as PhoneMultiFactorAssertion:
            request.phoneVerificationInfo = PhoneVerificationInfo(
                sessionInfo: phone.credential.verificationID, code: phone.credential.verificationCode)
        case let totp as TOTPMultiFactorAssertion:
            guard case .enrollmentID(let enrollmentID) = totp.target else {
                throw AuthError(
                    code: .missingMultiFactorInfo,
                    message: "This TOTP assertion is for enrolment; sign in with "
                        + "TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:).")
            }
            request.mfaEnrollmentId = enrollmentID
            request.totpVerificationInfo = TOTPVerificationInfo(verificationCode: totp.oneTimePassword)
        default:
            throw AuthError(code: .internalError, message: "Unsupported second factor \(assertion.factorID).")
        }
        return try await auth.completeSecondFactorSignIn(request)
    }
}

extension Auth {
    /// `mfaSignIn:finalize`, then the same steps as the end of `signIn(with:)`. Nothing is stored
    /// and no listener hears anything unless every step succeeds.
    func completeSecondFactorSignIn(_ request: FinalizeMFASignInRequest) async throws(AuthError) -> AuthDataResult {
        let response = try await backend.call(FinalizeMFASignInCall(body: request)).response
        let tokens = try TokenState(multiFactorResponse: response, now: clock())
        let user = try await signInLocally(tokens: tokens, isAnonymous: false)
        return AuthDataResult(user: user, additionalUserInfo: nil, credential: nil)
    }
}
