import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Multi-factor: sign-in")
struct MultiFactorSignInTests {
    static let key = "hearth.auth.\(Fixture.apiKey).[DEFAULT]"

    @Test("a second factor required: the error's resolver has the hints, nothing is stored, no listener fires")
    func secondFactorRequired() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        var log = ListenerLog(harness.auth)
        #expect(await log.drain() == ["state:nil", "token:nil"])

        let error = try await harness.secondFactorError()
        #expect(error.code.rawValue == 17078)
        #expect(error.message == "Please complete a second factor challenge to finish signing into this account.")
        #expect(error.email == "ada@example.com")
        let resolver = try #require(error.resolver)
        #expect(resolver.auth === harness.auth)
        guard case .signIn(let pendingCredential) = resolver.session.kind else {
            Issue.record("expected a sign-in session")
            return
        }
        #expect(pendingCredential == MFAFixture.pendingCredential)

        // Phone (masked number) and TOTP; the unknown kind is skipped.
        #expect(resolver.hints.count == 2)
        let phone = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        #expect(phone.uid == MFAFixture.phoneEnrollmentID)
        #expect(phone.factorID == "phone")
        #expect(phone.factorID == PhoneMultiFactorGenerator.factorID)
        #expect(phone.displayName == "Work phone")
        #expect(phone.phoneNumber == MFAFixture.maskedPhone)
        #expect(phone.enrollmentDate == MFAFixture.phoneEnrolledAt)
        let totp = try #require(resolver.hints.last as? TOTPMultiFactorInfo)
        #expect(totp.uid == MFAFixture.totpEnrollmentID)
        #expect(totp.factorID == "totp")
        #expect(totp.displayName == "Authenticator")
        #expect(totp.enrollmentDate == MFAFixture.totpEnrolledAt)

        #expect(harness.auth.currentUser == nil)
        #expect(try store.load(key: Self.key) == nil)
        #expect(harness.transport.requests(to: "getAccountInfo").isEmpty)
        #expect(await log.drain() == [])
        // The pending credential never shows in the error's text.
        #expect(!"\(error)".contains(MFAFixture.pendingCredential))
        #expect(!"\(resolver.session)".contains(MFAFixture.pendingCredential))
    }

    @Test("mfaInfo without idToken and without a pending credential still gives a resolver; no factors, no hints")
    func withoutPendingCredential() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "verifyAssertion", json: ["localId": .string(Fixture.uid), "mfaInfo": [MFAFixture.unknownEnrollment]])
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .secondFactorRequired)
        let resolver = try #require(error.resolver)
        #expect(resolver.hints.isEmpty)
        guard case .signIn(nil) = resolver.session.kind else {
            Issue.record("expected a sign-in session without a pending credential")
            return
        }
    }

    @Test("link(with:) stopped for a second factor throws secondFactorRequired with a resolver; the user is unchanged")
    func linkNeedsSecondFactor() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("verifyAssertion", json: MFAFixture.secondFactorRequired())
        let error = try #require(
            await authError {
                _ = try await user.link(with: OAuthProvider.credential(providerID: .custom("github.com"), idToken: "x"))
            })
        #expect(error.code == .secondFactorRequired)
        #expect(error.resolver?.hints.count == 2)
        #expect(harness.auth.currentUser === user)
        #expect(user.refreshToken == "refresh-1")
    }

    @Test("resolveSignIn with a phone factor: signed in, session saved, listeners told, expiry from the JWT's exp")
    func resolvePhone() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        var log = ListenerLog(harness.auth)
        _ = await log.drain()
        let resolver = try await harness.resolver()
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)

        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        harness.transport.enqueue("mfaSignIn:start", json: ["phoneResponseInfo": ["sessionInfo": "signin-session-1"]])
        let verificationID = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
        #expect(await log.drain() == [])

        // mfaSignIn:finalize has no expiresIn: the expiry must come from exp (30 minutes here).
        let idToken = Fixture.idToken(lifetime: 1800, secondFactor: "phone")
        harness.transport.enqueue("mfaSignIn:finalize", json: MFAFixture.tokens(idToken: idToken, refreshToken: "refresh-mfa"))
        harness.transport.enqueue(
            "getAccountInfo", json: Fixture.userRecord(mfaInfo: [MFAFixture.phoneEnrollment(number: MFAFixture.fullPhone)]))
        let credential = provider.credential(withVerificationID: verificationID, verificationCode: "654321")
        let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))

        let user = result.user
        #expect(harness.auth.currentUser === user)
        #expect(user.uid == Fixture.uid)
        #expect(user.email == "ada@example.com")
        #expect(!user.isAnonymous)
        #expect(user.refreshToken == "refresh-mfa")
        #expect(result.additionalUserInfo == nil)
        #expect(harness.transport.requests(to: "getAccountInfo").last?.json == ["idToken": .string(idToken)])
        #expect(user.tokens.expirationDate == Date(timeIntervalSince1970: Fixture.startTime + 1800))
        #expect(await log.drain() == ["state:\(Fixture.uid)", "token:\(Fixture.uid)"])

        let saved = try JSONDecoder().decode(StoredSession.self, from: try #require(try store.load(key: Self.key)))
        #expect(saved.idToken == idToken)
        #expect(saved.refreshToken == "refresh-mfa")
        #expect(saved.idTokenExpiration == Fixture.startTime + 1800)
        #expect(user.multiFactor.enrolledFactors.map(\.uid) == [MFAFixture.phoneEnrollmentID])
        #expect((user.multiFactor.enrolledFactors.first as? PhoneMultiFactorInfo)?.phoneNumber == MFAFixture.fullPhone)

        #expect(try await user.getIDTokenResult().signInSecondFactor == "phone")
        #expect(harness.transport.requests(to: "token").isEmpty)
        // Refreshed as usual once fewer than five minutes of the JWT's lifetime remain.
        harness.clock.advance(by: 1800 - 299)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "refreshed.token.x"))
        #expect(try await user.getIDToken() == "refreshed.token.x")
        #expect(harness.transport.requests(to: "token").count == 1)
    }

    @Test("resolveSignIn with a TOTP factor signs in without a start call")
    func resolveTOTP() async throws {
        let harness = Harness()
        var log = ListenerLog(harness.auth)
        _ = await log.drain()
        let resolver = try await harness.resolver()
        let hint = try #require(resolver.hints.first { $0.factorID == TOTPMultiFactorGenerator.factorID })

        let idToken = Fixture.idToken(lifetime: 3000, secondFactor: "totp")
        harness.transport.enqueue("mfaSignIn:finalize", json: MFAFixture.tokens(idToken: idToken, refreshToken: "refresh-totp"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(mfaInfo: [MFAFixture.totpEnrollment]))
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: "112233")
        #expect(assertion.factorID == "totp")
        let user = try await resolver.resolveSignIn(with: assertion).user

        #expect(harness.auth.currentUser === user)
        #expect(harness.transport.requests(to: "mfaSignIn:start").isEmpty)
        #expect(user.tokens.expirationDate == Date(timeIntervalSince1970: Fixture.startTime + 3000))
        #expect(try await user.getIDTokenResult().signInSecondFactor == "totp")
        #expect(await log.drain() == ["state:\(Fixture.uid)", "token:\(Fixture.uid)"])
        #expect(user.multiFactor.enrolledFactors.first is TOTPMultiFactorInfo)
    }

    @Test("a failed resolveSignIn stores nothing, tells no listener, and the resolver can be used again")
    func resolveFailure() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        var log = ListenerLog(harness.auth)
        _ = await log.drain()
        let resolver = try await harness.resolver()
        let provider = PhoneAuthProvider.provider(auth: harness.auth)
        let assertion = PhoneMultiFactorGenerator.assertion(
            with: provider.credential(withVerificationID: "signin-session-1", verificationCode: "000000"))

        harness.transport.enqueue("mfaSignIn:finalize", status: 400, json: Fixture.errorEnvelope("INVALID_CODE"))
        #expect(await authError { _ = try await resolver.resolveSignIn(with: assertion) }?.code == .invalidVerificationCode)
        // The tokens were good but the profile could not be read: still not signed in.
        harness.transport.enqueue(
            "mfaSignIn:finalize", json: MFAFixture.tokens(idToken: Fixture.idToken(secondFactor: "phone"), refreshToken: "r"))
        harness.transport.enqueue("getAccountInfo", status: 400, json: Fixture.errorEnvelope("USER_DISABLED"))
        #expect(await authError { _ = try await resolver.resolveSignIn(with: assertion) }?.code == .userDisabled)
        #expect(harness.auth.currentUser == nil)
        #expect(try store.load(key: Self.key) == nil)
        #expect(await log.drain() == [])

        harness.transport.enqueue(
            "mfaSignIn:finalize", json: MFAFixture.tokens(idToken: Fixture.idToken(secondFactor: "phone"), refreshToken: "r"))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        try await resolver.resolveSignIn(with: assertion)
        #expect(harness.auth.currentUser?.uid == Fixture.uid)
    }

    @Test("a finalize answer without tokens is an internal error, not a sign-in")
    func finalizeWithoutTokens() async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        harness.transport.enqueue("mfaSignIn:finalize", json: ["idToken": "", "refreshToken": ""])
        let error = await authError {
            _ = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: "e", oneTimePassword: "1"))
        }
        #expect(error?.code == .internalError)
        #expect(harness.auth.currentUser == nil)
    }

    @Test("an mfaSignIn:start answer without phoneResponseInfo is an internal error")
    func startWithoutSessionInfo() async throws {
        let harness = Harness()
        let resolver = try await harness.resolver()
        let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
        harness.transport.enqueue("mfaSignIn:start", json: [:])
        let error = await authError {
            _ = try await PhoneAuthProvider.provider(auth: harness.auth)
                .verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
        }
        #expect(error?.code == .internalError)
    }
}
