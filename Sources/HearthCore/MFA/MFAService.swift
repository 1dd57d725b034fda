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
    let limiter: RateLimiter
    let report: @Sendable (SecurityEvent) -> Void
    let audit: AuditRecorder
    let totp = TOTP()
    /// The scope's configuration: the MFA policy in force, the SMS region policy and the test phone numbers
    /// (cached; ``IdentityPlatform/configSettings()``). Nil: the project's configured policy, every region, no test
    /// numbers.
    let scopeSettings: ScopeSettings?

    /// - Parameters:
    ///   - context: the project, store and clock; its rate limiter's `mfaPerAccount` bucket; its security events
    ///     receive lockouts and exhausted quotas once committed; its audit log records factors enrolled and
    ///     removed, second-factor sign-ins, wrong codes and lockouts.
    ///   - sms: delivers the codes of phone factors.
    ///   - scopeSettings: the scope's configuration, read at each call (the MFA policy through the transaction's
    ///     reader when there is one); without it the project's configured policy, every region, no test numbers.
    public init(
        context: ServiceContext, tokens: TokenService, sms: any SMSSender, limits: Limits,
        scopeSettings: ScopeSettings? = nil
    ) {
        self.scopeSettings = scopeSettings
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
    func requiredFactors(of account: Account, in reader: any StoreReader) -> [MFAEnrollment] {
        let policy = policy(reading: reader)
        guard policy.enabled else { return [] }
        return account.mfaEnrollments.filter { policy.factors.contains($0.factor) }
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
        return (credential, requiredFactors(of: account, in: writer).map { $0.wireInfo(masked: true) })
    }

    /// Whether an SMS verification session is still open (not used, not expired), for the development
    /// listing of sent codes.
    public func isOpenSession(sessionInfo: String) throws -> Bool {
        let session = try store.read { try $0.verificationSession(hash: Identifiers.hash(sessionInfo)) }
        return session?.isOpen(atSeconds: time.nowSeconds) ?? false
    }

    // MARK: - Helpers

    /// The policy in force, read outside any transaction.
    func policy() -> MFAPolicy { policy(reading: nil) }

    /// The policy in force, read through `reader` inside a transaction (a second transaction could wait on the
    /// first); the project's configured one when the configuration cannot be read.
    func policy(reading reader: (any StoreReader)?) -> MFAPolicy {
        guard let scopeSettings else { return project.mfa }
        let current = try? reader.map(scopeSettings.current(reading:)) ?? scopeSettings.current()
        return current?.mfa ?? project.mfa
    }

    static let tooManyRequests = WireError(.tooManyAttemptsTryLater, "Too many requests; try again later.")
    static let factorLocked = WireError(
        .tooManyAttemptsTryLater, "Too many wrong codes for this second factor; try again later.")
    static let clientLocked = WireError(.tooManyAttemptsTryLater, "Too many wrong codes; try again later.")

    /// Runs `body` as one write transaction with a ``LimitLedger``; reports its events once committed, and records
    /// its lockouts (with the caller's address) in it.
    func transaction<Value>(
        _ caller: Caller, _ body: (any StoreWriter, inout LimitLedger) throws -> WriteOutcome<Value>
    ) throws -> Value {
        try store.transaction(atMillis: time.nowMillis, report: report, audit: audit, caller: caller, body)
    }

    /// Records a wrong code (or an expired or spent session or pending sign-in) as `mfa_failed` in the write that
    /// counts it, and answers `error` once that write commits.
    func refuse<Value>(
        _ error: WireError, localID: String, factor: MFAEnrollment.Kind, by caller: Caller, _ writer: any StoreWriter
    ) throws -> WriteOutcome<Value> {
        try audit.record(
            .mfaFailed, localID: localID, provider: factor.rawValue, by: caller,
            detail: AuditRecorder.detail(of: error.code), in: writer)
        return .commitThenFail(error)
    }

    func recordEnrolment(_ enrollment: MFAEnrollment, localID: String, by caller: Caller, _ writer: any StoreWriter)
        throws
    {
        try audit.record(
            .factorEnrolled, localID: localID, provider: enrollment.kind.rawValue, by: caller,
            detail: AccountChanges.factorDetail(enrollment), in: writer)
    }

    func takeAccountToken(_ localID: String) throws {
        guard limiter.take(.mfaPerAccount, key: localID) else { throw Self.tooManyRequests }
    }

    func requireClientUnlocked(_ caller: Caller, _ ledger: LimitLedger) throws {
        guard let client = caller.client else { return }
        if try ledger.lockedUntil(LimitKeys.clientFailures(client), limits.clientFailures) != nil { throw Self.clientLocked }
    }

    func recordClientFailure(_ caller: Caller, _ ledger: inout LimitLedger) throws {
        guard let client = caller.client else { return }
        try ledger.recordFailure(LimitKeys.clientFailures(client), limits.clientFailures)
    }

    func requireFactor(_ factor: MFAPolicy.Factor) throws {
        try Self.requireFactor(factor, policy())
    }

    static func requireFactor(_ factor: MFAPolicy.Factor, _ policy: MFAPolicy) throws {
        guard policy.enabled, policy.factors.contains(factor) else {
            let name = factor == .phone ? "SMS based MFA" : "TOTP based MFA"
            throw WireError(.operationNotAllowed, "\(name) not enabled.")
        }
    }

    func requireSessionAndCode(_ sessionInfo: String?, _ code: String?) throws -> (String, String) {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw WireError(.missingSessionInfo) }
        guard let code, !code.isEmpty else { throw WireError(.missingCode) }
        return (sessionInfo, code)
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
