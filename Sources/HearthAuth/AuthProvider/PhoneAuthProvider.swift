import HearthProtocol

/// Phone verification for second factors (FirebaseAuth's `PhoneAuthProvider`).
///
/// `verifyPhoneNumber` has the server send an SMS code and returns a verification ID; turn the ID
/// and the code the user typed into a `PhoneAuthCredential`, then into an assertion with
/// `PhoneMultiFactorGenerator.assertion(with:)`. Hearth does not serve phone numbers as a first
/// factor, so a `multiFactorSession` is required. There is no app verification (reCAPTCHA, APNs)
/// and no UI, so `uiDelegate` can only be nil.
public final class PhoneAuthProvider: Sendable {
    /// `phone`.
    public static let id = "phone"

    private let auth: Auth

    private init(auth: Auth) { self.auth = auth }

    /// A provider for `auth`.
    public static func provider(auth: Auth) -> PhoneAuthProvider { PhoneAuthProvider(auth: auth) }

    /// A provider for the default instance, `Auth.auth()`.
    public static func provider() -> PhoneAuthProvider { PhoneAuthProvider(auth: Auth.auth()) }

    /// Sends an SMS code to an enrolled phone factor.
    ///
    /// With a sign-in session (`MultiFactorResolver.session`) this is `mfaSignIn:start` with the
    /// hint's enrolment ID and its masked number. With an enrolment session it enrols the hint's
    /// number, as FirebaseAuth does.
    ///
    /// - Parameters:
    ///   - hint: one of `MultiFactorResolver.hints`.
    ///   - uiDelegate: FirebaseAuth's presenter for app verification; HearthAuth has none.
    ///   - multiFactorSession: `MultiFactorResolver.session`.
    /// - Returns: the verification ID (the server's `sessionInfo`).
    /// - Throws: `AuthError`: `.missingMultiFactorSession` without a session; from the server
    ///   `.invalidMultiFactorSession`, `.multiFactorInfoNotFound`, `.tooManyRequests`, ….
    public func verifyPhoneNumber(
        with hint: PhoneMultiFactorInfo, uiDelegate: Never? = nil, multiFactorSession: MultiFactorSession?
    ) async throws -> String {
        switch multiFactorSession?.kind {
        case .signIn(let pendingCredential)?:
            let request = StartMFASignInRequest(
                mfaPendingCredential: pendingCredential, mfaEnrollmentId: hint.uid,
                phoneSignInInfo: StartMFASignInRequest.PhoneSignInInfo(phoneNumber: hint.phoneNumber))
            let sessionInfo = try await auth.backend.call(StartMFASignInCall(body: request)).response
                .phoneResponseInfo.sessionInfo
            return try Self.verificationID(sessionInfo)
        case .enrollment?:
            return try await verifyPhoneNumber(hint.phoneNumber, multiFactorSession: multiFactorSession)
        case nil:
            throw Self.noSession
        }
    }

    /// Sends an SMS code to a phone number being enrolled as a second factor
    /// (`mfaEnrollment:start` with `phoneEnrollmentInfo`).
    ///
    /// - Parameters:
    ///   - phoneNumber: in E.164 format, e.g. `+15555551234`.
    ///   - uiDelegate: FirebaseAuth's presenter for app verification; HearthAuth has none.
    ///   - multiFactorSession: from `user.multiFactor.getSession()`.
    /// - Returns: the verification ID (the server's `sessionInfo`).
    /// - Throws: `AuthError`: `.missingPhoneNumber`; `.missingMultiFactorSession` without a
    ///   session; `.missingMultiFactorInfo` with a sign-in session (use `verifyPhoneNumber(with:…)`);
    ///   from the server `.invalidPhoneNumber`, `.secondFactorAlreadyEnrolled`, `.unverifiedEmail`,
    ///   `.unsupportedFirstFactor`, `.maximumSecondFactorCountExceeded`, ….
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: Never? = nil, multiFactorSession: MultiFactorSession?
    ) async throws -> String {
        guard !phoneNumber.isEmpty else { throw AuthError(code: .missingPhoneNumber) }
        switch multiFactorSession?.kind {
        case .enrollment(let idToken, let user)?:
            let request = StartMFAEnrollmentRequest(
                idToken: idToken,
                phoneEnrollmentInfo: StartMFAEnrollmentRequest.PhoneEnrollmentInfo(phoneNumber: phoneNumber))
            return try await user.signingOutIfSessionIsDead { () async throws(AuthError) -> String in
                let sessionInfo = try await user.backend.call(StartMFAEnrollmentCall(body: request)).response
                    .phoneSessionInfo?.sessionInfo
                return try Self.verificationID(sessionInfo)
            }
        case .signIn?:
            throw AuthError(
                code: .missingMultiFactorInfo,
                message: "To sign in, pass one of the resolver's hints: verifyPhoneNumber(with:multiFactorSession:).")
        case nil:
            throw Self.noSession
        }
    }

    /// A credential from the verification ID `verifyPhoneNumber` returned and the SMS code.
    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(verificationID: verificationID, verificationCode: verificationCode)
    }

    private static let noSession = AuthError(
        code: .missingMultiFactorSession,
        message: "HearthAuth verifies phone numbers only as second factors: pass a multiFactorSession "
            + "(user.multiFactor.getSession() to enrol, MultiFactorResolver.session to sign in).")

    private static func verificationID(_ sessionInfo: String?) throws(AuthError) -> String {
        guard let sessionInfo, !sessionInfo.isEmpty else {
            throw AuthError(code: .internalError, message: "The server's answer has no sessionInfo.")
        }
        return sessionInfo
    }
}

/// A verification ID and the SMS code sent for it (FirebaseAuth's `PhoneAuthCredential`), for
/// `PhoneMultiFactorGenerator.assertion(with:)`. Both are secrets and print as `<redacted>`.
public final class PhoneAuthCredential: Sendable, CustomStringConvertible, CustomReflectable {
    /// `phone`.
    public let provider = PhoneAuthProvider.id
    let verificationID: String
    let verificationCode: String

    init(verificationID: String, verificationCode: String) {
        self.verificationID = verificationID
        self.verificationCode = verificationCode
    }

    public var description: String { "PhoneAuthCredential(provider: phone, <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider, "verification": "<redacted>"]) }
}
