import Foundation
import HearthCrypto
public import HearthProtocol

/// Second factors (PROTOCOL.md §6): enrolling and withdrawing phone and TOTP factors, and finishing a
/// sign-in that stopped after its first factor. Codes expire and are single use; pending credentials
/// expire after 10 minutes and end after 5 wrong codes; a phone code allows 3 tries.
public final class MFAService: Sendable {
    /// Limits, in one place.
    public struct Limits: Sendable {
        public var maximumFactors = 5
        public var pendingCredentialLifetime: Int64 = 600
        public var pendingCredentialAttempts = 5
        public var phoneCodeLifetime: Int64 = 300
        public var phoneCodeAttempts = 3
        public var totpEnrollmentLifetime: Int64 = 600
        /// At most one SMS per number per `resendInterval` seconds, and `maximumSMSPerHour` an hour.
        public var resendInterval: Int64 = 30
        public var maximumSMSPerHour = 10
        public init() {}
    }

    let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    let time: any TimeSource
    let sms: any SMSSender
    let limits: Limits
    private let totp = TOTP()

    public init(
        project: ProjectConfiguration, store: any HearthStore, tokens: TokenService, time: any TimeSource,
        sms: any SMSSender, limits: Limits = Limits()
    ) {
        self.project = project
        self.store = store
        self.tokens = tokens
        self.time = time
        self.sms = sms
        self.limits = limits
    }

    // MARK: - After the first factor

    /// The factors that must be offered at sign-in: enrolled factors of kinds the project allows, or
    /// none when MFA is disabled.
    func requiredFactors(of account: Account) -> [MFAEnrollment] {
        guard project.mfa.enabled else { return [] }
        return account.mfaEnrollments.filter { project.mfa.factors.contains($0.factor) }
    }

    /// Records a sign-in waiting for its second factor (inside the sign-in's transaction) and returns the
    /// pending credential and the masked factors to send instead of tokens.
    func startPendingSignIn(for account: Account, signInProvider: String, writer: any StoreWriter) throws
        -> (credential: String, mfaInfo: [MFAEnrollmentInfo])
    {
        let credential = Identifiers.secret(prefix: "mfa.")
        try writer.insertMFAPendingSignIn(
            MFAPendingSignIn(
                credentialHash: Identifiers.hash(credential), localID: account.localID, signInProvider: signInProvider,
                expiresAt: time.nowSeconds + limits.pendingCredentialLifetime, createdAtMillis: time.nowMillis))
        return (credential, requiredFactors(of: account).map { $0.wireInfo(masked: true) })
    }

    // MARK: - Enrollment

    /// `mfaEnrollment:start`: sends an SMS code to a new phone factor, or offers a new TOTP secret.
    public func startEnrollment(_ request: StartMFAEnrollmentRequest) throws -> StartMFAEnrollmentResponse {
        let user = try enrollmentEligibleUser(request.idToken)
        if let phone = request.phoneEnrollmentInfo {
            try requireFactor(.phone)
            guard let number = phone.phoneNumber, !number.isEmpty else {
                throw WireError(.invalidPhoneNumber, "Invalid format.")
            }
            guard PhoneNumbers.isE164(number) else { throw WireError(.invalidPhoneNumber, "Invalid format.") }
            guard !user.account.mfaEnrollments.contains(where: { $0.phoneNumber == number }) else {
                throw WireError(.secondFactorExists, "The phone number is already enrolled as a second factor.")
            }
            try requireRoomForFactor(user.account)
            let sessionInfo = try sendCode(
                to: number, purpose: .phoneEnrollment, localID: user.account.localID, smsPurpose: .enrollment)
            return StartMFAEnrollmentResponse(phoneSessionInfo: .init(sessionInfo: sessionInfo))
        }
        guard request.totpEnrollmentInfo != nil else {
            throw WireError(.invalidArgument, "Send phoneEnrollmentInfo or totpEnrollmentInfo.")
        }
        try requireFactor(.totp)
        try requireRoomForFactor(user.account)
        let secret = SecureRandom.bytes(count: 20)
        let sessionInfo = Identifiers.secret(prefix: "totp.")
        let expiresAt = time.nowSeconds + limits.totpEnrollmentLifetime
        try write { writer in
            try writer.insertVerificationSession(
                VerificationSession(
                    sessionHash: Identifiers.hash(sessionInfo), purpose: .totpEnrollment, localID: user.account.localID,
                    totpSecret: secret, expiresAt: expiresAt, createdAtMillis: time.nowMillis))
        }
        return StartMFAEnrollmentResponse(
            totpSessionInfo: .init(
                sharedSecretKey: Base32.encode(secret), verificationCodeLength: totp.digits, hashingAlgorithm: "SHA1",
                periodSec: Int(totp.period), sessionInfo: sessionInfo,
                finalizeEnrollmentTime: Timestamps.rfc3339(millis: expiresAt * 1000)))
    }

    /// `mfaEnrollment:finalize`: checks the code and adds the factor; answers tokens that carry it.
    public func finalizeEnrollment(_ request: FinalizeMFAEnrollmentRequest) throws -> MFATokensResponse {
        let user = try enrollmentEligibleUser(request.idToken)
        let now = time.nowSeconds
        let enrollmentID = Identifiers.localID()
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(256)) }
        let enrollment: MFAEnrollment
        if let verification = request.phoneVerificationInfo {
            let (sessionInfo, code) = try requireSessionAndCode(verification.sessionInfo, verification.code)
            enrollment = try write { writer -> MFAEnrollment in
                let session = try checkPhoneCode(
                    sessionInfo: sessionInfo, code: code, purpose: .phoneEnrollment, localID: user.account.localID,
                    writer: writer)
                guard var account = try writer.account(localID: user.account.localID) else {
                    throw WireError(.userNotFound)
                }
                guard let number = session.phoneNumber else { throw WireError(.invalidSessionInfo) }
                guard !account.mfaEnrollments.contains(where: { $0.phoneNumber == number }) else {
                    throw WireError(.secondFactorExists, "The phone number is already enrolled as a second factor.")
                }
                try requireRoomForFactor(account)
                let enrollment = MFAEnrollment(
                    enrollmentID: enrollmentID, kind: .phone, displayName: displayName,
                    enrolledAtMillis: time.nowMillis, phoneNumber: number)
                account.mfaEnrollments.append(enrollment)
                try writer.updateAccount(account)
                return enrollment
            }
        } else if let verification = request.totpVerificationInfo {
            guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else {
                throw WireError(.missingSessionInfo)
            }
            guard let code = verification.verificationCode, !code.isEmpty else { throw WireError(.missingCode) }
            enrollment = try write { writer -> MFAEnrollment in
                let hash = Identifiers.hash(sessionInfo)
                guard var session = try writer.verificationSession(hash: hash), session.purpose == .totpEnrollment,
                    session.localID == user.account.localID, let secret = session.totpSecret
                else { throw WireError(.invalidSessionInfo) }
                guard session.expiresAt > now else {
                    try writer.deleteVerificationSession(hash: hash)
                    throw WireError(.sessionExpired, "The TOTP enrollment session has expired; start again.")
                }
                guard let step = totp.matchingStep(code: code, secret: secret, at: now) else {
                    session.failedAttempts += 1
                    if session.failedAttempts >= limits.phoneCodeAttempts {
                        try writer.deleteVerificationSession(hash: hash)
                        throw WireError(.tooManyAttemptsTryLater, "Too many wrong codes; start the enrollment again.")
                    }
                    try writer.updateVerificationSession(session)
                    throw CommittedFailure(WireError(.invalidCode, "The verification code is wrong."))
                }
                try writer.deleteVerificationSession(hash: hash)
                guard var account = try writer.account(localID: user.account.localID) else {
                    throw WireError(.userNotFound)
                }
                try requireRoomForFactor(account)
                let enrollment = MFAEnrollment(
                    enrollmentID: enrollmentID, kind: .totp, displayName: displayName,
                    enrolledAtMillis: time.nowMillis, totpSecret: secret, lastUsedTOTPStep: step)
                account.mfaEnrollments.append(enrollment)
                try writer.updateAccount(account)
                return enrollment
            }
        } else {
            throw WireError(.invalidArgument, "Send phoneVerificationInfo or totpVerificationInfo.")
        }
        let session = Session(
            signInProvider: user.session.signInProvider, authTime: user.session.authTime,
            secondFactor: enrollment.kind.rawValue, secondFactorIdentifier: enrollment.enrollmentID)
        var response = try issueTokens(localID: user.account.localID, session: session)
        if enrollment.kind == .totp { response.totpAuthInfo = EmptyObject() }
        return response
    }

    /// `mfaEnrollment:withdraw`: removes a factor; answers new tokens without it.
    public func withdraw(_ request: WithdrawMFARequest) throws -> MFATokensResponse {
        let user = try tokens.authenticate(idToken: request.idToken)
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw WireError(.missingMFAEnrollmentID)
        }
        try write { writer in
            guard var account = try writer.account(localID: user.account.localID) else { throw WireError(.userNotFound) }
            guard account.mfaEnrollments.contains(where: { $0.enrollmentID == enrollmentID }) else {
                throw WireError(.mfaEnrollmentNotFound)
            }
            account.mfaEnrollments.removeAll { $0.enrollmentID == enrollmentID }
            try writer.updateAccount(account)
        }
        var session = user.session
        if session.secondFactorIdentifier == enrollmentID {
            session.secondFactor = nil
            session.secondFactorIdentifier = nil
        }
        var response = try issueTokens(localID: user.account.localID, session: session)
        response.expiresIn = tokens.expiresIn
        return response
    }

    // MARK: - Sign-in

    /// `mfaSignIn:start`: sends an SMS code to the chosen phone factor.
    public func startSignIn(_ request: StartMFASignInRequest) throws -> StartMFASignInResponse {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else {
            throw WireError(.missingMFAPendingCredential, "Request does not have MFA pending credential.")
        }
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw WireError(.missingMFAEnrollmentID, "Request does not have MFA enrollment ID.")
        }
        let (pending, account) = try livePendingSignIn(credential)
        guard let enrollment = account.mfaEnrollments.first(where: { $0.enrollmentID == enrollmentID }),
            enrollment.kind == .phone, let number = enrollment.phoneNumber
        else { throw WireError(.mfaEnrollmentNotFound) }
        try requireFactor(.phone)
        let sessionInfo = try sendCode(
            to: number, purpose: .phoneSignIn, localID: account.localID, smsPurpose: .signIn,
            pendingCredentialHash: pending.credentialHash, enrollmentID: enrollmentID)
        return StartMFASignInResponse(sessionInfo: sessionInfo)
    }

    /// `mfaSignIn:finalize`: checks a phone or TOTP code and finishes the sign-in with second-factor claims.
    public func finalizeSignIn(_ request: FinalizeMFASignInRequest) throws -> MFATokensResponse {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else {
            throw WireError(.missingCredential, "Please set MFA Pending Credential.")
        }
        let pendingHash = Identifiers.hash(credential)
        let now = time.nowSeconds
        let (localID, provider, enrollment) = try write { writer -> (String, String, MFAEnrollment) in
            guard var pending = try writer.mfaPendingSignIn(hash: pendingHash) else {
                throw WireError(.invalidMFAPendingCredential, "The MFA pending credential is invalid or was already used.")
            }
            guard pending.expiresAt > now else {
                try writer.deleteMFAPendingSignIn(hash: pendingHash)
                throw WireError(.invalidMFAPendingCredential, "The MFA pending credential has expired; sign in again.")
            }
            guard var account = try writer.account(localID: pending.localID) else {
                try writer.deleteMFAPendingSignIn(hash: pendingHash)
                throw WireError(.userNotFound)
            }
            guard !account.disabled else { throw WireError(.userDisabled) }
            let enrollment: MFAEnrollment
            do {
                if let verification = request.phoneVerificationInfo {
                    try requireFactor(.phone)
                    let (sessionInfo, code) = try requireSessionAndCode(verification.sessionInfo, verification.code)
                    let session = try checkPhoneCode(
                        sessionInfo: sessionInfo, code: code, purpose: .phoneSignIn, localID: account.localID,
                        pendingCredentialHash: pendingHash, writer: writer)
                    guard let found = account.mfaEnrollments.first(where: { $0.enrollmentID == session.enrollmentID })
                    else { throw WireError(.mfaEnrollmentNotFound) }
                    enrollment = found
                } else if let verification = request.totpVerificationInfo {
                    try requireFactor(.totp)
                    guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
                        throw WireError(.missingMFAEnrollmentID)
                    }
                    guard let code = verification.verificationCode, !code.isEmpty else { throw WireError(.missingCode) }
                    guard let index = account.mfaEnrollments.firstIndex(where: { $0.enrollmentID == enrollmentID }),
                        account.mfaEnrollments[index].kind == .totp, let secret = account.mfaEnrollments[index].totpSecret
                    else { throw WireError(.mfaEnrollmentNotFound) }
                    // A code is accepted at most once: its step must be later than the last one used.
                    guard let step = totp.matchingStep(code: code, secret: secret, at: now),
                        step > (account.mfaEnrollments[index].lastUsedTOTPStep ?? Int64.min)
                    else { throw CommittedFailure(WireError(.invalidCode, "The verification code is wrong or was already used.")) }
                    account.mfaEnrollments[index].lastUsedTOTPStep = step
                    try writer.updateAccount(account)
                    enrollment = account.mfaEnrollments[index]
                } else {
                    throw WireError(.invalidArgument, "Send phoneVerificationInfo or totpVerificationInfo.")
                }
            } catch let failure as CommittedFailure where failure.error.code == .invalidCode {
                // Count the wrong code against the pending credential; the fifth ends it.
                pending.failedAttempts += 1
                if pending.failedAttempts >= limits.pendingCredentialAttempts {
                    try writer.deleteMFAPendingSignIn(hash: pendingHash)
                    throw CommittedFailure(WireError(.tooManyAttemptsTryLater, "Too many wrong codes; sign in again."))
                }
                try writer.updateMFAPendingSignIn(pending)
                throw failure
            }
            try writer.deleteMFAPendingSignIn(hash: pendingHash)
            account.lastLoginAtMillis = time.nowMillis
            try writer.updateAccount(account)
            return (account.localID, pending.signInProvider, enrollment)
        }
        let session = Session(
            signInProvider: provider, authTime: now, secondFactor: enrollment.kind.rawValue,
            secondFactorIdentifier: enrollment.enrollmentID)
        return try issueTokens(localID: localID, session: session)
    }

    /// Whether an SMS verification session is still open (not used, not expired), for the development
    /// listing of sent codes.
    public func isOpenSession(sessionInfo: String) throws -> Bool {
        let session = try AccountService.mappingStoreErrors {
            try store.read { try $0.verificationSession(hash: Identifiers.hash(sessionInfo)) }
        }
        guard let session, session.codeHash != nil || session.totpSecret != nil else { return false }
        return session.expiresAt > time.nowSeconds
    }

    // MARK: - Helpers

    /// The signed-in user, if they may enrol a factor: a supported first factor and a verified email.
    private func enrollmentEligibleUser(_ idToken: String?) throws -> AuthenticatedUser {
        let user = try tokens.authenticate(idToken: idToken)
        let unsupported: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com", "playgames.google.com"]
        guard !unsupported.contains(user.session.signInProvider) else {
            throw WireError(.unsupportedFirstFactor, "MFA is not available for the given first factor.")
        }
        guard user.account.email != nil, user.account.emailVerified else {
            throw WireError(.unverifiedEmail, "Need to verify email first before enrolling second factors.")
        }
        return user
    }

    private func requireFactor(_ factor: MFAPolicy.Factor) throws {
        guard project.mfa.enabled, project.mfa.factors.contains(factor) else {
            let name = factor == .phone ? "SMS based MFA" : "TOTP based MFA"
            throw WireError(.operationNotAllowed, "\(name) not enabled.")
        }
    }

    private func requireRoomForFactor(_ account: Account) throws {
        guard account.mfaEnrollments.count < limits.maximumFactors else {
            throw WireError(.secondFactorLimitExceeded, "The maximum number of second factors (\(limits.maximumFactors)) is enrolled.")
        }
    }

    private func requireSessionAndCode(_ sessionInfo: String?, _ code: String?) throws -> (String, String) {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw WireError(.missingSessionInfo) }
        guard let code, !code.isEmpty else { throw WireError(.missingCode) }
        return (sessionInfo, code)
    }

    /// A pending sign-in that exists and has not expired, with its account.
    private func livePendingSignIn(_ credential: String) throws -> (MFAPendingSignIn, Account) {
        let hash = Identifiers.hash(credential)
        let found = try AccountService.mappingStoreErrors {
            try store.read { reader -> (MFAPendingSignIn, Account?)? in
                guard let pending = try reader.mfaPendingSignIn(hash: hash) else { return nil }
                return (pending, try reader.account(localID: pending.localID))
            }
        }
        guard let (pending, account) = found else {
            throw WireError(.invalidMFAPendingCredential, "The MFA pending credential is invalid or was already used.")
        }
        guard pending.expiresAt > time.nowSeconds else {
            throw WireError(.invalidMFAPendingCredential, "The MFA pending credential has expired; sign in again.")
        }
        guard let account else { throw WireError(.userNotFound) }
        guard !account.disabled else { throw WireError(.userDisabled) }
        return (pending, account)
    }

    /// Creates a verification session with a fresh 6-digit code, then hands the code to the SMS sender.
    /// Throttled per number; if the sender fails, the session is removed again.
    private func sendCode(
        to number: String, purpose: VerificationSession.Purpose, localID: String, smsPurpose: SMSMessage.Purpose,
        pendingCredentialHash: String? = nil, enrollmentID: String? = nil
    ) throws -> String {
        let sessionInfo = Identifiers.secret(prefix: "sms.")
        let code = Self.sixDigitCode()
        let nowMillis = time.nowMillis
        try write { writer in
            try writer.deleteExpiredMFAState(before: time.nowSeconds, keepSinceMillis: nowMillis - 3_600_000)
            let recent = try writer.verificationSessionCount(phoneNumber: number, since: nowMillis - limits.resendInterval * 1000)
            let lastHour = try writer.verificationSessionCount(phoneNumber: number, since: nowMillis - 3_600_000)
            guard recent == 0, lastHour < limits.maximumSMSPerHour else {
                throw WireError(.tooManyAttemptsTryLater, "Too many codes were sent to this number; try again later.")
            }
            try writer.insertVerificationSession(
                VerificationSession(
                    sessionHash: Identifiers.hash(sessionInfo), purpose: purpose, localID: localID,
                    phoneNumber: number, codeHash: Self.codeHash(code, sessionInfo: sessionInfo),
                    pendingCredentialHash: pendingCredentialHash, enrollmentID: enrollmentID,
                    expiresAt: time.nowSeconds + limits.phoneCodeLifetime, createdAtMillis: nowMillis))
        }
        let text = "\(code) is your verification code for \(project.projectID)."
        do {
            try sms.send(SMSMessage(phoneNumber: number, code: code, text: text, purpose: smsPurpose, sessionInfo: sessionInfo))
        } catch {
            _ = try? store.write { try $0.deleteVerificationSession(hash: Identifiers.hash(sessionInfo)) }
            throw WireError(.unavailable, "The SMS could not be sent. Try again later.")
        }
        return sessionInfo
    }

    /// Checks an SMS code inside a write transaction. A wrong code counts (the third ends the session);
    /// a right one uses the session up. Ended sessions stay (without their code) for an hour so that
    /// they still count against the number's SMS allowance.
    private func checkPhoneCode(
        sessionInfo: String, code: String, purpose: VerificationSession.Purpose, localID: String,
        pendingCredentialHash: String? = nil, writer: any StoreWriter
    ) throws -> VerificationSession {
        let hash = Identifiers.hash(sessionInfo)
        guard var session = try writer.verificationSession(hash: hash), session.purpose == purpose,
            session.localID == localID, session.pendingCredentialHash == pendingCredentialHash,
            let expected = session.codeHash
        else { throw WireError(.invalidSessionInfo, "The verification ID is invalid.") }
        guard session.expiresAt > time.nowSeconds else {
            try spend(&session, writer: writer)
            throw CommittedFailure(WireError(.sessionExpired, "The SMS code has expired. Please re-send the verification code to try again."))
        }
        guard ConstantTime.equals(Array(Self.codeHash(code, sessionInfo: sessionInfo).utf8), Array(expected.utf8)) else {
            session.failedAttempts += 1
            if session.failedAttempts >= limits.phoneCodeAttempts {
                try spend(&session, writer: writer)
            } else {
                try writer.updateVerificationSession(session)
            }
            throw CommittedFailure(WireError(.invalidCode, "The SMS verification code is wrong."))
        }
        let used = session
        try spend(&session, writer: writer)
        return used
    }

    /// Ends a verification session but keeps its record (for SMS throttling) until it is purged.
    private func spend(_ session: inout VerificationSession, writer: any StoreWriter) throws {
        session.codeHash = nil
        session.totpSecret = nil
        session.expiresAt = 0
        try writer.updateVerificationSession(session)
    }

    private func issueTokens(localID: String, session: Session) throws -> MFATokensResponse {
        let (account, refreshToken) = try write { writer -> (Account, String) in
            guard let account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            return (account, try tokens.newRefreshToken(for: account, session: session, writer: writer))
        }
        return MFATokensResponse(idToken: try tokens.mintIDToken(for: account, session: session), refreshToken: refreshToken)
    }

    static func sixDigitCode() -> String {
        // Uniform over 000000–999999: reject values at or above the largest multiple of 10^6.
        while true {
            let bytes = SecureRandom.bytes(count: 4)
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if value < 4_294_000_000 {
                let number = String(value % 1_000_000)
                return String(repeating: "0", count: 6 - number.count) + number
            }
        }
    }

    /// SHA-256 of the code salted with its session, so stored hashes of different sessions differ.
    static func codeHash(_ code: String, sessionInfo: String) -> String {
        Identifiers.hash(sessionInfo + ":" + code)
    }

    /// Runs `body` as one write transaction. A `CommittedFailure` thrown by the body (a counted wrong
    /// attempt) still commits what the body wrote, then its error is thrown; any other error rolls back.
    /// Store errors become wire errors.
    private func write<T>(_ body: (any StoreWriter) throws -> T) throws -> T {
        let outcome = try AccountService.mappingStoreErrors {
            try store.write { writer -> Result<T, WireError> in
                do {
                    return .success(try body(writer))
                } catch let failure as CommittedFailure {
                    return .failure(failure.error)
                }
            }
        }
        return try outcome.get()
    }
}

/// A failure after which the transaction must still commit (for example a wrong code, whose attempt
/// must be counted).
struct CommittedFailure: Error {
    let error: WireError
    init(_ error: WireError) { self.error = error }
}
