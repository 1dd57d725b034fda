import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Multi-factor enrolment and sign-in")
struct MFAFlowTests {
    /// A platform with both factors enabled and a signed-in Google user with a verified email.
    final class Fixture {
        let test: TestPlatform
        let signIn: SignInWithIdpResponse
        /// The user's current ID token: an enrolment ends the other sessions, so each one's tokens replace it.
        private(set) var idToken: String

        convenience init(subject: String = "mfa-user", emailVerified: Bool = true) throws {
            try self.init(TestPlatform(mfa: .allFactors), subject: subject, emailVerified: emailVerified)
        }

        /// The fixture on `test` (whose policy must allow both factors).
        init(_ test: TestPlatform, subject: String = "mfa-user", emailVerified: Bool = true) throws {
            self.test = test
            signIn = try test.signIn(subject: subject, email: "\(subject)@example.com", emailVerified: emailVerified)
            idToken = try #require(signIn.idToken)
        }

        /// Signs the user in again (a recent sign-in, as enrolling needs), making its token the current one.
        func renewSignIn() throws {
            let again = try signInAgain()
            idToken = try #require(again.idToken)
        }

        var mfa: MFAService { test.platform.mfa }

        func totpCode(_ secret: String, offset: Int64 = 0) -> String {
            let totp = TOTP()
            return totp.code(secret: Base32.decode(secret)!, step: totp.step(at: test.time.nowSeconds) + offset)
        }

        /// Enrols a TOTP factor; returns the secret and the enrolment's tokens.
        func enrollTOTP(displayName: String = "Authenticator") throws -> (secret: String, tokens: MFATokensResponse) {
            let start = try mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: idToken, totpEnrollmentInfo: EmptyObject()), by: .user(client: nil))
            let info = try #require(start.totpSessionInfo)
            let tokens = try mfa.finalizeEnrollment(
                FinalizeMFAEnrollmentRequest(
                    idToken: idToken, displayName: displayName,
                    totpVerificationInfo: TOTPVerificationInfo(sessionInfo: info.sessionInfo, verificationCode: totpCode(info.sharedSecretKey))), by: .user(client: nil))
            idToken = tokens.idToken
            return (info.sharedSecretKey, tokens)
        }

        func enrollPhone(_ number: String = "+15555550100") throws -> MFATokensResponse {
            let start = try mfa.startEnrollment(
                StartMFAEnrollmentRequest(idToken: idToken, phoneEnrollmentInfo: .init(phoneNumber: number)), by: .user(client: nil))
            let sessionInfo = try #require(start.phoneSessionInfo?.sessionInfo)
            let code = try #require(test.sms.last?.code)
            let tokens = try mfa.finalizeEnrollment(
                FinalizeMFAEnrollmentRequest(
                    idToken: idToken, displayName: "Phone", phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: code)), by: .user(client: nil))
            idToken = tokens.idToken
            return tokens
        }

        func signInAgain(subject: String = "mfa-user") throws -> SignInWithIdpResponse {
            try test.signIn(subject: subject, email: "\(subject)@example.com")
        }
    }

    @Test("TOTP: enrol, then sign-in stops for the second factor and finishes with its claims, kept on refresh")
    func totpEndToEnd() throws {
        let fixture = try Fixture()
        let (secret, enrolled) = try fixture.enrollTOTP()
        #expect(enrolled.totpAuthInfo != nil)
        let enrolledClaims = try fixture.test.claims(of: enrolled.idToken)
        #expect(enrolledClaims["firebase"]?["sign_in_second_factor"] == "totp")

        let lookup = try fixture.test.accounts.lookup(LookupRequest(idToken: enrolled.idToken))
        let factor = try #require(lookup.users?.first?.mfaInfo?.first)
        #expect(factor.totpInfo != nil && factor.phoneInfo == nil && factor.displayName == "Authenticator")

        let stopped = try fixture.signInAgain()
        #expect(stopped.idToken == nil && stopped.refreshToken == nil)
        let pending = try #require(stopped.mfaPendingCredential)
        #expect(stopped.mfaInfo?.first?.mfaEnrollmentId == factor.mfaEnrollmentId)

        fixture.test.time.advance(by: 30)
        let finished = try fixture.mfa.finalizeSignIn(
            FinalizeMFASignInRequest(
                mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId,
                totpVerificationInfo: TOTPVerificationInfo(verificationCode: fixture.totpCode(secret))), by: .user(client: nil))
        let claims = try fixture.test.claims(of: finished.idToken)
        let firebase = try #require(claims["firebase"]?.objectValue)
        #expect(firebase["sign_in_provider"] == "google.com")
        #expect(firebase["sign_in_second_factor"] == "totp")
        #expect(firebase["second_factor_identifier"] == .string(factor.mfaEnrollmentId))

        fixture.test.time.advance(by: 600)
        let refreshed = try fixture.test.tokens.refresh(RefreshTokenRequest(refreshToken: finished.refreshToken), by: .user(client: nil))
        #expect(try fixture.test.claims(of: refreshed.idToken)["firebase"]?["sign_in_second_factor"] == "totp")
        // The pending credential was single use.
        #expect(wireErrorCode {
            _ = try fixture.mfa.finalizeSignIn(
                FinalizeMFASignInRequest(
                    mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId,
                    totpVerificationInfo: TOTPVerificationInfo(verificationCode: fixture.totpCode(secret))), by: .user(client: nil))
        } == .invalidMFAPendingCredential)
    }

    @Test("TOTP: a code is accepted at most once per factor (replay refused)")
    func totpReplay() throws {
        let fixture = try Fixture()
        let (secret, _) = try fixture.enrollTOTP()
        let enrollmentID = try #require(fixture.signInAgain().mfaInfo?.first?.mfaEnrollmentId)
        fixture.test.time.advance(by: 30)
        let code = fixture.totpCode(secret)
        let first = try #require(fixture.signInAgain().mfaPendingCredential)
        _ = try fixture.mfa.finalizeSignIn(
            FinalizeMFASignInRequest(mfaPendingCredential: first, mfaEnrollmentId: enrollmentID, totpVerificationInfo: .init(verificationCode: code)), by: .user(client: nil))
        let second = try #require(fixture.signInAgain().mfaPendingCredential)
        #expect(wireErrorCode {
            _ = try fixture.mfa.finalizeSignIn(
                FinalizeMFASignInRequest(mfaPendingCredential: second, mfaEnrollmentId: enrollmentID, totpVerificationInfo: .init(verificationCode: code)), by: .user(client: nil))
        } == .invalidCode)
        // The code used at enrolment cannot sign in either: only a later step works.
        fixture.test.time.advance(by: 30)
        _ = try fixture.mfa.finalizeSignIn(
            FinalizeMFASignInRequest(mfaPendingCredential: second, mfaEnrollmentId: enrollmentID, totpVerificationInfo: .init(verificationCode: fixture.totpCode(secret))), by: .user(client: nil))
    }

    @Test("five wrong codes end the pending credential; it also expires after 10 minutes")
    func pendingCredentialLimits() throws {
        let fixture = try Fixture()
        let (secret, _) = try fixture.enrollTOTP()
        let stopped = try fixture.signInAgain()
        let pending = try #require(stopped.mfaPendingCredential)
        let enrollmentID = try #require(stopped.mfaInfo?.first?.mfaEnrollmentId)
        let wrong = fixture.totpCode(secret) == "000000" ? "111111" : "000000"
        func attempt(_ code: String, _ credential: String) -> ErrorCode? {
            wireErrorCode {
                _ = try fixture.mfa.finalizeSignIn(
                    FinalizeMFASignInRequest(mfaPendingCredential: credential, mfaEnrollmentId: enrollmentID, totpVerificationInfo: .init(verificationCode: code)), by: .user(client: nil))
            }
        }
        for _ in 0..<4 { #expect(attempt(wrong, pending) == .invalidCode) }
        #expect(attempt(wrong, pending) == .tooManyAttemptsTryLater)
        fixture.test.time.advance(by: 30)
        #expect(attempt(fixture.totpCode(secret), pending) == .invalidMFAPendingCredential)

        let later = try #require(fixture.signInAgain().mfaPendingCredential)
        fixture.test.time.advance(by: 601)
        #expect(attempt(fixture.totpCode(secret), later) == .invalidMFAPendingCredential)
    }

    @Test("phone: enrol with an SMS code, sign in with another, masked number before the second factor")
    func phoneEndToEnd() throws {
        let fixture = try Fixture()
        let enrolled = try fixture.enrollPhone("+15555550100")
        #expect(try fixture.test.claims(of: enrolled.idToken)["firebase"]?["sign_in_second_factor"] == "phone")
        #expect(fixture.test.sms.last?.purpose == .enrollment)
        #expect(fixture.test.sms.last?.text.contains(fixture.test.sms.last!.code) == true)

        let stopped = try fixture.signInAgain()
        let hint = try #require(stopped.mfaInfo?.first)
        #expect(hint.phoneInfo == "+*******0100")
        let pending = try #require(stopped.mfaPendingCredential)
        fixture.test.time.advance(by: 31)
        let start = try fixture.mfa.startSignIn(
            StartMFASignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: hint.mfaEnrollmentId, phoneSignInInfo: .init(phoneNumber: hint.phoneInfo)), by: .user(client: nil))
        let message = try #require(fixture.test.sms.last)
        #expect(message.phoneNumber == "+15555550100" && message.purpose == .signIn)
        let finished = try fixture.mfa.finalizeSignIn(
            FinalizeMFASignInRequest(
                mfaPendingCredential: pending,
                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: start.phoneResponseInfo.sessionInfo, code: message.code)), by: .user(client: nil))
        let firebase = try #require(try fixture.test.claims(of: finished.idToken)["firebase"]?.objectValue)
        #expect(firebase["sign_in_second_factor"] == "phone")
        #expect(firebase["second_factor_identifier"] == .string(hint.mfaEnrollmentId))
    }

    @Test("phone codes: wrong (3 tries), expired after 5 minutes, single use, resend throttled")
    func phoneCodes() throws {
        let fixture = try Fixture()
        let start = try fixture.mfa.startEnrollment(
            StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550111")), by: .user(client: nil))
        let sessionInfo = try #require(start.phoneSessionInfo?.sessionInfo)
        let code = try #require(fixture.test.sms.last?.code)
        let wrong = code == "000000" ? "111111" : "000000"
        var idToken = fixture.idToken
        /// Finalizes as the user; a success ends the other sessions, so the next try uses its token.
        func finalize(_ code: String, _ session: String) -> ErrorCode? {
            wireErrorCode {
                idToken = try fixture.mfa.finalizeEnrollment(
                    FinalizeMFAEnrollmentRequest(idToken: idToken, displayName: nil, phoneVerificationInfo: .init(sessionInfo: session, code: code)), by: .user(client: nil)
                ).idToken
            }
        }
        #expect(finalize(wrong, sessionInfo) == .invalidCode)
        #expect(finalize(wrong, sessionInfo) == .invalidCode)
        #expect(finalize(wrong, sessionInfo) == .invalidCode)
        #expect(finalize(code, sessionInfo) == .invalidSessionInfo, "three wrong codes end the session")

        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550111")), by: .user(client: nil))
        } == .tooManyAttemptsTryLater, "a second code within 30 s is refused")

        fixture.test.time.advance(by: 31)
        let again = try fixture.mfa.startEnrollment(
            StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550111")), by: .user(client: nil))
        let againSession = try #require(again.phoneSessionInfo?.sessionInfo)
        let againCode = try #require(fixture.test.sms.last?.code)
        fixture.test.time.advance(by: 301)
        try fixture.renewSignIn()
        idToken = fixture.idToken
        #expect(finalize(againCode, againSession) == .sessionExpired)

        fixture.test.time.advance(by: 31)
        let third = try fixture.mfa.startEnrollment(
            StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550111")), by: .user(client: nil))
        let thirdSession = try #require(third.phoneSessionInfo?.sessionInfo)
        let thirdCode = try #require(fixture.test.sms.last?.code)
        #expect(finalize(thirdCode, thirdSession) == nil)
        #expect(finalize(thirdCode, thirdSession) == .invalidSessionInfo, "a code is single use")
    }

    @Test("deleting the account and signing in again (a new account) does not reset a number's SMS throttle")
    func throttleSurvivesAccountDeletion() throws {
        let fixture = try Fixture()
        let number = "+15555550133"
        _ = try fixture.mfa.startEnrollment(
            StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: number)), by: .user(client: nil))
        #expect(fixture.test.sms.messages.map(\.phoneNumber) == [number])

        let oldLocalID = try #require(fixture.signIn.localId)
        _ = try fixture.test.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(oldLocalID)])), by: .commandLine)
        let again = try fixture.signInAgain()
        #expect(again.localId != oldLocalID, "a new account")
        let idToken = try #require(again.idToken)
        fixture.test.time.advance(by: 29)
        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(
                StartMFAEnrollmentRequest(idToken: idToken, phoneEnrollmentInfo: .init(phoneNumber: number)), by: .user(client: nil))
        } == .tooManyAttemptsTryLater)
        #expect(fixture.test.sms.messages.count == 1, "no second SMS")
    }

    @Test("enrolment rules: verified email, supported first factor, E.164, no duplicate number, at most 5 factors, factor enabled")
    func enrollmentRules() throws {
        let unverified = try Fixture(subject: "unverified", emailVerified: false)
        #expect(wireErrorCode {
            _ = try unverified.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: unverified.idToken, totpEnrollmentInfo: EmptyObject()), by: .user(client: nil))
        } == .unverifiedEmail)

        let fixture = try Fixture()
        let account = try #require(try fixture.test.store.read { try $0.account(localID: fixture.signIn.localId!) })
        let anonymous = try fixture.test.tokens.mintIDToken(for: account, session: Session(signInProvider: "anonymous", authTime: fixture.test.time.nowSeconds))
        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: anonymous, totpEnrollmentInfo: EmptyObject()), by: .user(client: nil))
        } == .unsupportedFirstFactor)
        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "555-0100")), by: .user(client: nil))
        } == .invalidPhoneNumber)

        _ = try fixture.enrollPhone("+15555550100")
        fixture.test.time.advance(by: 31)
        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550100")), by: .user(client: nil))
        } == .secondFactorExists)
        for _ in 0..<4 { _ = try fixture.enrollTOTP() }
        #expect(wireErrorCode { _ = try fixture.enrollTOTP() } == .secondFactorLimitExceeded)

        let phoneOnly = try TestPlatform(mfa: MFAPolicy(enabled: true, factors: [.phone]))
        let user = try phoneOnly.signIn(subject: "p", email: "p@example.com")
        #expect(wireErrorCode {
            _ = try phoneOnly.platform.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: user.idToken, totpEnrollmentInfo: EmptyObject()), by: .user(client: nil))
        } == .operationNotAllowed)
    }

    @Test("withdraw removes the factor; the next sign-in needs no second factor")
    func withdraw() throws {
        let fixture = try Fixture()
        let (_, enrolled) = try fixture.enrollTOTP()
        let enrollmentID = try #require(try fixture.test.claims(of: enrolled.idToken)["firebase"]?["second_factor_identifier"]?.stringValue)
        #expect(wireErrorCode {
            _ = try fixture.mfa.withdraw(WithdrawMFARequest(idToken: enrolled.idToken, mfaEnrollmentId: "unknown"), by: .user(client: nil))
        } == .mfaEnrollmentNotFound)
        let withdrawn = try fixture.mfa.withdraw(WithdrawMFARequest(idToken: enrolled.idToken, mfaEnrollmentId: enrollmentID), by: .user(client: nil))
        #expect(withdrawn.expiresIn == "3600")
        #expect(try fixture.test.claims(of: withdrawn.idToken)["firebase"]?["sign_in_second_factor"] == nil)
        #expect(try fixture.signInAgain().idToken != nil)
    }

    @Test("with MFA disabled for the project, enrolled users sign in with the first factor alone")
    func disabledPolicy() throws {
        let fixture = try Fixture()
        _ = try fixture.enrollTOTP()
        var configuration = IdentityPlatform.Configuration(
            project: ProjectConfiguration(
                projectID: TestPlatform.projectID, projectNumber: "123", issuer: TestPlatform.issuer, apiKeys: .anyNonEmpty,
                googleClientIDs: [FakeGoogle.clientID]),
            passwords: TestPasswordHasher())
        configuration.googleIssuers = [fixture.test.google]
        let disabled = try IdentityPlatform(configuration, store: fixture.test.store, time: fixture.test.time)
        let response = try disabled.accounts.signInWithIdp(
            fixture.test.signInRequest(idToken: try fixture.test.google.idToken(subject: "mfa-user", email: "mfa-user@example.com")), by: .user(client: nil))
        #expect(response.idToken != nil && response.mfaPendingCredential == nil)
    }

    @Test("an SMS that cannot be sent is a clear error and leaves no session")
    func smsFailure() throws {
        let fixture = try Fixture()
        fixture.test.sms.fail(true)
        #expect(wireErrorCode {
            _ = try fixture.mfa.startEnrollment(StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550122")), by: .user(client: nil))
        } == .unavailable)
    }
}
