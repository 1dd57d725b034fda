import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Multi-factor: enrolment")
struct MultiFactorEnrollmentTests {
    static let key = "hearth.auth.\(Fixture.apiKey).[DEFAULT]"

    func savedSession(_ store: any SessionStore) throws -> StoredSession {
        try JSONDecoder().decode(StoredSession.self, from: try #require(try store.load(key: Self.key)))
    }

    @Test("enrolling a phone: new tokens replace the user's, ID-token listeners hear it, enrolledFactors is re-read")
    func enrollPhone() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        #expect(user.multiFactor.enrolledFactors.isEmpty)
        var log = ListenerLog(harness.auth)
        #expect(await log.drain() == ["state:\(Fixture.uid)", "token:\(Fixture.uid)"])

        let session = try await user.multiFactor.getSession()
        guard case .enrollment(let sessionToken, let sessionUser) = session.kind else {
            Issue.record("expected an enrolment session")
            return
        }
        #expect(sessionToken == Fixture.idToken())
        #expect(sessionUser === user)

        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        harness.transport.enqueue("mfaEnrollment:start", json: ["phoneSessionInfo": ["sessionInfo": "enroll-session-1"]])
        let verificationID = try await provider.verifyPhoneNumber(MFAFixture.fullPhone, multiFactorSession: session)
        #expect(await log.drain() == [])

        let newToken = Fixture.idToken(issuedAt: Fixture.startTime + 60, secondFactor: "phone")
        harness.transport.enqueue("mfaEnrollment:finalize", json: MFAFixture.tokens(idToken: newToken, refreshToken: "refresh-2"))
        harness.transport.enqueue(
            "getAccountInfo", json: Fixture.userRecord(mfaInfo: [MFAFixture.phoneEnrollment(number: MFAFixture.fullPhone)]))
        let assertion = PhoneMultiFactorGenerator.assertion(
            with: provider.credential(withVerificationID: verificationID, verificationCode: "123456"))
        #expect(assertion.factorID == "phone")
        try await user.multiFactor.enroll(with: assertion, displayName: "Work phone")

        #expect(harness.transport.requests(to: "getAccountInfo").last?.json == ["idToken": .string(newToken)])
        #expect(try await user.getIDToken() == newToken)
        #expect(user.refreshToken == "refresh-2")
        // No expiresIn: the JWT's exp (issued a minute later, one hour lifetime).
        #expect(user.tokens.expirationDate == Date(timeIntervalSince1970: Fixture.startTime + 60 + 3600))
        #expect(try await user.getIDTokenResult().signInSecondFactor == "phone")
        let factors = user.multiFactor.enrolledFactors
        #expect(factors.count == 1)
        let phone = try #require(factors.first as? PhoneMultiFactorInfo)
        #expect(phone.uid == MFAFixture.phoneEnrollmentID)
        #expect(phone.phoneNumber == MFAFixture.fullPhone)
        #expect(phone.displayName == "Work phone")
        #expect(phone.enrollmentDate == MFAFixture.phoneEnrolledAt)
        // The uid did not change: only the ID-token listener hears about it.
        #expect(await log.drain() == ["token:\(Fixture.uid)"])

        let saved = try savedSession(store)
        #expect(saved.idToken == newToken)
        #expect(saved.refreshToken == "refresh-2")
        #expect(saved.profile.mfaInfo?.map(\.mfaEnrollmentId) == [MFAFixture.phoneEnrollmentID])
    }

    @Test("enrolling TOTP: generateSecret reads totpSessionInfo (integers, RFC 3339 deadline), finalize sends its sessionInfo")
    func enrollTOTP() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        var log = ListenerLog(harness.auth)
        _ = await log.drain()

        harness.transport.enqueue("mfaEnrollment:start", json: ["totpSessionInfo": MFAFixture.totpSessionInfo])
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.getSession())
        #expect(secret.sharedSecretKey() == "JBSWY3DPEHPK3PXP")
        #expect(secret.verificationCodeLength == 8)
        #expect(secret.hashingAlgorithm == "SHA256")
        #expect(secret.periodSec == 60)
        #expect(secret.sessionInfo == "totp-session-info")
        #expect(secret.finalizeEnrollmentTime == Date(timeIntervalSince1970: 1_795_947_600.5))
        #expect(!"\(secret)".contains("JBSWY3DPEHPK3PXP"))
        #expect(await log.drain() == [])

        let newToken = Fixture.idToken(issuedAt: Fixture.startTime + 5, secondFactor: "totp")
        harness.transport.enqueue(
            "mfaEnrollment:finalize",
            json: ["idToken": .string(newToken), "refreshToken": "refresh-totp", "totpAuthInfo": [:]])
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(mfaInfo: [MFAFixture.totpEnrollment]))
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: "12345678"),
            displayName: "Authenticator")

        #expect(
            harness.transport.requests(to: "mfaEnrollment:finalize").last?.json?["totpVerificationInfo"]
                == ["sessionInfo": "totp-session-info", "verificationCode": "12345678"])
        #expect(user.refreshToken == "refresh-totp")
        #expect(try await user.getIDTokenResult().signInSecondFactor == "totp")
        let totp = try #require(user.multiFactor.enrolledFactors.first as? TOTPMultiFactorInfo)
        #expect(totp.uid == MFAFixture.totpEnrollmentID)
        #expect(totp.enrollmentDate == MFAFixture.totpEnrolledAt)
        #expect(await log.drain() == ["token:\(Fixture.uid)"])
    }

    @Test(
        "generateSecret with an unusable totpSessionInfo throws a clear internal error",
        arguments: [
            ("sharedSecretKey", nil), ("sharedSecretKey", ""), ("sessionInfo", nil), ("verificationCodeLength", "6"),
            ("periodSec", "30"), ("periodSec", 0),
        ] as [(String, JSONValue?)])
    func badTOTPSessionInfo(field: String, value: JSONValue?) async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        var info = try #require(MFAFixture.totpSessionInfo.objectValue)
        info[field] = value
        if value == nil { info.removeValue(forKey: field) }
        harness.transport.enqueue("mfaEnrollment:start", json: ["totpSessionInfo": .object(info)])
        let session = try await user.multiFactor.getSession()
        let error = try #require(await authError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) })
        #expect(error.code == .internalError)
        #expect(error.message.contains(field))
        #expect(harness.auth.currentUser === user)
    }

    @Test("generateSecret: no totpSessionInfo is an internal error; absent optional fields take RFC 6238's defaults")
    func totpDefaults() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("mfaEnrollment:start", json: ["phoneSessionInfo": ["sessionInfo": "x"]])
        #expect(
            await authError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.getSession()) }?
                .code == .internalError)

        harness.transport.enqueue(
            "mfaEnrollment:start", json: ["totpSessionInfo": ["sharedSecretKey": "ABC", "sessionInfo": "s"]])
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.getSession())
        #expect(secret.verificationCodeLength == 6)
        #expect(secret.periodSec == 30)
        #expect(secret.hashingAlgorithm == "SHA1")
        #expect(secret.finalizeEnrollmentTime == nil)
    }

    @Test("enrolledFactors after reload(): phone and TOTP with dates from enrolledAt; unknown kinds skipped; kept across launches")
    func enrolledFactorsAfterReload() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        harness.transport.enqueue(
            "getAccountInfo",
            json: Fixture.userRecord(mfaInfo: [
                MFAFixture.phoneEnrollment(number: MFAFixture.fullPhone), MFAFixture.unknownEnrollment,
                MFAFixture.totpEnrollment,
            ]))
        try await user.reload()
        let factors = user.multiFactor.enrolledFactors
        #expect(factors.map(\.uid) == [MFAFixture.phoneEnrollmentID, MFAFixture.totpEnrollmentID])
        #expect(factors.map(\.factorID) == ["phone", "totp"])
        #expect(factors.map(\.enrollmentDate) == [MFAFixture.phoneEnrolledAt, MFAFixture.totpEnrolledAt])
        #expect(factors.map(\.displayName) == ["Work phone", "Authenticator"])

        let relaunched = Auth(options: Fixture.options, sessionStore: store, transport: FakeTransport())
        let restored = try #require(relaunched.currentUser)
        #expect(restored.multiFactor.enrolledFactors.map(\.uid) == [MFAFixture.phoneEnrollmentID, MFAFixture.totpEnrollmentID])
    }

    @Test("unenroll: withdraw, new tokens (with expiresIn), listeners told, enrolledFactors re-read")
    func unenroll() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue(
            "getAccountInfo",
            json: Fixture.userRecord(mfaInfo: [MFAFixture.phoneEnrollment(number: MFAFixture.fullPhone), MFAFixture.totpEnrollment]))
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        var log = ListenerLog(harness.auth)
        _ = await log.drain()
        let phone = try #require(user.multiFactor.enrolledFactors.first)

        harness.transport.enqueue(
            "mfaEnrollment:withdraw", json: MFAFixture.tokens(idToken: "withdrawn.token.x", refreshToken: "refresh-3", expiresIn: "600"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(mfaInfo: [MFAFixture.totpEnrollment]))
        try await user.multiFactor.unenroll(with: phone)

        #expect(
            harness.transport.requests(to: "mfaEnrollment:withdraw").last?.json?["mfaEnrollmentId"]
                == .string(MFAFixture.phoneEnrollmentID))
        #expect(user.tokens.idToken == "withdrawn.token.x")
        #expect(user.refreshToken == "refresh-3")
        #expect(user.tokens.expirationDate == harness.clock.now.addingTimeInterval(600))
        #expect(user.multiFactor.enrolledFactors.map(\.uid) == [MFAFixture.totpEnrollmentID])
        #expect(await log.drain() == ["token:\(Fixture.uid)"])
        #expect(try savedSession(store).profile.mfaInfo?.map(\.mfaEnrollmentId) == [MFAFixture.totpEnrollmentID])
    }

    @Test(
        "a session-ending code on withdraw signs the user out, clears the store and notifies",
        arguments: [
            ("TOKEN_EXPIRED", AuthErrorCode.userTokenExpired), ("USER_DISABLED", .userDisabled),
            ("USER_NOT_FOUND", .userNotFound), ("INVALID_ID_TOKEN", .invalidUserToken),
        ])
    func withdrawSignsOut(serverCode: String, expected: AuthErrorCode) async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        var log = ListenerLog(harness.auth)
        _ = await log.drain()
        harness.transport.enqueue("mfaEnrollment:withdraw", status: 400, json: Fixture.errorEnvelope(serverCode))
        let error = await authError { try await user.multiFactor.unenroll(withFactorUID: MFAFixture.phoneEnrollmentID) }
        #expect(error?.code == expected)
        #expect(harness.auth.currentUser == nil)
        #expect(try store.load(key: Self.key) == nil)
        #expect(await log.drain() == ["state:nil", "token:nil"])
    }

    @Test("a session-ending code when re-reading the profile after withdraw also signs out")
    func withdrawThenLookupSignsOut() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue(
            "mfaEnrollment:withdraw", json: MFAFixture.tokens(idToken: "w.x.y", refreshToken: "r", expiresIn: "3600"))
        harness.transport.enqueue("getAccountInfo", status: 400, json: Fixture.errorEnvelope("TOKEN_EXPIRED"))
        #expect(await authError { try await user.multiFactor.unenroll(withFactorUID: "e") }?.code == .userTokenExpired)
        #expect(harness.auth.currentUser == nil)
    }

    @Test("other withdraw and enrolment failures keep the user signed in with the old tokens")
    func otherFailuresKeepUser() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("mfaEnrollment:withdraw", status: 400, json: Fixture.errorEnvelope("MFA_ENROLLMENT_NOT_FOUND"))
        #expect(await authError { try await user.multiFactor.unenroll(withFactorUID: "nope") }?.code == .multiFactorInfoNotFound)
        harness.transport.enqueue("mfaEnrollment:start", status: 400, json: Fixture.errorEnvelope("UNVERIFIED_EMAIL : verify first"))
        let session = try await user.multiFactor.getSession()
        let error = await authError {
            _ = try await PhoneAuthProvider.provider(auth: harness.auth)
                .verifyPhoneNumber(MFAFixture.fullPhone, multiFactorSession: session)
        }
        #expect(error?.code == .unverifiedEmail)
        #expect(error?.message == "verify first")
        #expect(harness.auth.currentUser === user)
        #expect(user.tokens.idToken == Fixture.idToken())
        #expect(user.refreshToken == "refresh-1")
    }
}

@Suite("Multi-factor: TOTP secret and dates")
struct TOTPSecretTests {
    static func secret(algorithm: String = "SHA1", digits: Int = 6, period: Int = 30) -> TOTPSecret {
        TOTPSecret(
            secretKey: "JBSWY3DPEHPK3PXP", verificationCodeLength: digits, hashingAlgorithm: algorithm, periodSec: period,
            finalizeEnrollmentTime: nil, sessionInfo: "s")
    }

    @Test("generateQRCodeURL: otpauth://totp/<issuer>:<account>?secret&issuer&algorithm&digits&period, percent-encoded")
    func qrCodeURL() {
        #expect(
            Self.secret().generateQRCodeURL(withAccountName: "ada@example.com", issuer: "Portfolio")
                == "otpauth://totp/Portfolio:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Portfolio&algorithm=SHA1&digits=6&period=30")
        // Spaces and ':' in the label and issuer are escaped, so the label has exactly one ':'.
        let url = Self.secret(algorithm: "SHA256", digits: 8, period: 60)
            .generateQRCodeURL(withAccountName: "Ada: Lovelace", issuer: "Hearth Demo: Prod")
        #expect(
            url
                == "otpauth://totp/Hearth%20Demo%3A%20Prod:Ada%3A%20Lovelace?secret=JBSWY3DPEHPK3PXP"
                + "&issuer=Hearth%20Demo%3A%20Prod&algorithm=SHA256&digits=8&period=60")
        let components = URLComponents(string: url)
        #expect(components?.scheme == "otpauth")
        #expect(components?.host == "totp")
        #expect(components?.queryItems?.first { $0.name == "issuer" }?.value == "Hearth Demo: Prod")
        // Non-ASCII is UTF-8 percent-encoded; '&' and '=' cannot break the query.
        #expect(
            Self.secret().generateQRCodeURL(withAccountName: "é&x=1", issuer: "A&B")
                == "otpauth://totp/A%26B:%C3%A9%26x%3D1?secret=JBSWY3DPEHPK3PXP&issuer=A%26B&algorithm=SHA1&digits=6&period=30")
        // No issuer: the account alone, no issuer parameter.
        #expect(
            Self.secret().generateQRCodeURL(withAccountName: "ada", issuer: "")
                == "otpauth://totp/ada?secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30")
    }

    @Test(
        "RFC 3339 dates: milliseconds and Z, no fraction, nanoseconds, offsets, lower-case separators",
        arguments: [
            ("2026-11-29T10:11:12.345Z", 1_795_947_072.345), ("2026-01-02T03:04:05Z", 1_767_323_045),
            ("2026-01-02T03:04:05.000000001Z", 1_767_323_045.000000001), ("2026-01-02T05:04:05+02:00", 1_767_323_045),
            ("2026-01-01T22:04:05-05:00", 1_767_323_045), ("2026-01-02t03:04:05z", 1_767_323_045),
            ("1970-01-01T00:00:00Z", 0), ("2024-02-29T00:00:00Z", 1_709_164_800), ("1969-12-31T23:59:59Z", -1),
        ])
    func rfc3339(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(
        "RFC 3339: malformed dates are nil",
        arguments: [
            "", "2026-11-29", "2026-11-29T10:11:12", "2026-11-29T10:11:12.Z", "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T10:11:12+0200", "2026-11-29T10:11:12Zjunk",
            "1795947072345", "2026-11-29 10:11:12.345", "２０２６-11-29T10:11:12Z",
        ])
    func rfc3339Invalid(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test("secrets never show in descriptions")
    func redaction() async throws {
        let credential = PhoneAuthProvider.provider(auth: Harness().auth)
            .credential(withVerificationID: "verification-secret", verificationCode: "987654")
        #expect(credential.provider == "phone")
        #expect(!"\(credential)".contains("verification-secret"))
        #expect(!"\(credential)".contains("987654"))
        let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
        #expect(!"\(assertion)".contains("987654"))
        var dumped = ""
        dump(Self.secret(), to: &dumped)
        #expect(!dumped.contains("JBSWY3DPEHPK3PXP"))
        dumped = ""
        dump(credential, to: &dumped)
        #expect(!dumped.contains("987654"))
    }
}
