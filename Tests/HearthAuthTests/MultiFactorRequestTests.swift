import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// The five multi-factor calls exactly as the iOS SDK sends them (PROTOCOL.md §1.2, §6).
@Suite("Multi-factor: requests")
struct MultiFactorRequestTests {
    func expectCall(_ request: TransportRequest?, _ endpoint: String, body: JSONValue) {
        guard let request else {
            Issue.record("no request to \(endpoint)")
            return
        }
        #expect(request.url.absoluteString == MFAFixture.v2 + "\(endpoint)?key=\(Fixture.apiKey)")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-Client-Version"] == "Swift/HearthAuth/\(HearthAuthVersion.string)")
        #expect(request.json == body)
    }

    @Test("mfaEnrollment:start for a phone: {idToken, phoneEnrollmentInfo:{phoneNumber}}")
    func startPhoneEnrollment() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let session = try await user.multiFactor.getSession()
        harness.transport.enqueue("mfaEnrollment:start", json: ["phoneSessionInfo": ["sessionInfo": "enroll-session-1"]])
        let verificationID = try await PhoneAuthProvider.provider(auth: harness.auth)
            .verifyPhoneNumber(MFAFixture.fullPhone, uiDelegate: nil, multiFactorSession: session)
        #expect(verificationID == "enroll-session-1")
        expectCall(
            harness.transport.requests(to: "mfaEnrollment:start").last, "mfaEnrollment:start",
            body: ["idToken": .string(Fixture.idToken()), "phoneEnrollmentInfo": ["phoneNumber": .string(MFAFixture.fullPhone)]])
    }

    @Test("mfaEnrollment:start for TOTP: {idToken, totpEnrollmentInfo:{}}")
    func startTOTPEnrollment() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("mfaEnrollment:start", json: ["totpSessionInfo": MFAFixture.totpSessionInfo])
        _ = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.getSession())
        let request = harness.transport.requests(to: "mfaEnrollment:start").last
        expectCall(
            request, "mfaEnrollment:start", body: ["idToken": .string(Fixture.idToken()), "totpEnrollmentInfo": [:]])
        // An empty object, not null or a missing key.
        let text = String(decoding: request?.body ?? Data(), as: UTF8.self)
        #expect(text.contains(#""totpEnrollmentInfo":{}"#))
    }

    @Test("mfaEnrollment:finalize: {idToken, displayName, phoneVerificationInfo:{sessionInfo, code}} or totpVerificationInfo")
    func finalizeEnrollment() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        let phone = PhoneMultiFactorGenerator.assertion(
            with: provider.credential(withVerificationID: "enroll-session-1", verificationCode: "123456"))
        harness.transport.enqueue(
            "mfaEnrollment:finalize", json: MFAFixture.tokens(idToken: Fixture.idToken(secondFactor: "phone"), refreshToken: "r2"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await user.multiFactor.enroll(with: phone, displayName: "Work phone")
        expectCall(
            harness.transport.requests(to: "mfaEnrollment:finalize").last, "mfaEnrollment:finalize",
            body: [
                "idToken": .string(Fixture.idToken()), "displayName": "Work phone",
                "phoneVerificationInfo": ["sessionInfo": "enroll-session-1", "code": "123456"],
            ])

        let currentToken = try await user.getIDToken()
        harness.transport.enqueue("mfaEnrollment:start", json: ["totpSessionInfo": MFAFixture.totpSessionInfo])
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.getSession())
        harness.transport.enqueue(
            "mfaEnrollment:finalize",
            json: ["idToken": .string(Fixture.idToken(secondFactor: "totp")), "refreshToken": "r3", "totpAuthInfo": [:]])
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: "87654321"),
            displayName: "Authenticator")
        expectCall(
            harness.transport.requests(to: "mfaEnrollment:finalize").last, "mfaEnrollment:finalize",
            body: [
                "idToken": .string(currentToken), "displayName": "Authenticator",
                "totpVerificationInfo": ["sessionInfo": "totp-session-info", "verificationCode": "87654321"],
            ])
    }

    @Test("mfaEnrollment:withdraw: {idToken, mfaEnrollmentId}")
    func withdraw() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue(
            "mfaEnrollment:withdraw", json: MFAFixture.tokens(idToken: "w.x.y", refreshToken: "r2", expiresIn: "3600"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await user.multiFactor.unenroll(withFactorUID: MFAFixture.phoneEnrollmentID)
        expectCall(
            harness.transport.requests(to: "mfaEnrollment:withdraw").last, "mfaEnrollment:withdraw",
            body: ["idToken": .string(Fixture.idToken()), "mfaEnrollmentId": .string(MFAFixture.phoneEnrollmentID)])
    }

    @Test("mfaSignIn:start: {mfaPendingCredential, mfaEnrollmentId, phoneSignInInfo:{phoneNumber: the masked hint}}")
    func startSignIn() async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        harness.transport.enqueue("mfaSignIn:start", json: ["phoneResponseInfo": ["sessionInfo": "signin-session-1"]])
        let verificationID = try await PhoneAuthProvider.provider(auth: harness.auth)
            .verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)
        #expect(verificationID == "signin-session-1")
        expectCall(
            harness.transport.requests(to: "mfaSignIn:start").last, "mfaSignIn:start",
            body: [
                "mfaPendingCredential": .string(MFAFixture.pendingCredential),
                "mfaEnrollmentId": .string(MFAFixture.phoneEnrollmentID),
                "phoneSignInInfo": ["phoneNumber": .string(MFAFixture.maskedPhone)],
            ])
    }

    @Test("mfaSignIn:finalize: phone {mfaPendingCredential, phoneVerificationInfo}; TOTP adds mfaEnrollmentId")
    func finalizeSignIn() async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        harness.transport.enqueue(
            "mfaSignIn:finalize", json: MFAFixture.tokens(idToken: Fixture.idToken(secondFactor: "phone"), refreshToken: "r2"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await resolver.resolveSignIn(
            with: PhoneMultiFactorGenerator.assertion(
                with: provider.credential(withVerificationID: "signin-session-1", verificationCode: "654321")))
        expectCall(
            harness.transport.requests(to: "mfaSignIn:finalize").last, "mfaSignIn:finalize",
            body: [
                "mfaPendingCredential": .string(MFAFixture.pendingCredential),
                "phoneVerificationInfo": ["sessionInfo": "signin-session-1", "code": "654321"],
            ])

        let totpResolver = try await harness.resolver()
        harness.transport.enqueue(
            "mfaSignIn:finalize", json: MFAFixture.tokens(idToken: Fixture.idToken(secondFactor: "totp"), refreshToken: "r3"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await totpResolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(
                withEnrollmentID: MFAFixture.totpEnrollmentID, oneTimePassword: "112233"))
        expectCall(
            harness.transport.requests(to: "mfaSignIn:finalize").last, "mfaSignIn:finalize",
            body: [
                "mfaPendingCredential": .string(MFAFixture.pendingCredential),
                "mfaEnrollmentId": .string(MFAFixture.totpEnrollmentID),
                "totpVerificationInfo": ["verificationCode": "112233"],
            ])
    }

    @Test("with useEmulator the v2 calls go to http://host:port/identitytoolkit.googleapis.com/v2/…")
    func emulatorURL() async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        harness.auth.useEmulator(withHost: "127.0.0.1", port: 9099)
        harness.transport.enqueue("mfaSignIn:start", json: ["phoneResponseInfo": ["sessionInfo": "s"]])
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        _ = try await PhoneAuthProvider.provider(auth: harness.auth)
            .verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
        let request = try #require(harness.transport.requests(to: "mfaSignIn:start").last)
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start?key=\(Fixture.apiKey)")
    }

    @Test("misuse is refused locally, before any request")
    func localChecks() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let resolver = try await harness.resolver()
        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        let before = harness.transport.requests.count

        #expect(await authError { _ = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: nil) }?.code
            == .missingMultiFactorSession)
        #expect(await authError { _ = try await provider.verifyPhoneNumber(MFAFixture.fullPhone, multiFactorSession: nil) }?
            .code == .missingMultiFactorSession)
        #expect(
            await authError {
                _ = try await provider.verifyPhoneNumber(MFAFixture.fullPhone, multiFactorSession: resolver.session)
            }?.code == .missingMultiFactorInfo)
        let session = try await user.multiFactor.getSession()
        #expect(await authError { _ = try await provider.verifyPhoneNumber("", multiFactorSession: session) }?.code
            == .missingPhoneNumber)
        #expect(await authError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: resolver.session) }?.code
            == .invalidMultiFactorSession)
        // An enrolment assertion cannot finish a sign-in, and a sign-in assertion cannot enrol.
        let secret = TOTPSecret(
            secretKey: "JBSWY3DPEHPK3PXP", verificationCodeLength: 6, hashingAlgorithm: "SHA1", periodSec: 30,
            finalizeEnrollmentTime: nil, sessionInfo: "s")
        #expect(
            await authError {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: "1"))
            }?.code == .missingMultiFactorInfo)
        #expect(
            await authError {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: "e", oneTimePassword: "1"),
                    displayName: nil)
            }?.code == .missingVerificationID)
        #expect(harness.transport.requests.count == before)
        #expect(harness.auth.currentUser === user)
    }
}
