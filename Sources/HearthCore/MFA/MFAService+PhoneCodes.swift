import Foundation
import HearthCrypto
public import HearthProtocol

/// Codes: sending an SMS code under the throttle and quotas, and checking SMS and TOTP codes inside a write body.
extension MFAService {
    /// The result of checking a code inside a write body. `.wrong` and `.ended` carry the error to
    /// answer after committing (the attempt was counted, or the session spent).
    enum CodeCheck {
        /// The code is right; for an SMS code, the session it used.
        case accepted(VerificationSession?)
        case wrong(WireError)
        case ended(WireError)
    }

    /// Creates a verification session with a fresh 6-digit code, then hands the code to the SMS sender; for a test
    /// phone number the code is its fixed one and nothing is sent (the session, throttle and quotas as for any).
    ///
    /// Refused, with nothing charged, when the SMS region policy does not permit the number (`OPERATION_NOT_ALLOWED`),
    /// while an unused code sent to the number is younger than
    /// `resendInterval`, when the number had `maximumSMSPerHour`, when the account, client or project
    /// quota is used up, or (sign-in) while the factor is locked. If the sender fails, the session is
    /// removed again; the quotas stay charged.
    func sendCode(
        to number: String, purpose: VerificationSession.Purpose, localID: String, by caller: Caller,
        smsPurpose: SMSMessage.Purpose, pendingCredentialHash: String? = nil, enrollmentID: String? = nil
    ) throws -> String {
        let settings = try scopeSettings?.current()
        let fixedCode = settings?.testPhoneNumbers[number]
        guard fixedCode != nil || settings?.smsRegions.permits(number) ?? true else { throw SMSRegionPolicy.refusal }
        let sessionInfo = Identifiers.secret(prefix: "sms.")
        let code = fixedCode ?? Self.sixDigitCode()
        let nowMillis = time.nowMillis
        try transaction(caller) { writer, ledger -> WriteOutcome<Void> in
            if let enrollmentID {
                let key = LimitKeys.factorFailures(localID: localID, enrollmentID: enrollmentID)
                if try ledger.lockedUntil(key, limits.factorFailures) != nil { throw Self.factorLocked }
            }
            try writer.deleteExpiredMFAState(
                before: time.nowSeconds, keepSinceMillis: nowMillis - Self.smsThrottleWindowMillis)
            let lastHour = try writer.verificationSessions(
                phoneNumber: number, createdSince: nowMillis - Self.smsThrottleWindowMillis)
            guard limits.allowsSMS(after: lastHour, atMillis: nowMillis) else {
                throw WireError(.tooManyAttemptsTryLater, "A code was just sent to this number; wait before asking for another.")
            }
            var quotas = [(LimitKeys.smsFromAccount(localID), limits.smsPerAccount), (LimitKeys.smsForProject, limits.smsPerProject)]
            if let client = caller.client { quotas.append((LimitKeys.smsFromClient(client), limits.smsPerClient)) }
            guard try ledger.charge(quotas) else {
                return .commitThenFail(WireError(.tooManyAttemptsTryLater, "Too many codes were sent; try again later."))
            }
            try writer.insertVerificationSession(
                VerificationSession(
                    sessionHash: Identifiers.hash(sessionInfo), purpose: purpose, localID: localID,
                    phoneNumber: number, codeHash: Self.codeHash(code, sessionInfo: sessionInfo),
                    pendingCredentialHash: pendingCredentialHash, enrollmentID: enrollmentID,
                    expiresAt: time.nowSeconds + limits.phoneCodeLifetime, createdAtMillis: nowMillis))
            return .commit(())
        }
        if fixedCode != nil { return sessionInfo }
        let text = "\(code) is your verification code for \(project.projectID)."
        do {
            try sms.send(SMSMessage(phoneNumber: number, code: code, text: text, purpose: smsPurpose, sessionInfo: sessionInfo))
        } catch {
            _ = try? store.write { try $0.deleteVerificationSession(hash: Identifiers.hash(sessionInfo)) }
            throw WireError(.unavailable, "The SMS could not be sent. Try again later.")
        }
        return sessionInfo
    }

    /// Checks an SMS code inside a write body. A wrong code counts (the third ends the session); a right
    /// one uses the session up. Ended sessions stay (without their code) for an hour so that they
    /// still count against the number's SMS allowance.
    func checkPhoneCode(
        sessionInfo: String, code: String, purpose: VerificationSession.Purpose, localID: String,
        pendingCredentialHash: String? = nil, writer: any StoreWriter
    ) throws -> CodeCheck {
        let hash = Identifiers.hash(sessionInfo)
        guard let session = try writer.verificationSession(hash: hash), session.purpose == purpose,
            session.localID == localID, session.pendingCredentialHash == pendingCredentialHash,
            let expected = session.codeHash
        else { throw WireError(.invalidSessionInfo, "The verification ID is invalid.") }
        let matches = ConstantTime.equals(Array(Self.codeHash(code, sessionInfo: sessionInfo).utf8), Array(expected.utf8))
        let (attempt, after) = session.attempt(
            codeMatches: matches, atMillis: time.nowMillis, maximumAttempts: limits.phoneCodeAttempts)
        try writer.updateVerificationSession(attempt == .wrong ? after : after.spent)
        switch attempt {
        case .accepted:
            return .accepted(after)
        case .wrong, .exhausted:
            return .wrong(WireError(.invalidCode, "The SMS verification code is wrong."))
        case .expired:
            return .ended(WireError(.sessionExpired, "The SMS code has expired. Please re-send the verification code to try again."))
        }
    }

    /// Checks a TOTP code against an enrolled factor; a code is accepted at most once (its time step
    /// must be later than the last one used), and the accepted step is recorded in `enrollment`.
    /// `window`: the adjacent steps accepted (the policy's `totpAdjacentIntervals`).
    func checkTOTPCode(_ code: String, secret: [UInt8], enrollment: inout MFAEnrollment, now: Int64, window: Int64)
        -> CodeCheck
    {
        guard let step = totp.matchingStep(code: code, secret: secret, at: now, window: window) else {
            return .wrong(WireError(.invalidCode, "The verification code is wrong."))
        }
        guard enrollment.acceptTOTP(step: step) else {
            return .wrong(WireError(.invalidCode, "This code was already used; wait for the next one."))
        }
        return .accepted(nil)
    }
}
