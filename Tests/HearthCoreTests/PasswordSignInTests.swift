import Foundation
import HearthProtocol
import Synchronization
import Testing
@testable import HearthCore

@Suite("Email and password: sign-up, sign-in, enumeration protection, lockouts")
struct PasswordSignInTests {
    static let password = "correct horse"

    @discardableResult
    static func signUp(_ test: TestPlatform, _ email: String, displayName: String? = nil) throws -> SignUpResponse {
        try test.accounts.signUp(SignUpRequest(email: email, password: password, displayName: displayName), by: .user(client: nil))
    }

    static func signIn(_ test: TestPlatform, _ email: String, _ password: String = password, client: String? = "10.0.0.1")
        throws -> SignInWithPasswordResponse
    {
        try test.passwordAccounts.signIn(SignInWithPasswordRequest(email: email, password: password), by: .user(client: client))
    }

    @Test("signUp makes an account per email (lower-cased) with a hashed password and a password session")
    func signUp() throws {
        let test = try TestPlatform()
        let created = try Self.signUp(test, "Ada@Example.COM", displayName: "Ada")
        #expect(created.email == "ada@example.com" && created.displayName == "Ada")
        let claims = try test.claims(of: created.idToken)
        #expect(claims["firebase"]?["sign_in_provider"] == "password")
        #expect(claims["email"] == "ada@example.com" && claims["email_verified"] == .bool(false))
        let stored = try #require(try test.store.read { try $0.account(localID: created.localId) })
        #expect(stored.passwordHash?.hasPrefix("$test-v1$") == true && stored.passwordHash?.contains(Self.password) == false)
        #expect(!stored.isAnonymous)
        let record = try #require(try test.accounts.lookup(LookupRequest(idToken: created.idToken)).users?.first)
        #expect(record.passwordHash == "UkVEQUNURUQ=")
        #expect(record.providerUserInfo?.map(\.providerId) == ["password"])
        #expect(try test.tokens.refresh(RefreshTokenRequest(refreshToken: created.refreshToken), by: .user(client: nil)).idToken.isEmpty == false)
    }

    @Test("signUp refuses a taken email in any case, bad emails, missing fields, weak passwords and a client-sent localId")
    func signUpRefusals() throws {
        let test = try TestPlatform()
        try Self.signUp(test, "taken@example.com")
        let cases: [(SignUpRequest, ErrorCode)] = [
            (SignUpRequest(email: "TAKEN@example.com", password: Self.password), .emailExists),
            (SignUpRequest(email: "not-an-email", password: Self.password), .invalidEmail),
            (SignUpRequest(email: "new@example.com"), .missingPassword),
            (SignUpRequest(email: "new@example.com", password: ""), .missingPassword),
            (SignUpRequest(password: Self.password), .missingEmail),
            (SignUpRequest(email: "new@example.com", password: "short"), .weakPassword),
            (SignUpRequest(email: "new@example.com", password: Self.password, displayName: String(repeating: "n", count: 257)),
             .invalidDisplayName),
        ]
        for (request, code) in cases {
            #expect(wireErrorCode { _ = try test.accounts.signUp(request, by: .user(client: nil)) } == code, "\(request)")
        }
        var withUID = SignUpRequest(email: "new@example.com", password: Self.password)
        withUID.localId = "chosen"
        let error = try #require(wireError { _ = try test.accounts.signUp(withUID, by: .user(client: nil)) })
        #expect(error.code == .unexpectedParameter && error.message == "UNEXPECTED_PARAMETER : User ID")
        #expect(try test.store.read { try $0.accountCount() } == 1)
    }

    @Test("signInWithPassword: tokens and profile for the right password; a wrong one and an unknown email look alike")
    func signIn() throws {
        let test = try TestPlatform()
        let created = try Self.signUp(test, "ada@example.com", displayName: "Ada")
        test.time.advance(by: 30)
        let signedIn = try Self.signIn(test, "ADA@example.com")
        #expect(signedIn.kind == "identitytoolkit#VerifyPasswordResponse")
        #expect(signedIn.localId == created.localId && signedIn.registered == true && signedIn.displayName == "Ada")
        #expect(signedIn.expiresIn == "3600" && signedIn.refreshToken != nil && signedIn.mfaPendingCredential == nil)
        let claims = try test.claims(of: try #require(signedIn.idToken))
        #expect(claims["firebase"]?["sign_in_provider"] == "password" && claims["auth_time"] == .integer(test.time.nowSeconds))
        #expect(try test.store.read { try $0.account(localID: created.localId) }?.lastLoginAtMillis == test.time.nowMillis)

        let before = test.passwords.verifications
        let wrong = try #require(wireError { _ = try Self.signIn(test, "ada@example.com", "wrong password") })
        let unknown = try #require(wireError { _ = try Self.signIn(test, "nobody@example.com") })
        #expect(wrong == unknown && wrong.code == .invalidLoginCredentials)
        #expect(test.passwords.verifications == before + 2, "an unknown email spends a verification too")
        #expect(test.passwords.emptyVerifications == 1)

        // A Google account without a password answers as a wrong password does.
        _ = try test.signIn(subject: "g-1", email: "google@example.com")
        #expect(wireErrorCode { _ = try Self.signIn(test, "google@example.com") } == .invalidLoginCredentials)
        #expect(test.passwords.emptyVerifications == 2)

        for (email, password, code) in [("", Self.password, ErrorCode.invalidEmail), ("bad", Self.password, .invalidEmail),
                                        ("ada@example.com", "", .missingPassword)] {
            #expect(wireErrorCode { _ = try Self.signIn(test, email, password) } == code)
        }
    }

    @Test("without email enumeration protection: EMAIL_NOT_FOUND and INVALID_PASSWORD")
    func withoutProtection() throws {
        let test = try TestPlatform(emailEnumerationProtection: false)
        try Self.signUp(test, "ada@example.com")
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .invalidPassword)
        #expect(wireErrorCode { _ = try Self.signIn(test, "nobody@example.com") } == .emailNotFound)
    }

    @Test("a disabled account says USER_DISABLED only after the right password")
    func disabled() throws {
        let test = try TestPlatform()
        let created = try Self.signUp(test, "ada@example.com")
        var update = AdminUpdateAccountRequest(localId: created.localId)
        update.disableUser = true
        _ = try test.platform.admin.update(update, by: .system)
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .invalidLoginCredentials)
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .userDisabled)
    }

    @Test("a hash of other parameters is replaced at the next successful sign-in, in the same write")
    func rehash() throws {
        let test = try TestPlatform()
        let old = try TestPasswordHasher(version: 0).hashNewPassword(Self.password)
        try test.store.write {
            try $0.insertAccount(Account(
                localID: "old-user", email: "old@example.com", passwordHash: old, createdAtMillis: 0, validSinceMillis: 0))
        }
        #expect(wireErrorCode { _ = try Self.signIn(test, "old@example.com", "wrong password") } == .invalidLoginCredentials)
        #expect(try test.store.read { try $0.account(localID: "old-user") }?.passwordHash == old, "no rehash on failure")
        _ = try Self.signIn(test, "old@example.com")
        let rehashed = try #require(try test.store.read { try $0.account(localID: "old-user") }?.passwordHash)
        #expect(rehashed != old && rehashed.hasPrefix("$test-v1$"))
        _ = try Self.signIn(test, "old@example.com")
        #expect(try test.store.read { try $0.account(localID: "old-user") }?.passwordHash == rehashed)
    }

    @Test("an enrolled second factor answers mfaPendingCredential and masked factors, no tokens")
    func secondFactor() throws {
        let test = try TestPlatform(mfa: MFAPolicy(enabled: true, factors: [.phone, .totp]))
        let created = try Self.signUp(test, "ada@example.com")
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: created.localId))
            account.mfaEnrollments = [MFAEnrollment(
                enrollmentID: "phone-1", kind: .phone, enrolledAtMillis: 0, phoneNumber: "+15555551234")]
            try writer.updateAccount(account)
        }
        let pending = try Self.signIn(test, "ada@example.com")
        #expect(pending.idToken == nil && pending.refreshToken == nil && pending.registered == nil)
        #expect(pending.mfaPendingCredential?.isEmpty == false)
        #expect(pending.mfaInfo?.map(\.phoneInfo) == ["+*******1234"])
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .invalidLoginCredentials)
    }

    // MARK: - Lockouts

    static func lockouts(emailBurst: Int = 10, clientBurst: Int = 1_000) -> PasswordLockouts {
        var lockouts = PasswordLockouts()
        lockouts.perEmail = FailureLockout(burst: emailBurst, lockout: 60, maximumPerWindow: 100, window: 3_600)
        lockouts.perClient = FailureLockout(burst: clientBurst, lockout: 60, maximumPerWindow: 10_000, window: 3_600)
        return lockouts
    }

    @Test("ten wrong passwords lock the email for a minute (doubling), without checking passwords while locked")
    func emailLockout() throws {
        let events = Mutex<[SecurityEvent]>([])
        let test = try TestPlatform(passwordLockouts: Self.lockouts(), securityEvents: { event in events.withLock { $0.append(event) } })
        try Self.signUp(test, "ada@example.com")
        for _ in 0..<10 {
            #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .invalidLoginCredentials)
        }
        let checked = test.passwords.verifications
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .tooManyAttemptsTryLater)
        #expect(wireErrorCode { _ = try Self.signIn(test, "Ada@Example.com", client: "10.9.9.9") } == .tooManyAttemptsTryLater,
                "the email is locked from every client")
        #expect(test.passwords.verifications == checked, "a locked email checks no password")
        let logged = events.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.allSatisfy { !$0.logLine.contains("ada") && !$0.logLine.contains(Self.password) })

        test.time.advance(by: 61)
        _ = try Self.signIn(test, "ada@example.com")
        // The success forgot the email's failures: ten more are needed for the next lockout.
        for _ in 0..<9 { _ = wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } }
        _ = try Self.signIn(test, "ada@example.com")
    }

    @Test("an unknown email locks like a known one, so a lockout tells nothing about which emails exist")
    func unknownEmailLockout() throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts())
        for _ in 0..<10 { _ = wireErrorCode { _ = try Self.signIn(test, "nobody@example.com") } }
        #expect(wireErrorCode { _ = try Self.signIn(test, "nobody@example.com") } == .tooManyAttemptsTryLater)
    }

    @Test("50 parallel wrong passwords: exactly the burst is checked, the rest refused, then the right one is refused")
    func parallelGuesses() async throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts())
        try Self.signUp(test, "ada@example.com")
        let codes = await withTaskGroup(of: ErrorCode?.self) { group in
            for _ in 0..<50 {
                group.addTask { wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } }
            }
            return await group.reduce(into: [ErrorCode?]()) { $0.append($1) }
        }
        #expect(codes.filter { $0 == .invalidLoginCredentials }.count == 10)
        #expect(codes.filter { $0 == .tooManyAttemptsTryLater }.count == 40)
        #expect(test.passwords.verifications == 10)
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .tooManyAttemptsTryLater)
    }

    @Test("wrong passwords from one client across many emails lock that client, not others")
    func clientLockout() throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts(clientBurst: 5))
        try Self.signUp(test, "ada@example.com")
        for index in 0..<5 {
            #expect(wireErrorCode { _ = try Self.signIn(test, "guess\(index)@example.com", client: "10.6.6.6") } == .invalidLoginCredentials)
        }
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", client: "10.6.6.6") } == .tooManyAttemptsTryLater)
        _ = try Self.signIn(test, "ada@example.com", client: "10.7.7.7")
    }

    @Test("a success gives the client its attempt back: sign-ins never add up to a lockout")
    func successesAreNotFailures() throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts(clientBurst: 3))
        try Self.signUp(test, "ada@example.com")
        for _ in 0..<10 { _ = try Self.signIn(test, "ada@example.com") }
        let counter = try test.store.read { try $0.limitCounter(key: LimitKeys.passwordClientFailures("10.0.0.1")) }
        #expect(counter?.count == 0 && counter?.streak == 0)
    }

    @Test("a full hashing gate is answered before anything is counted or read: a flood costs the store nothing")
    func hasherFull() throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts(emailBurst: 3))
        try Self.signUp(test, "ada@example.com")
        test.passwords.busy.withLock { $0 = true }
        for _ in 0..<10 {
            #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .tooManyAttemptsTryLater)
        }
        #expect(try test.store.read { try $0.limitCounter(key: LimitKeys.passwordFailures(email: "ada@example.com")) } == nil)
        #expect(try test.store.read { try $0.limitCounter(key: LimitKeys.passwordClientFailures("10.0.0.1")) } == nil)
        test.passwords.busy.withLock { $0 = false }
        #expect(try Self.signIn(test, "ada@example.com").idToken != nil, "no guess was checked, so none counts")
    }

    @Test("an attempt the hasher refused unchecked after the gate filled still counts: a flood is no way round the lockout")
    func hasherBusy() throws {
        let test = try TestPlatform(passwordLockouts: Self.lockouts(emailBurst: 3))
        try Self.signUp(test, "ada@example.com")
        test.passwords.failure.withLock { $0 = WireError(.tooManyAttemptsTryLater) }
        for _ in 0..<3 {
            #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com", "wrong password") } == .tooManyAttemptsTryLater)
        }
        test.passwords.failure.withLock { $0 = nil }
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .tooManyAttemptsTryLater)
        #expect(test.passwords.verifications == 0)
    }
}

extension TestPlatform {
    var passwordAccounts: PasswordAccounts { platform.passwordAccounts }
}
