import Foundation
import HearthCrypto
public import HearthProtocol

/// Finishing a sign-in that stopped after its first factor: `mfaSignIn:start` and `:finalize`.
extension MFAService {
    /// `mfaSignIn:start`: sends an SMS code to the chosen phone factor (not while it is locked).
    public func startSignIn(_ request: StartMFASignInRequest, by caller: Caller) throws -> StartMFASignInResponse {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else {
            throw WireError(.missingMFAPendingCredential, "Request does not have MFA pending credential.")
        }
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw WireError(.missingMFAEnrollmentID, "Request does not have MFA enrollment ID.")
        }
        let (pending, account) = try livePendingSignIn(credential)
        try takeAccountToken(account.localID)
        guard let enrollment = account.mfaEnrollments.first(where: { $0.enrollmentID == enrollmentID }),
            enrollment.kind == .phone, let number = enrollment.phoneNumber
        else { throw WireError(.mfaEnrollmentNotFound) }
        try requireFactor(.phone)
        let sessionInfo = try sendCode(
            to: number, purpose: .phoneSignIn, localID: account.localID, by: caller, smsPurpose: .signIn,
            pendingCredentialHash: pending.credentialHash, enrollmentID: enrollmentID)
        return StartMFASignInResponse(sessionInfo: sessionInfo)
    }

    /// `mfaSignIn:finalize`: checks a phone or TOTP code and finishes the sign-in with second-factor claims.
    ///
    /// A wrong code counts against the pending credential (the fifth ends it), the factor and the client
    /// (either may lock), all in the transaction that refuses it.
    public func finalizeSignIn(_ request: FinalizeMFASignInRequest, by caller: Caller) throws -> MFATokensResponse {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else {
            throw WireError(.missingCredential, "Please set MFA Pending Credential.")
        }
        let policy = policy()
        let attempt = try SignInAttempt(request, policy: policy)
        let pendingHash = Identifiers.hash(credential)
        let now = time.nowSeconds
        let takes = RateLimitTakes(limiter)
        let signedIn = try transaction(caller) { writer, ledger -> WriteOutcome<SignedIn> in
            guard var pending = try writer.mfaPendingSignIn(hash: pendingHash) else {
                throw WireError(.invalidMFAPendingCredential, "The MFA pending credential is invalid or was already used.")
            }
            guard pending.expiresAt > now else {
                try writer.deleteMFAPendingSignIn(hash: pendingHash)
                let expired = WireError(.invalidMFAPendingCredential, "The MFA pending credential has expired; sign in again.")
                return try refuse(expired, localID: pending.localID, factor: attempt.factor, by: caller, writer)
            }
            guard var account = try writer.account(localID: pending.localID) else {
                try writer.deleteMFAPendingSignIn(hash: pendingHash)
                return .commitThenFail(WireError(.userNotFound))
            }
            guard !account.disabled else { throw WireError(.userDisabled) }
            guard takes.take(.mfaPerAccount, key: account.localID) else { throw Self.tooManyRequests }

            // Which factor is being used, and whether it (or this client) is locked.
            let enrollmentID: String
            switch attempt {
            case .phone(let sessionInfo, _):
                let session = try writer.verificationSession(hash: Identifiers.hash(sessionInfo))
                guard let session, let id = session.enrollmentID else {
                    throw WireError(.invalidSessionInfo, "The verification ID is invalid.")
                }
                enrollmentID = id
            case .totp(let id, _):
                enrollmentID = id
            }
            let factorKey = LimitKeys.factorFailures(localID: account.localID, enrollmentID: enrollmentID)
            try requireClientUnlocked(caller, ledger)
            if try ledger.lockedUntil(factorKey, limits.factorFailures) != nil { throw Self.factorLocked }

            let outcome: CodeCheck
            var usedIndex: Int?
            switch attempt {
            case .phone(let sessionInfo, let code):
                outcome = try checkPhoneCode(
                    sessionInfo: sessionInfo, code: code, purpose: .phoneSignIn, localID: account.localID,
                    pendingCredentialHash: pendingHash, writer: writer)
                usedIndex = account.mfaEnrollments.firstIndex { $0.enrollmentID == enrollmentID }
            case .totp(_, let code):
                guard let index = account.mfaEnrollments.firstIndex(where: { $0.enrollmentID == enrollmentID }),
                    account.mfaEnrollments[index].kind == .totp, let secret = account.mfaEnrollments[index].totpSecret
                else { throw WireError(.mfaEnrollmentNotFound) }
                outcome = checkTOTPCode(
                    code, secret: secret, enrollment: &account.mfaEnrollments[index], now: now,
                    window: policy.totpAdjacentIntervals)
                usedIndex = index
            }

            switch outcome {
            case .ended(let error):
                return try refuse(error, localID: account.localID, factor: attempt.factor, by: caller, writer)
            case .wrong(let error):
                try ledger.recordFailure(factorKey, limits.factorFailures, localID: account.localID)
                try recordClientFailure(caller, &ledger)
                guard !pending.countWrongCode(maximumAttempts: limits.pendingCredentialAttempts) else {
                    try writer.deleteMFAPendingSignIn(hash: pendingHash)
                    let ended = WireError(.tooManyAttemptsTryLater, "Too many wrong codes; sign in again.")
                    return try refuse(ended, localID: account.localID, factor: attempt.factor, by: caller, writer)
                }
                try writer.updateMFAPendingSignIn(pending)
                return try refuse(error, localID: account.localID, factor: attempt.factor, by: caller, writer)
            case .accepted:
                guard let usedIndex else { throw WireError(.mfaEnrollmentNotFound) }
                try ledger.reset(factorKey)
                try writer.deleteMFAPendingSignIn(hash: pendingHash)
                account.recordSignIn(atMillis: time.nowMillis)
                try writer.updateAccount(account)
                let used = account.mfaEnrollments[usedIndex]
                try audit.record(
                    .signIn, localID: account.localID, provider: used.kind.rawValue, by: caller,
                    detail: "first_factor=\(pending.signInProvider)", in: writer)
                let session = Session(
                    signInProvider: pending.signInProvider, authTime: now, secondFactor: used.kind.rawValue,
                    secondFactorIdentifier: used.enrollmentID)
                return .commit(
                    SignedIn(
                        account: account, session: session,
                        refreshToken: try tokens.newRefreshToken(for: account, session: session, writer: writer),
                        isNewUser: false))
            }
        }
        return MFATokensResponse(signedIn, try tokens.issue(signedIn))
    }

    /// A pending sign-in that exists and has not expired, with its account.
    func livePendingSignIn(_ credential: String) throws -> (MFAPendingSignIn, Account) {
        let hash = Identifiers.hash(credential)
        let found = try store.read { reader -> (MFAPendingSignIn, Account?)? in
            guard let pending = try reader.mfaPendingSignIn(hash: hash) else { return nil }
            return (pending, try reader.account(localID: pending.localID))
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

    /// The code a `mfaSignIn:finalize` request offers, checked for shape before any store access.
    enum SignInAttempt {
        case phone(sessionInfo: String, code: String)
        case totp(enrollmentID: String, code: String)

        init(_ request: FinalizeMFASignInRequest, policy: MFAPolicy) throws {
            if let verification = request.phoneVerificationInfo {
                try MFAService.requireFactor(.phone, policy)
                guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else {
                    throw WireError(.missingSessionInfo)
                }
                guard let code = verification.code, !code.isEmpty else { throw WireError(.missingCode) }
                self = .phone(sessionInfo: sessionInfo, code: code)
            } else if let verification = request.totpVerificationInfo {
                try MFAService.requireFactor(.totp, policy)
                guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
                    throw WireError(.missingMFAEnrollmentID)
                }
                guard let code = verification.verificationCode, !code.isEmpty else { throw WireError(.missingCode) }
                self = .totp(enrollmentID: enrollmentID, code: code)
            } else {
                throw WireError(.invalidArgument, "Send phoneVerificationInfo or totpVerificationInfo.")
            }
        }

        /// The kind of factor the code is for.
        var factor: MFAEnrollment.Kind {
            switch self {
            case .phone: .phone
            case .totp: .totp
            }
        }
    }
}
