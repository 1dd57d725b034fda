import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Synchronization
import Testing

/// Limit counters, the explicit-commit write outcome, and every counter the second-factor code keeps,
/// proved on each `StoreKind`: a refused attempt is committed with the refusal, concurrent attempts
/// are all counted, and a fresh pending credential resets nothing.
@Suite("Store conformance: limits")
struct LimitConformanceTests {
    // MARK: Counters

    @Test("limit counters round-trip, replace, delete, and purge expired ones oldest first in batches",
          arguments: StoreKind.allCases)
    func counters(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let counter = LimitCounter(
                key: "mfa-failure:factor:uid-1:e1", windowStartMillis: 1_000, count: 3, streak: 2, lockouts: 1,
                lockedUntilMillis: 9_000, expiresAtMillis: 90_000)
            try store.write { try $0.saveLimitCounter(counter) }
            #expect(try store.read { try $0.limitCounter(key: counter.key) } == counter)
            var changed = counter
            changed.count = 4
            changed.lockedUntilMillis = 0
            try store.write { try $0.saveLimitCounter(changed) }
            #expect(try store.read { try $0.limitCounter(key: counter.key) } == changed)
            #expect(try store.write { try $0.deleteLimitCounter(key: counter.key) })
            #expect(try store.write { try $0.deleteLimitCounter(key: counter.key) } == false)
            #expect(try store.read { try $0.limitCounter(key: counter.key) } == nil)

            try store.write { writer in
                for index in 0..<5 {
                    try writer.saveLimitCounter(
                        LimitCounter(key: "k\(index)", windowStartMillis: 0, expiresAtMillis: Int64(100 + index)))
                }
            }
            #expect(try store.write { try $0.deleteExpiredLimitCounters(before: 103, limit: 2) } == 2)
            #expect(try store.read { try $0.limitCounter(key: "k0") } == nil)
            #expect(try store.read { try $0.limitCounter(key: "k2") } != nil)
            #expect(try store.write { try $0.deleteExpiredLimitCounters(before: 103, limit: 10) } == 1)
            #expect(try store.read { reader in try (0..<5).map { try reader.limitCounter(key: "k\($0)") != nil } }
                == [false, false, false, true, true])
        }
    }

    @Test("transaction: commitThenFail keeps the body's changes and throws; a throw rolls back",
          arguments: StoreKind.allCases)
    func explicitCommit(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let refused = WireError(.invalidCode)
            #expect(throws: refused) {
                try store.transaction { writer -> WriteOutcome<Int> in
                    try writer.saveLimitCounter(LimitCounter(key: "kept", windowStartMillis: 0, count: 1, expiresAtMillis: 1))
                    return .commitThenFail(refused)
                }
            }
            #expect(try store.read { try $0.limitCounter(key: "kept") }?.count == 1)
            #expect(throws: refused) {
                try store.transaction { writer -> WriteOutcome<Int> in
                    try writer.saveLimitCounter(LimitCounter(key: "dropped", windowStartMillis: 0, expiresAtMillis: 1))
                    throw refused
                }
            }
            #expect(try store.read { try $0.limitCounter(key: "dropped") } == nil)
            #expect(try store.transaction { _ in .commit(42) } == 42)
        }
    }

    @Test("concurrent read-modify-write of one counter loses no update", arguments: StoreKind.allCases)
    func concurrentIncrements(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let threads = 8
            let perThread = 25
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<perThread {
                    _ = try? store.transaction { writer -> WriteOutcome<Void> in
                        var counter = try writer.limitCounter(key: "shared")
                            ?? LimitCounter(key: "shared", windowStartMillis: 0, expiresAtMillis: 0)
                        counter.count += 1
                        try writer.saveLimitCounter(counter)
                        return .commitThenFail(WireError(.invalidCode))
                    }
                }
            }
            #expect(try store.read { try $0.limitCounter(key: "shared") }?.count == threads * perThread)
        }
    }

    // MARK: Second-factor counters

    @Test("wrong TOTP codes lock the factor across fresh pending credentials; the right code is then refused too",
          arguments: StoreKind.allCases)
    func factorLockoutAcrossPendingCredentials(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try MFAHarness(store: store)
            // Five wrong codes, each through a new pending credential (as replaying one Google token gives).
            for attempt in 0..<5 {
                let credential = try harness.newPendingCredential()
                expectWire(.invalidCode) { try harness.finalizeTOTP(credential, code: harness.wrongCode(attempt)) }
            }
            let key = "mfa-failure:factor:\(MFAHarness.localID):\(MFAHarness.totpEnrollmentID)"
            let counter = try #require(try store.read { try $0.limitCounter(key: key) })
            #expect(counter.count == 5)
            #expect(counter.lockedUntilMillis == harness.time.nowMillis + 900_000)
            let credential = try harness.newPendingCredential()
            expectWire(.tooManyAttemptsTryLater) { try harness.finalizeTOTP(credential, code: harness.rightCode()) }
            #expect(harness.lockouts == [key])

            // After the lockout, the right code works and resets the factor's count.
            harness.time.advance(by: 901)
            _ = try harness.finalizeTOTP(try harness.newPendingCredential(), code: harness.rightCode())
            #expect(try store.read { try $0.limitCounter(key: key) } == nil)
        }
    }

    @Test("concurrent wrong guesses through separate pending credentials are all counted and stop at the lock",
          arguments: StoreKind.allCases)
    func concurrentGuesses(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try MFAHarness(store: store)
            let credentials = try (0..<24).map { _ in try harness.newPendingCredential() }
            let outcomes = Mutex<[ErrorCode]>([])
            DispatchQueue.concurrentPerform(iterations: credentials.count) { index in
                do {
                    _ = try harness.finalizeTOTP(credentials[index], code: harness.wrongCode(index))
                } catch let error as WireError {
                    outcomes.withLock { $0.append(error.code) }
                } catch {
                    outcomes.withLock { $0.append(.internalError) }
                }
            }
            let codes = outcomes.withLock { $0 }
            #expect(codes.filter { $0 == .invalidCode }.count == 5)
            #expect(codes.filter { $0 == .tooManyAttemptsTryLater }.count == credentials.count - 5)
        }
    }

    @Test("wrong codes from one client lock that client across accounts", arguments: StoreKind.allCases)
    func clientLockout(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var limits = MFAService.Limits()
            limits.clientFailures = FailureLockout(burst: 3, lockout: 600, maximumPerWindow: 10, window: 86_400)
            let harness = try MFAHarness(store: store, limits: limits)
            for attempt in 0..<3 {
                let credential = try harness.newPendingCredential(localID: "other-\(attempt)")
                expectWire(.invalidCode) {
                    try harness.finalizeTOTP(credential, code: harness.wrongCode(attempt))
                }
            }
            // The victim's factor has no failures, but this client is locked.
            let credential = try harness.newPendingCredential()
            expectWire(.tooManyAttemptsTryLater) { try harness.finalizeTOTP(credential, code: harness.rightCode()) }
            // Another client is not.
            _ = try harness.finalizeTOTP(credential, code: harness.rightCode(), client: "203.0.113.9")
        }
    }

    @Test("TOTP enrolment: three wrong codes end the session, and the right code no longer enrols",
          arguments: StoreKind.allCases)
    func totpEnrollmentAttempts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try MFAHarness(store: store, enrolled: false)
            let start = try harness.mfa.startEnrollment(
                StartMFAEnrollmentRequest(idToken: harness.idToken(), totpEnrollmentInfo: EmptyObject()), by: .user(client: nil))
            let info = try #require(start.totpSessionInfo)
            let secret = try #require(Base32.decode(info.sharedSecretKey))
            func finalize(_ code: String) throws {
                _ = try harness.mfa.finalizeEnrollment(
                    FinalizeMFAEnrollmentRequest(
                        idToken: harness.idToken(), displayName: nil,
                        totpVerificationInfo: TOTPVerificationInfo(sessionInfo: info.sessionInfo, verificationCode: code)),
                    by: .user(client: MFAHarness.client))
            }
            let right = harness.totp.code(secret: secret, step: harness.totp.step(at: harness.time.nowSeconds))
            let wrong = right == "000000" ? "111111" : "000000"
            expectWire(.invalidCode) { try finalize(wrong) }
            expectWire(.invalidCode) { try finalize(wrong) }
            expectWire(.tooManyAttemptsTryLater) { try finalize(wrong) }
            expectWire(.invalidSessionInfo) { try finalize(right) }
            #expect(try store.read { try $0.account(localID: MFAHarness.localID) }?.mfaEnrollments.isEmpty == true)
        }
    }

    @Test("an SMS code used successfully does not hold back the next code to its number", arguments: StoreKind.allCases)
    func resendAfterSuccess(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try MFAHarness(store: store, enrolled: false)
            let number = "+15555550142"
            let start = try harness.mfa.startEnrollment(
                StartMFAEnrollmentRequest(idToken: harness.idToken(), phoneEnrollmentInfo: .init(phoneNumber: number)), by: .user(client: nil))
            let sessionInfo = try #require(start.phoneSessionInfo?.sessionInfo)
            let enrolled = try harness.mfa.finalizeEnrollment(
                FinalizeMFAEnrollmentRequest(
                    idToken: harness.idToken(), displayName: nil,
                    phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: harness.sms.last?.code)), by: .user(client: nil))
            #expect(!enrolled.idToken.isEmpty)
            let account = try #require(try store.read { try $0.account(localID: MFAHarness.localID) })
            let enrollmentID = try #require(account.mfaEnrollments.first?.enrollmentID)
            // Right away, a sign-in sends a new code to the same number.
            let credential = try harness.newPendingCredential()
            _ = try harness.mfa.startSignIn(
                StartMFASignInRequest(mfaPendingCredential: credential, mfaEnrollmentId: enrollmentID, phoneSignInInfo: nil),
                by: .user(client: MFAHarness.client))
            #expect(harness.sms.count == 2)
            // An unused code still does.
            expectWire(.tooManyAttemptsTryLater) {
                try harness.mfa.startSignIn(
                    StartMFASignInRequest(mfaPendingCredential: credential, mfaEnrollmentId: enrollmentID, phoneSignInInfo: nil),
                    by: .user(client: MFAHarness.client))
            }
        }
    }

    @Test("SMS quotas per account, client and project are kept in the store", arguments: StoreKind.allCases)
    func smsQuotas(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var limits = MFAService.Limits()
            limits.smsPerAccount = WindowQuota(limit: 3, window: 3_600)
            let harness = try MFAHarness(store: store, limits: limits, enrolled: false)
            for index in 0..<3 {
                _ = try harness.mfa.startEnrollment(
                    StartMFAEnrollmentRequest(
                        idToken: harness.idToken(), phoneEnrollmentInfo: .init(phoneNumber: "+1555555020\(index)")),
                    by: .user(client: MFAHarness.client))
            }
            expectWire(.tooManyAttemptsTryLater) {
                try harness.mfa.startEnrollment(
                    StartMFAEnrollmentRequest(idToken: harness.idToken(), phoneEnrollmentInfo: .init(phoneNumber: "+15555550299")),
                    by: .user(client: MFAHarness.client))
            }
            #expect(harness.sms.count == 3)
            #expect(try store.read { try $0.limitCounter(key: "sms:account:\(MFAHarness.localID)") }?.count == 3)
            #expect(try store.read { try $0.limitCounter(key: "sms:client:\(MFAHarness.client)") }?.count == 3)
            #expect(try store.read { try $0.limitCounter(key: "sms:project") }?.count == 3)
            #expect(harness.quotaEvents == ["sms:account:\(MFAHarness.localID)"])
        }
    }

    @Test("a lockout survives reopening the store", arguments: StoreKind.persistentCases)
    func lockoutPersists(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let time = ManualTimeSource()
        do {
            let store = try kind.open(directory.path)
            defer { store.close() }
            let harness = try MFAHarness(store: store, time: time)
            for attempt in 0..<5 {
                let credential = try harness.newPendingCredential()
                expectWire(.invalidCode) { try harness.finalizeTOTP(credential, code: harness.wrongCode(attempt)) }
            }
        }
        let store = try kind.open(directory.path)
        defer { store.close() }
        let harness = try MFAHarness(store: store, time: time, createAccount: false)
        let credential = try harness.newPendingCredential()
        expectWire(.tooManyAttemptsTryLater) { try harness.finalizeTOTP(credential, code: harness.rightCode()) }
    }
}

/// An `IdentityPlatform` over a store under test, with an account that has a TOTP factor of a known
/// secret, pending credentials made directly in the store, and captured SMS and security events.
final class MFAHarness: Sendable {
    static let localID = "mfa-user"
    static let totpEnrollmentID = "totp-factor"
    static let client = "198.51.100.7"
    static let secret: [UInt8] = Array("12345678901234567890".utf8)

    let store: any HearthStore
    let time: ManualTimeSource
    let platform: IdentityPlatform
    let sms = CountingSMSSender()
    let totp = TOTP()
    private let events = EventLog()

    var mfa: MFAService { platform.mfa }
    var lockouts: [String] {
        events.all.compactMap { if case .lockout(let key, _) = $0 { key } else { nil } }
    }
    var quotaEvents: [String] {
        events.all.compactMap { if case .quotaExhausted(let key) = $0 { key } else { nil } }
    }

    init(
        store: any HearthStore, time: ManualTimeSource = ManualTimeSource(), limits: MFAService.Limits = .init(),
        enrolled: Bool = true, createAccount: Bool = true
    ) throws {
        self.store = store
        self.time = time
        let project = ProjectConfiguration(
            projectID: "limits-test", issuer: "http://hearth.test/limits-test", apiKeys: .anyNonEmpty,
            googleClientIDs: [], mfa: .allFactors)
        let events = self.events
        var configuration = IdentityPlatform.Configuration(
            project: project, passwords: try Argon2PasswordHasher(parameters: Argon2Parameters(memoryKiB: 1_024, iterations: 1)))
        configuration.smsSender = sms
        configuration.mfaLimits = limits
        configuration.securityEvents = events.append
        platform = try IdentityPlatform(configuration, store: store, time: time)
        guard createAccount else { return }
        let factor = MFAEnrollment(
            enrollmentID: Self.totpEnrollmentID, kind: .totp, enrolledAtMillis: time.nowMillis, totpSecret: Self.secret)
        try store.write { writer in
            try writer.insertAccount(
                Account(
                    localID: Self.localID, email: "mfa-user@example.com", emailVerified: true,
                    createdAtMillis: time.nowMillis, validSinceMillis: time.nowMillis - 1_000,
                    providers: [LinkedIdentity(providerID: "google.com", rawID: "g-1")],
                    mfaEnrollments: enrolled ? [factor] : []))
        }
    }

    /// A pending sign-in for `localID` (creating a bare account for ids other than the harness's),
    /// stored as `signInWithIdp` stores one.
    func newPendingCredential(localID: String = MFAHarness.localID) throws -> String {
        let credential = "mfa." + UUID().uuidString
        let hash = SHA256.hash(credential).map { String(format: "%02x", $0) }.joined()
        try store.write { writer in
            if try writer.account(localID: localID) == nil {
                let factor = MFAEnrollment(
                    enrollmentID: "factor-\(localID)", kind: .totp, enrolledAtMillis: 0, totpSecret: Self.secret)
                try writer.insertAccount(
                    Account(localID: localID, createdAtMillis: 0, validSinceMillis: 0, mfaEnrollments: [factor]))
            }
            try writer.insertMFAPendingSignIn(
                MFAPendingSignIn(
                    credentialHash: hash, localID: localID, signInProvider: "google.com",
                    expiresAt: time.nowSeconds + 600, createdAtMillis: time.nowMillis))
        }
        return credential
    }

    func idToken() throws -> String {
        let account = try #require(try store.read { try $0.account(localID: Self.localID) })
        return try platform.tokens.mintIDToken(
            for: account, session: Session(signInProvider: "google.com", authTime: time.nowSeconds))
    }

    func rightCode() -> String { totp.code(secret: Self.secret, step: totp.step(at: time.nowSeconds)) }

    /// A code that is not accepted now (none of the three steps the window allows), different per `index`.
    func wrongCode(_ index: Int) -> String {
        let step = totp.step(at: time.nowSeconds)
        let accepted = Set((step - 1...step + 1).map { totp.code(secret: Self.secret, step: $0) })
        var value = 100_000 + index * 7_919
        while accepted.contains(String(value)) { value += 1 }
        return String(value)
    }

    /// `mfaSignIn:finalize` with a TOTP code for the factor of the pending credential's account.
    func finalizeTOTP(_ credential: String, code: String, client: String = MFAHarness.client) throws -> MFATokensResponse {
        let hash = SHA256.hash(credential).map { String(format: "%02x", $0) }.joined()
        let localID = try store.read { try $0.mfaPendingSignIn(hash: hash) }?.localID ?? Self.localID
        let enrollmentID = localID == Self.localID ? Self.totpEnrollmentID : "factor-\(localID)"
        return try mfa.finalizeSignIn(
            FinalizeMFASignInRequest(
                mfaPendingCredential: credential, mfaEnrollmentId: enrollmentID,
                totpVerificationInfo: TOTPVerificationInfo(verificationCode: code)),
            by: .user(client: client))
    }
}

/// Expects `body` to throw a `WireError` with `code` (whatever its message).
func expectWire(_ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any) {
    do {
        _ = try body()
        Issue.record("expected \(code.rawValue), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as WireError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}

/// The security events a platform reported.
final class EventLog: Sendable {
    private let events = Mutex<[SecurityEvent]>([])
    var all: [SecurityEvent] { events.withLock { $0 } }
    @Sendable func append(_ event: SecurityEvent) { events.withLock { $0.append(event) } }
}

/// Counts SMS and keeps the last code.
final class CountingSMSSender: SMSSender {
    private let sent = Mutex<[SMSMessage]>([])
    var count: Int { sent.withLock { $0.count } }
    var last: SMSMessage? { sent.withLock { $0.last } }
    func send(_ message: SMSMessage) throws { sent.withLock { $0.append(message) } }
}
