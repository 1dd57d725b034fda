import Foundation
import HearthCrypto
public import HearthProtocol

/// Second factors (PROTOCOL.md §6): enrolling and withdrawing phone and TOTP factors, and finishing a
/// sign-in that stopped after its first factor. Codes expire and are single use.
///
/// Guessing is bounded per account and factor and per client, not per pending credential or session
/// (DESIGN.md decision 13): every wrong code is counted in the transaction that refuses it (a
/// ``WriteOutcome/commitThenFail(_:)``), and ``Limits/factorFailures`` and ``Limits/clientFailures``
/// lock further attempts. SMS are limited per number, account, client and project.
public final class MFAService: Sendable {
    /// Limits, in one place.
    public struct Limits: Sendable {
        public var maximumFactors = 5
        public var pendingCredentialLifetime: Int64 = 600
        /// Wrong codes that end one pending credential.
        public var pendingCredentialAttempts = 5
        public var phoneCodeLifetime: Int64 = 300
        /// Wrong codes that end one verification session (an SMS code, a TOTP enrolment).
        public var phoneCodeAttempts = 3
        public var totpEnrollmentLifetime: Int64 = 600
        /// At most one SMS per number per `resendInterval` seconds while its code is unused, and
        /// `maximumSMSPerHour` an hour.
        public var resendInterval: Int64 = 30
        public var maximumSMSPerHour = 10
        /// Wrong sign-in codes for one factor of one account, across pending credentials: 5 in a row
        /// lock it for 15 minutes, doubling; 20 in a day lock it for the rest of the day.
        public var factorFailures = FailureLockout(burst: 5, lockout: 900, maximumPerWindow: 20, window: 86_400)
        /// Wrong codes (sign-in and enrolment) from one client address, across accounts.
        public var clientFailures = FailureLockout(burst: 20, lockout: 900, maximumPerWindow: 100, window: 86_400)
        /// SMS sent for one account, from one client address, and for the whole project.
        public var smsPerAccount = WindowQuota(limit: 10, window: 3_600)
        public var smsPerClient = WindowQuota(limit: 20, window: 3_600)
        public var smsPerProject = WindowQuota(limit: 1_000, window: 3_600)
        public init() {}
    }

    /// How long a verification session keeps counting against its number (`maximumSMSPerHour`), even once it
    /// has expired: `deleteExpiredMFAState` keeps those created within it.
    public static let smsThrottleWindowMillis: Int64 = 3_600_000

    let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    let time: any TimeSource
    let sms: any SMSSender
    let limits: Limits
    private let limiter: RateLimiter
    private let report: @Sendable (SecurityEvent) -> Void
    private let audit: AuditRecorder
    private let totp = TOTP()

    /// - Parameters:
    ///   - context: the project, store and clock; its rate limiter's `mfaPerAccount` bucket; its security events
    ///     receive lockouts and exhausted quotas once committed; its audit log records factors enrolled and
    ///     removed, second-factor sign-ins, wrong codes and lockouts.
    ///   - sms: delivers the codes of phone factors.
    public init(context: ServiceContext, tokens: TokenService, sms: any SMSSender, limits: Limits) {
        audit = context.auditRecorder
        project = context.project
        store = context.store
        self.tokens = tokens
        time = context.time
        self.sms = sms
        self.limits = limits
        limiter = context.rateLimiter
        report = context.securityEvents
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
            enrolled = try transaction(caller) { writer, ledger -> WriteOutcome<SignedIn> in
                try requireClientUnlocked(caller, ledger)
                let hash = Identifiers.hash(sessionInfo)
                guard var session = try writer.verificationSession(hash: hash), session.purpose == .totpEnrollment,
                    session.localID == localID, let secret = session.totpSecret
                else { throw WireError(.invalidSessionInfo) }
                guard session.expiresAt > now else {
                    try writer.deleteVerificationSession(hash: hash)
                    let expired = WireError(.sessionExpired, "The TOTP enrollment session has expired; start again.")
                    return try refuse(expired, localID: localID, factor: .totp, by: caller, writer)
                }
                guard let step = totp.matchingStep(code: code, secret: secret, at: now) else {
                    try recordClientFailure(caller, &ledger)
                    session.failedAttempts += 1
                    guard session.failedAttempts < limits.phoneCodeAttempts else {
                        try writer.deleteVerificationSession(hash: hash)
                        let ended = WireError(.tooManyAttemptsTryLater, "Too many wrong codes; start the enrollment again.")
                        return try refuse(ended, localID: localID, factor: .totp, by: caller, writer)
                    }
                    try writer.updateVerificationSession(session)
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
    private func enroll(
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

    // MARK: - Sign-in

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
        let attempt = try SignInAttempt(request, policy: project.mfa)
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
                outcome = checkTOTPCode(code, secret: secret, enrollment: &account.mfaEnrollments[index], now: now)
                usedIndex = index
            }

            switch outcome {
            case .ended(let error):
                return try refuse(error, localID: account.localID, factor: attempt.factor, by: caller, writer)
            case .wrong(let error):
                try ledger.recordFailure(factorKey, limits.factorFailures, localID: account.localID)
                try recordClientFailure(caller, &ledger)
                pending.failedAttempts += 1
                guard pending.failedAttempts < limits.pendingCredentialAttempts else {
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

    /// Whether an SMS verification session is still open (not used, not expired), for the development
    /// listing of sent codes.
    public func isOpenSession(sessionInfo: String) throws -> Bool {
        let session = try store.read { try $0.verificationSession(hash: Identifiers.hash(sessionInfo)) }
        guard let session, session.codeHash != nil || session.totpSecret != nil else { return false }
        return session.expiresAt > time.nowSeconds
    }

    // MARK: - Helpers

    static let tooManyRequests = WireError(.tooManyAttemptsTryLater, "Too many requests; try again later.")
    static let factorLocked = WireError(
        .tooManyAttemptsTryLater, "Too many wrong codes for this second factor; try again later.")
    static let clientLocked = WireError(.tooManyAttemptsTryLater, "Too many wrong codes; try again later.")

    /// The code a `mfaSignIn:finalize` request offers, checked for shape before any store access.
    private enum SignInAttempt {
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

    /// The result of checking a code inside a write body. `.wrong` and `.ended` carry the error to
    /// answer after committing (the attempt was counted, or the session spent).
    private enum CodeCheck {
        /// The code is right; for an SMS code, the session it used.
        case accepted(VerificationSession?)
        case wrong(WireError)
        case ended(WireError)
    }

    /// Runs `body` as one write transaction with a ``LimitLedger``; reports its events once committed, and records
    /// its lockouts (with the caller's address) in it.
    private func transaction<Value>(
        _ caller: Caller, _ body: (any StoreWriter, inout LimitLedger) throws -> WriteOutcome<Value>
    ) throws -> Value {
        try store.transaction(atMillis: time.nowMillis, report: report, audit: audit, caller: caller, body)
    }

    /// Records a wrong code (or an expired or spent session or pending sign-in) as `mfa_failed` in the write that
    /// counts it, and answers `error` once that write commits.
    private func refuse<Value>(
        _ error: WireError, localID: String, factor: MFAEnrollment.Kind, by caller: Caller, _ writer: any StoreWriter
    ) throws -> WriteOutcome<Value> {
        try audit.record(
            .mfaFailed, localID: localID, provider: factor.rawValue, by: caller,
            detail: AuditRecorder.detail(of: error.code), in: writer)
        return .commitThenFail(error)
    }

    private func recordEnrolment(_ enrollment: MFAEnrollment, localID: String, by caller: Caller, _ writer: any StoreWriter)
        throws
    {
        try audit.record(
            .factorEnrolled, localID: localID, provider: enrollment.kind.rawValue, by: caller,
            detail: AccountChanges.factorDetail(enrollment), in: writer)
    }

    private func takeAccountToken(_ localID: String) throws {
        guard limiter.take(.mfaPerAccount, key: localID) else { throw Self.tooManyRequests }
    }

    private func requireClientUnlocked(_ caller: Caller, _ ledger: LimitLedger) throws {
        guard let client = caller.client else { return }
        if try ledger.lockedUntil(LimitKeys.clientFailures(client), limits.clientFailures) != nil { throw Self.clientLocked }
    }

    private func recordClientFailure(_ caller: Caller, _ ledger: inout LimitLedger) throws {
        guard let client = caller.client else { return }
        try ledger.recordFailure(LimitKeys.clientFailures(client), limits.clientFailures)
    }

    /// The signed-in user, if they may enrol a factor: a recent sign-in, a supported first factor and a verified email.
    private func enrollmentEligibleUser(_ idToken: String?) throws -> AuthenticatedUser {
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

    private func requireFactor(_ factor: MFAPolicy.Factor) throws {
        try Self.requireFactor(factor, project.mfa)
    }

    private static func requireFactor(_ factor: MFAPolicy.Factor, _ policy: MFAPolicy) throws {
        guard policy.enabled, policy.factors.contains(factor) else {
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

    /// Creates a verification session with a fresh 6-digit code, then hands the code to the SMS sender.
    ///
    /// Refused, with nothing charged, while an unused code sent to the number is younger than
    /// `resendInterval`, when the number had `maximumSMSPerHour`, when the account, client or project
    /// quota is used up, or (sign-in) while the factor is locked. If the sender fails, the session is
    /// removed again; the quotas stay charged.
    private func sendCode(
        to number: String, purpose: VerificationSession.Purpose, localID: String, by caller: Caller,
        smsPurpose: SMSMessage.Purpose, pendingCredentialHash: String? = nil, enrollmentID: String? = nil
    ) throws -> String {
        let sessionInfo = Identifiers.secret(prefix: "sms.")
        let code = Self.sixDigitCode()
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
            let resendAfter = nowMillis - limits.resendInterval * 1000
            let waiting = lastHour.contains { $0.createdAtMillis >= resendAfter && $0.verifiedAtMillis == nil }
            guard !waiting, lastHour.count < limits.maximumSMSPerHour else {
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
    private func checkPhoneCode(
        sessionInfo: String, code: String, purpose: VerificationSession.Purpose, localID: String,
        pendingCredentialHash: String? = nil, writer: any StoreWriter
    ) throws -> CodeCheck {
        let hash = Identifiers.hash(sessionInfo)
        guard var session = try writer.verificationSession(hash: hash), session.purpose == purpose,
            session.localID == localID, session.pendingCredentialHash == pendingCredentialHash,
            let expected = session.codeHash
        else { throw WireError(.invalidSessionInfo, "The verification ID is invalid.") }
        guard session.expiresAt > time.nowSeconds else {
            try spend(&session, writer: writer)
            return .ended(WireError(.sessionExpired, "The SMS code has expired. Please re-send the verification code to try again."))
        }
        guard ConstantTime.equals(Array(Self.codeHash(code, sessionInfo: sessionInfo).utf8), Array(expected.utf8)) else {
            session.failedAttempts += 1
            if session.failedAttempts >= limits.phoneCodeAttempts {
                try spend(&session, writer: writer)
            } else {
                try writer.updateVerificationSession(session)
            }
            return .wrong(WireError(.invalidCode, "The SMS verification code is wrong."))
        }
        session.verifiedAtMillis = time.nowMillis
        let used = session
        try spend(&session, writer: writer)
        return .accepted(used)
    }

    /// Checks a TOTP code against an enrolled factor; a code is accepted at most once (its time step
    /// must be later than the last one used), and the accepted step is recorded in `enrollment`.
    private func checkTOTPCode(_ code: String, secret: [UInt8], enrollment: inout MFAEnrollment, now: Int64) -> CodeCheck {
        guard let step = totp.matchingStep(code: code, secret: secret, at: now) else {
            return .wrong(WireError(.invalidCode, "The verification code is wrong."))
        }
        guard step > (enrollment.lastUsedTOTPStep ?? Int64.min) else {
            return .wrong(WireError(.invalidCode, "This code was already used; wait for the next one."))
        }
        enrollment.lastUsedTOTPStep = step
        return .accepted(nil)
    }

    /// Ends a verification session but keeps its record (for SMS throttling) until it is purged.
    private func spend(_ session: inout VerificationSession, writer: any StoreWriter) throws {
        session.codeHash = nil
        session.totpSecret = nil
        session.expiresAt = 0
        try writer.updateVerificationSession(session)
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
}
