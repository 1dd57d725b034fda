import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// `createUser(withEmail:password:)`, `signIn(withEmail:password:)` and `EmailAuthProvider` with
/// `signIn(with:)`: the iOS SDK's requests, the tokens kept, and the second factor.
@Suite("Email and password: sign-up and sign-in")
struct EmailPasswordTests {
    @Test(
        "createUser posts signupNewUser with clientType and returnSecureToken, then getAccountInfo; saves the session")
    func createUser() async throws {
        let harness = Harness()
        harness.transport.enqueue("signupNewUser", json: EmailFixture.signInResponse(refreshToken: "refresh-new"))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let result = try await harness.auth.createUser(withEmail: EmailFixture.email, password: EmailFixture.password)

        let requests = harness.transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].isStandardPost(to: "signupNewUser"))
        #expect(
            requests[0].json == [
                "email": .string(EmailFixture.email), "password": .string(EmailFixture.password),
                "returnSecureToken": true, "clientType": EmailFixture.iOSClientType,
            ])
        #expect(requests[1].isStandardPost(to: "getAccountInfo"))
        #expect(requests[1].json == ["idToken": .string(EmailFixture.idToken())])

        #expect(result.user.uid == Fixture.uid)
        #expect(result.user.email == EmailFixture.email)
        #expect(result.additionalUserInfo?.providerID == "password")
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.credential == nil)
        #expect(harness.auth.currentUser === result.user)
        let saved = try harness.savedSession()
        #expect(saved.refreshToken == "refresh-new")
        #expect(saved.idToken == EmailFixture.idToken())
        #expect(saved.idTokenExpiration == Fixture.startTime + 3600)
        // The password is never stored.
        let stored = String(decoding: try #require(try harness.store.load(key: EmailFixture.sessionKey)), as: UTF8.self)
        #expect(!stored.contains(EmailFixture.password))
    }

    @Test("createUser refuses an empty password (weakPassword) or email (missingEmail) without a request")
    func createUserChecksArguments() async throws {
        let harness = Harness()
        let weak = try #require(
            await authError { try await harness.auth.createUser(withEmail: "a@example.com", password: "") })
        #expect(weak.code == .weakPassword)
        #expect(weak.message == "Missing password")
        let missing = try #require(
            await authError { try await harness.auth.createUser(withEmail: "", password: "pw123456") })
        #expect(missing.code == .missingEmail)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("signIn(withEmail:password:) posts verifyPassword as iOS does, then getAccountInfo")
    func signIn() async throws {
        let harness = Harness()
        let result = try await harness.signInWithPassword()
        let requests = harness.transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].isStandardPost(to: "verifyPassword"))
        #expect(
            requests[0].json == [
                "email": .string(EmailFixture.email), "password": .string(EmailFixture.password),
                "returnSecureToken": true, "clientType": EmailFixture.iOSClientType,
            ])
        #expect(result.additionalUserInfo?.providerID == "password")
        #expect(result.additionalUserInfo?.isNewUser == false)
        #expect(harness.auth.currentUser?.uid == Fixture.uid)
        #expect(try harness.savedSession().refreshToken == "refresh-1")
    }

    @Test("signIn(with: EmailAuthProvider.credential(withEmail:password:)) sends the same verifyPassword")
    func signInWithCredential() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyPassword", json: EmailFixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let credential = EmailAuthProvider.credential(withEmail: EmailFixture.email, password: EmailFixture.password)
        #expect(credential.provider == "password")
        #expect(!"\(credential)".contains(EmailFixture.password))
        #expect(!String(reflecting: credential).contains(EmailFixture.password))
        try await harness.auth.signIn(with: credential)
        #expect(harness.transport.requests(to: "verifyAssertion").isEmpty)
        #expect(
            harness.transport.requests(to: "verifyPassword").first?.json?["password"] == .string(EmailFixture.password))
    }

    @Test("an empty password is wrongPassword before anything is sent, as iOS")
    func emptyPassword() async throws {
        let harness = Harness()
        let error = try #require(
            await authError { try await harness.auth.signIn(withEmail: EmailFixture.email, password: "") })
        #expect(error.code == .wrongPassword)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a password sign-in stopped for a second factor throws secondFactorRequired with a resolver; nothing saved")
    func secondFactor() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "verifyPassword",
            json: [
                "kind": "identitytoolkit#VerifyPasswordResponse", "localId": .string(Fixture.uid),
                "email": .string(EmailFixture.email), "mfaPendingCredential": .string(MFAFixture.pendingCredential),
                "mfaInfo": [MFAFixture.totpEnrollment],
            ])
        let error = try #require(
            await authError {
                try await harness.auth.signIn(withEmail: EmailFixture.email, password: EmailFixture.password)
            })
        #expect(error.code == .secondFactorRequired)
        #expect(error.email == EmailFixture.email)
        let resolver = try #require(error.resolver)
        #expect(resolver.hints.map(\.uid) == [MFAFixture.totpEnrollmentID])
        #expect(harness.auth.currentUser == nil)
        #expect(try harness.store.load(key: EmailFixture.sessionKey) == nil)
        #expect(harness.transport.requests(to: "getAccountInfo").isEmpty)

        // The resolver finishes it like any other sign-in.
        harness.transport.enqueue(
            "mfaSignIn:finalize", json: MFAFixture.tokens(idToken: EmailFixture.idToken(), refreshToken: "refresh-mfa"))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(
                withEnrollmentID: MFAFixture.totpEnrollmentID, oneTimePassword: "123456"))
        #expect(
            harness.transport.requests(to: "mfaSignIn:finalize").first?.json?["mfaPendingCredential"]
                == .string(MFAFixture.pendingCredential))
        #expect(harness.auth.currentUser === result.user)
        #expect(try harness.savedSession().refreshToken == "refresh-mfa")
    }

    @Test("a 200 without tokens and without a second factor is internalError; nothing saved")
    func noTokens() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyPassword", json: ["localId": .string(Fixture.uid)])
        let error = try #require(
            await authError {
                try await harness.auth.signIn(withEmail: EmailFixture.email, password: EmailFixture.password)
            })
        #expect(error.code == .internalError)
        #expect(harness.auth.currentUser == nil)
    }

    @Test(
        "password errors map as FirebaseAuth maps them; the detail is the message",
        arguments: [
            ("verifyPassword", "INVALID_LOGIN_CREDENTIALS", AuthErrorCode.invalidCredential),
            ("verifyPassword", "INVALID_PASSWORD", .wrongPassword),
            ("verifyPassword", "EMAIL_NOT_FOUND", .userNotFound),
            ("verifyPassword", "USER_DISABLED", .userDisabled),
            ("verifyPassword", "INVALID_EMAIL", .invalidEmail),
            ("verifyPassword", "TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
            ("verifyPassword", "PASSWORD_LOGIN_DISABLED", .operationNotAllowed),
            ("verifyPassword", "MISSING_PASSWORD", .internalError),
            ("signupNewUser", "EMAIL_EXISTS", .emailAlreadyInUse),
            ("signupNewUser", "WEAK_PASSWORD", .weakPassword),
            ("signupNewUser", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS", .passwordDoesNotMeetRequirements),
            ("signupNewUser", "MISSING_EMAIL", .missingEmail),
            ("signupNewUser", "OPERATION_NOT_ALLOWED", .operationNotAllowed),
            ("signupNewUser", "TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
        ])
    func errors(endpoint: String, serverCode: String, expected: AuthErrorCode) async throws {
        let harness = Harness()
        harness.transport.enqueue(endpoint, status: 400, json: Fixture.errorEnvelope("\(serverCode) : the detail"))
        let error = try #require(
            await authError {
                if endpoint == "verifyPassword" {
                    try await harness.auth.signIn(withEmail: EmailFixture.email, password: EmailFixture.password)
                } else {
                    try await harness.auth.createUser(withEmail: EmailFixture.email, password: EmailFixture.password)
                }
            })
        #expect(error.code == expected)
        #expect(error.serverCode == serverCode)
        #expect(error.message == "the detail")
        #expect(harness.auth.currentUser == nil)
    }

    @Test("WEAK_PASSWORD carries the server's reason as the message; passwordDoesNotMeetRequirements is 17211")
    func weakPasswordReason() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "signupNewUser", status: 400,
            json: Fixture.errorEnvelope("WEAK_PASSWORD : Password should be at least 6 characters"))
        let error = try #require(
            await authError { try await harness.auth.createUser(withEmail: EmailFixture.email, password: "abc") })
        #expect(error.code.rawValue == 17026)
        #expect(error.message == "Password should be at least 6 characters")
        #expect(AuthErrorCode.passwordDoesNotMeetRequirements.rawValue == 17211)
        #expect(AuthErrorCode.passwordDoesNotMeetRequirements.name == "passwordDoesNotMeetRequirements")
    }
}
