import Foundation
import HearthCrypto
public import HearthProtocol

/// Enrolling and withdrawing second factors: `mfaEnrollment:start`, `:finalize` and `:withdraw`.
extension MFAService {
    /// `mfaEnrollment:start`: sends an SMS code to a new phone factor, or offers a new TOTP secret.
    /// - Parameter caller: who enrols; its address is limited and recorded.
    public func startEnrollment(_ request: StartMFAEnrollmentRequest, by caller: Caller) throws
        -> StartMFAEnrollmentResponse
    {
        let user = try enrollmentEligibleUser(request.idToken)
        try takeAccountToken(user.account.localID)
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
                to: number, purpose: .phoneEnrollment, localID: user.account.localID, by: caller,
                smsPurpose: .enrollment)
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
        try store.write { writer in
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

    /// `mfaEnrollment:finalize`: checks the code and adds the factor, ends the account's other sessions and answers
    /// tokens of a new session that carry the factor, all in one write.
    public func finalizeEnrollment(_ request: FinalizeMFAEnrollmentRequest, by caller: Caller) throws
        -> MFATokensResponse
    {
        let user = try enrollmentEligibleUser(request.idToken)
        try takeAccountToken(user.account.localID)
        let enrollmentID = Identifiers.localID()
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(256)) }
        let localID = user.account.localID
        /// The caller's session once `kind` is enrolled: its first factor, and the new factor as its second.
        func enrolledSession(_ kind: MFAEnrollment.Kind) -> Session {
            Session(
                signInProvider: user.session.signInProvider, authTime: user.session.authTime,
                secondFactor: kind.rawValue, secondFactorIdentifier: enrollmentID)
        }
        let enrolled: SignedIn
        if let verification = request.phoneVerificationInfo {
            let (sessionInfo, code) = try requireSessionAndCode(verification.sessionInfo, verification.code)
            enrolled = try transaction(caller) { writer, ledger -> WriteOutcome<SignedIn> in
                try requireClientUnlocked(caller, ledger)
                let session: VerificationSession
                switch try checkPhoneCode(
                    sessionInfo: sessionInfo, code: code, purpose: .phoneEnrollment, localID: localID, writer: writer)
                {
                case .accepted(let accepted?): session = accepted
                case .accepted(nil): throw WireError(.invalidSessionInfo)
                case .ended(let error):
                    return try refuse(error, localID: localID, factor: .phone, by: caller, writer)
                case .wrong(let error):
                    try recordClientFailure(caller, &ledger)
                    return try refuse(error, localID: localID, factor: .phone, by: caller, writer)
                }
                guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
                guard let number = session.phoneNumber else { throw WireError(.invalidSessionInfo) }
                guard !account.mfaEnrollments.contains(where: { $0.phoneNumber == number }) else {
                    throw WireError(.secondFactorExists, "The phone number is already enrolled as a second factor.")
                }
                try requireRoomForFactor(account)
                let enrollment = MFAEnrollment(
                    enrollmentID: enrollmentID, kind: .phone, displayName: displayName,
                    enrolledAtMillis: time.nowMillis, phoneNumber: number)
                return .commit(try enroll(enrollment, to: &account, session: enrolledSession(.phone), by: caller, writer))
            }
        } else if let verification = request.totpVerificationInfo {
            guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else {
                throw WireError(.missingSessionInfo)
            }
            guard let code = verification.verificationCode, !code.isEmpty else { throw WireError(.missingCode) }
            let now = time.nowSeconds
            let window = policy().totpAdjacentIntervals
            enrolled = try transaction(caller) { writer, ledger -> WriteOutcome<SignedIn> in
                try requireClientUnlocked(caller, ledger)
                let hash = Identifiers.hash(sessionInfo)
                guard let session = try writer.verificationSession(hash: hash), session.purpose == .totpEnrollment,
                    session.localID == localID, let secret = session.totpSecret
                else { throw WireError(.invalidSessionInfo) }
                let step = totp.matchingStep(code: code, secret: secret, at: now, window: window)
                let (attempt, after) = session.attempt(
                    codeMatches: step != nil, atMillis: time.nowMillis, maximumAttempts: limits.phoneCodeAttempts)
                switch attempt {
                case .accepted:
                    break
                case .expired:
                    try writer.deleteVerificationSession(hash: hash)
                    let expired = WireError(.sessionExpired, "The TOTP enrollment session has expired; start again.")
                    return try refuse(expired, localID: localID, factor: .totp, by: caller, writer)
                case .exhausted:
                    try recordClientFailure(caller, &ledger)
                    try writer.deleteVerificationSession(hash: hash)
                    let ended = WireError(.tooManyAttemptsTryLater, "Too many wrong codes; start the enrollment again.")
                    return try refuse(ended, localID: localID, factor: .totp, by: caller, writer)
                case .wrong:
                    try recordClientFailure(caller, &ledger)
                    try writer.updateVerificationSession(after)
                    let wrong = WireError(.invalidCode, "The verification code is wrong.")
                    return try refuse(wrong, localID: localID, factor: .totp, by: caller, writer)
                }
                try writer.deleteVerificationSession(hash: hash)
                guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
                try requireRoomForFactor(account)
                let enrollment = MFAEnrollment(
                    enrollmentID: enrollmentID, kind: .totp, displayName: displayName,
                    enrolledAtMillis: time.nowMillis, totpSecret: secret, lastUsedTOTPStep: step)
                return .commit(try enroll(enrollment, to: &account, session: enrolledSession(.totp), by: caller, writer))
            }
        } else {
            throw WireError(.invalidArgument, "Send phoneVerificationInfo or totpVerificationInfo.")
        }
        var response = MFATokensResponse(enrolled, try tokens.issue(enrolled))
        if enrolled.session.secondFactor == MFAEnrollment.Kind.totp.rawValue { response.totpAuthInfo = EmptyObject() }
        return response
    }

    /// Adds `enrollment` to `account` in `writer`, ends the account's sessions and starts the caller's new one.
    func enroll(
        _ enrollment: MFAEnrollment, to account: inout Account, session: Session, by caller: Caller,
        _ writer: any StoreWriter
    ) throws -> SignedIn {
        account.mfaEnrollments.append(enrollment)
        account.revokeSessions(atMillis: time.nowMillis)
        try writer.updateAccount(account)
        try recordEnrolment(enrollment, localID: account.localID, by: caller, writer)
        return SignedIn(
            account: account, session: session,
            refreshToken: try tokens.newRefreshToken(for: account, session: session, writer: writer), isNewUser: false)
    }

    /// `mfaEnrollment:withdraw`: removes a factor, ends the account's other sessions and answers tokens of a new
    /// session without it, in one write. It needs a recent sign-in, as enrolling does.
    /// - Parameter caller: who withdraws, recorded with the removal.
    public func withdraw(_ request: WithdrawMFARequest, by caller: Caller) throws -> MFATokensResponse {
        let user = try tokens.authenticate(idToken: request.idToken)
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw WireError(.missingMFAEnrollmentID)
        }
        try tokens.requireRecentSignIn(user)
        var session = user.session
        if session.secondFactorIdentifier == enrollmentID {
            session.secondFactor = nil
            session.secondFactorIdentifier = nil
        }
        let now = time.nowMillis
        let withdrawn = try store.write { writer -> SignedIn in
            guard var account = try writer.account(localID: user.account.localID) else { throw WireError(.userNotFound) }
            guard account.mfaEnrollments.contains(where: { $0.enrollmentID == enrollmentID }) else {
                throw WireError(.mfaEnrollmentNotFound)
            }
            let before = account
            account.mfaEnrollments.removeAll { $0.enrollmentID == enrollmentID }
            account.revokeSessions(atMillis: now)
            try writer.updateAccount(account)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
            return SignedIn(
                account: account, session: session,
                refreshToken: try tokens.newRefreshToken(for: account, session: session, writer: writer), isNewUser: false)
        }
        var response = MFATokensResponse(withdrawn, try tokens.issue(withdrawn))
        response.expiresIn = tokens.expiresIn
        return response
    }

    /// The signed-in user, if they may enrol a factor: a recent sign-in, a supported first factor and a verified email.
    func enrollmentEligibleUser(_ idToken: String?) throws -> AuthenticatedUser {
        let user = try tokens.authenticate(idToken: idToken)
        try tokens.requireRecentSignIn(user)
        let unsupported: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com", "playgames.google.com"]
        guard !unsupported.contains(user.session.signInProvider) else {
            throw WireError(.unsupportedFirstFactor, "MFA is not available for the given first factor.")
        }
        guard user.account.email != nil, user.account.emailVerified else {
            throw WireError(.unverifiedEmail, "Need to verify email first before enrolling second factors.")
        }
        return user
    }

    func requireRoomForFactor(_ account: Account) throws {
        guard account.mfaEnrollments.count < limits.maximumFactors else {
            throw WireError(.secondFactorLimitExceeded, "The maximum number of second factors (\(limits.maximumFactors)) is enrolled.")
        }
    }
}
