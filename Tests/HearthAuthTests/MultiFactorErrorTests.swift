import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// PROTOCOL.md §2's map for the multi-factor codes, through the multi-factor calls themselves.
@Suite("Multi-factor: error mapping")
struct MultiFactorErrorTests {
    static let table: [(String, Int)] = [
        ("INVALID_CODE", 17044), ("INVALID_SESSION_INFO", 17046), ("SESSION_EXPIRED", 17051),
        ("INVALID_MFA_PENDING_CREDENTIAL", 17083), ("MISSING_MFA_PENDING_CREDENTIAL", 17081),
        ("MISSING_MFA_ENROLLMENT_ID", 17082), ("MFA_ENROLLMENT_NOT_FOUND", 17084), ("SECOND_FACTOR_EXISTS", 17087),
        ("SECOND_FACTOR_LIMIT_EXCEEDED", 17088), ("UNSUPPORTED_FIRST_FACTOR", 17089), ("UNVERIFIED_EMAIL", 17086),
        ("TOO_MANY_ATTEMPTS_TRY_LATER", 17010), ("INVALID_PHONE_NUMBER", 17042), ("MISSING_CODE", 17043),
        ("MISSING_SESSION_INFO", 17045), ("MISSING_CREDENTIAL", 17081), ("MISSING_PHONE_NUMBER", 17041),
    ]

    @Test("mfaSignIn:finalize errors map to FirebaseAuth's numbers; nothing is signed in", arguments: table)
    func signInFinalize(serverCode: String, number: Int) async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: "e", oneTimePassword: "1")

        harness.transport.enqueue("mfaSignIn:finalize", status: 400, json: Fixture.errorEnvelope("\(serverCode) : detail text"))
        let error = try #require(await authError { _ = try await resolver.resolveSignIn(with: assertion) })
        #expect(error.code == AuthErrorCode(rawValue: number))
        #expect(error.serverCode == serverCode)
        #expect(error.message == "detail text")

        harness.transport.enqueue("mfaSignIn:finalize", status: 400, json: Fixture.errorEnvelope(serverCode))
        let bare = try #require(await authError { _ = try await resolver.resolveSignIn(with: assertion) })
        #expect(bare.code.rawValue == number)
        // A bare code gets the code's own explanation, not "internal error".
        #expect(bare.message != "An internal error occurred.")
        #expect(harness.auth.currentUser == nil)
    }

    @Test("mfaSignIn:start and mfaEnrollment:start/finalize errors map the same way; the user stays signed in",
        arguments: table)
    func enrollmentAndStart(serverCode: String, number: Int) async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        harness.transport.enqueue("mfaSignIn:start", status: 400, json: Fixture.errorEnvelope(serverCode))
        #expect(
            await authError { _ = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session) }?
                .code.rawValue == number)

        let user = try await harness.signIn().user
        let session = try await user.multiFactor.getSession()
        harness.transport.enqueue("mfaEnrollment:start", status: 400, json: Fixture.errorEnvelope(serverCode))
        #expect(
            await authError { _ = try await provider.verifyPhoneNumber(MFAFixture.fullPhone, multiFactorSession: session) }?
                .code.rawValue == number)
        harness.transport.enqueue("mfaEnrollment:finalize", status: 400, json: Fixture.errorEnvelope(serverCode))
        let assertion = PhoneMultiFactorGenerator.assertion(
            with: provider.credential(withVerificationID: "v", verificationCode: "1"))
        #expect(await authError { try await user.multiFactor.enroll(with: assertion, displayName: nil) }?.code.rawValue == number)
        #expect(harness.auth.currentUser === user)
    }
}
