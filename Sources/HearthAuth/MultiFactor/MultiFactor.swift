import Foundation
import HearthProtocol

/// A user's second factors and how to change them (FirebaseAuth's `MultiFactor`), from
/// `user.multiFactor`.
///
/// Enrolling a phone:
/// ```swift
/// let session = try await user.multiFactor.getSession()
/// let provider = PhoneAuthProvider.provider(auth: auth)
/// let verificationID = try await provider.verifyPhoneNumber("+15555551234", multiFactorSession: session)
/// let credential = provider.credential(withVerificationID: verificationID, verificationCode: smsCode)
/// try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: "Work phone")
/// ```
/// (For TOTP, see `TOTPMultiFactorGenerator`.)
///
/// Every call that reaches the server signs the user out locally if the server says the session is
/// dead (`USER_DISABLED`, `USER_NOT_FOUND`, `TOKEN_EXPIRED`, `INVALID_ID_TOKEN`), as other user calls do.
public final class MultiFactor: Sendable {
    private let user: User

    init(user: User) { self.user = user }

    /// The user's second factors, from the last `getAccountInfo` (`mfaInfo`): after sign-in,
    /// `reload()`, `enroll` and `unenroll`. Phone numbers are in full here.
    public var enrolledFactors: [MultiFactorInfo] {
        MultiFactorInfo.factors(from: user.profile.mfaInfo ?? [], fallbackDate: user.clock())
    }

    /// A session for enrolling a second factor: wraps the user's ID token (refreshed first if it is
    /// about to expire).
    public func getSession() async throws -> MultiFactorSession {
        MultiFactorSession(.enrollment(idToken: try await user.getIDToken(), user: user))
    }

    /// The same as `getSession()`, under the name of FirebaseAuth's async variant.
    public func session() async throws -> MultiFactorSession {
        try await getSession()
    }

    /// Enrols the factor `assertion` proves (`mfaEnrollment:finalize`). The server's new tokens
    /// replace the user's (ID-token listeners are told), and `enrolledFactors` is re-read.
    ///
    /// - Parameters:
    ///   - assertion: from `PhoneMultiFactorGenerator.assertion(with:)` or
    ///     `TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:)`.
    ///   - displayName: a name for the factor that the user will recognise, or nil.
    /// - Throws: `AuthError`: `.invalidVerificationCode`, `.sessionExpired`, `.invalidVerificationID`,
    ///   `.secondFactorAlreadyEnrolled`, …; `.missingVerificationID` for a TOTP sign-in assertion.
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        let phoneInfo: PhoneVerificationInfo?
        let totpInfo: TOTPVerificationInfo?
        switch assertion {
        case let phone as PhoneMultiFactorAssertion:
            phoneInfo = PhoneVerificationInfo(
                sessionInfo: phone.credential.verificationID, code: phone.credential.verificationCode)
            totpInfo = nil
        case let totp as TOTPMultiFactorAssertion:
            guard case .secret(let secret) = totp.target else {
                throw AuthError(
                    code: .missingVerificationID,
                    message: "This TOTP assertion is for sign-in; enrol with "
                        + "TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:).")
            }
            phoneInfo = nil
            totpInfo = TOTPVerificationInfo(sessionInfo: secret.sessionInfo, verificationCode: totp.oneTimePassword)
        default:
            throw AuthError(code: .internalError, message: "Unsupported second factor \(assertion.factorID).")
        }
        let request = FinalizeMFAEnrollmentRequest(
            idToken: try await user.getIDToken(), displayName: displayName, phoneVerificationInfo: phoneInfo,
            totpVerificationInfo: totpInfo)
        let user = self.user
        try await user.signingOutIfSessionIsDead { () async throws(AuthError) in
            let response = try await user.backend.call(FinalizeMFAEnrollmentCall(body: request)).response
            try await user.adoptMultiFactorTokens(response)
        }
    }

    /// Removes a second factor; see `unenroll(withFactorUID:)`.
    public func unenroll(with factorInfo: MultiFactorInfo) async throws {
        try await unenroll(withFactorUID: factorInfo.uid)
    }

    /// Removes the second factor `factorUID` (`mfaEnrollment:withdraw`). The server's new tokens
    /// replace the user's (ID-token listeners are told), and `enrolledFactors` is re-read.
    ///
    /// - Throws: `AuthError`: `.multiFactorInfoNotFound` if the user has no such factor; a
    ///   session-ending code signs the user out first.
    public func unenroll(withFactorUID factorUID: String) async throws {
        let request = WithdrawMFARequest(idToken: try await user.getIDToken(), mfaEnrollmentId: factorUID)
        let user = self.user
        try await user.signingOutIfSessionIsDead { () async throws(AuthError) in
            let response = try await user.backend.call(WithdrawMFACall(body: request)).response
            try await user.adoptMultiFactorTokens(response)
        }
    }
}

extension User {
    /// This user's second factors and the calls that change them.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }

    /// After an enrolment or withdrawal: takes the new tokens, re-reads the profile with them, and
    /// applies both at once (one ID-token notification, with `enrolledFactors` already current).
    /// If the re-read fails, the tokens are applied anyway, then the error is thrown.
    func adoptMultiFactorTokens(_ response: MFATokensResponse) async throws(AuthError) {
        let tokens = try TokenState(multiFactorResponse: response, now: clock())
        let record: UserRecord
        do {
            record = try await Self.lookup(idToken: tokens.idToken, backend: backend)
        } catch {
            try apply(tokens: tokens, profile: nil)
            throw error
        }
        try apply(tokens: tokens, profile: record)
    }
}

extension TokenState {
    /// The tokens of an MFA response. Without `expiresIn` (as after `mfaSignIn:finalize`), the
    /// expiry is the ID token's `exp`.
    init(multiFactorResponse response: MFATokensResponse, now: Date) throws(AuthError) {
        guard !response.idToken.isEmpty, !response.refreshToken.isEmpty else {
            throw AuthError(code: .internalError, message: "The multi-factor response has no tokens.")
        }
        self.init(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, now: now)
    }
}
