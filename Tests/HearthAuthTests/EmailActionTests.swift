import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// Password reset, email verification, email-link sign-in and action codes: the iOS SDK's
/// `getOobConfirmationCode`, `resetPassword`, `setAccountInfo` and `emailLinkSignin` bodies.
@Suite("Email actions")
struct EmailActionTests {
    static let settings = ActionCodeSettings(
        url: URL(string: "https://example.com/finish?x=1"), handleCodeInApp: true, iOSBundleID: "com.example.app")

    @Test("sendPasswordReset posts getOobConfirmationCode PASSWORD_RESET with the email and clientType only")
    func passwordReset() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "getOobConfirmationCode",
            json: ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "ada@example.com"])
        try await harness.auth.sendPasswordReset(withEmail: EmailFixture.email)
        let request = try #require(harness.transport.requests.first)
        #expect(request.isStandardPost(to: "getOobConfirmationCode"))
        #expect(
            request.json == [
                "requestType": "PASSWORD_RESET", "email": .string(EmailFixture.email),
                "clientType": EmailFixture.iOSClientType,
            ])
    }

    @Test("action code settings become continueUrl, iOSBundleId and canHandleCodeInApp (only when true)")
    func settingsFields() async throws {
        let harness = Harness()
        harness.transport.enqueue("getOobConfirmationCode", json: [:])
        harness.transport.enqueue("getOobConfirmationCode", json: [:])
        try await harness.auth.sendPasswordReset(withEmail: EmailFixture.email, actionCodeSettings: Self.settings)
        try await harness.auth.sendPasswordReset(
            withEmail: EmailFixture.email,
            actionCodeSettings: ActionCodeSettings(url: URL(string: "https://example.com/")))
        let requests = harness.transport.requests
        #expect(
            requests[0].json == [
                "requestType": "PASSWORD_RESET", "email": .string(EmailFixture.email),
                "clientType": EmailFixture.iOSClientType,
                "continueUrl": "https://example.com/finish?x=1", "iOSBundleId": "com.example.app",
                "canHandleCodeInApp": true,
            ])
        #expect(
            requests[1].json == [
                "requestType": "PASSWORD_RESET", "email": .string(EmailFixture.email),
                "clientType": EmailFixture.iOSClientType,
                "continueUrl": "https://example.com/",
            ])
    }

    @Test("sendSignInLink posts EMAIL_SIGNIN; without handleCodeInApp nothing is sent")
    func signInLink() async throws {
        let harness = Harness()
        let refused = try #require(
            await authError {
                try await harness.auth.sendSignInLink(
                    toEmail: EmailFixture.email,
                    actionCodeSettings: ActionCodeSettings(url: URL(string: "https://example.com")))
            })
        #expect(refused.code == .internalError)
        #expect(harness.transport.requests.isEmpty)

        harness.transport.enqueue("getOobConfirmationCode", json: [:])
        try await harness.auth.sendSignInLink(toEmail: EmailFixture.email, actionCodeSettings: Self.settings)
        #expect(
            harness.transport.requests.first?.json == [
                "requestType": "EMAIL_SIGNIN", "email": .string(EmailFixture.email),
                "clientType": EmailFixture.iOSClientType,
                "continueUrl": "https://example.com/finish?x=1", "iOSBundleId": "com.example.app",
                "canHandleCodeInApp": true,
            ])
    }

    @Test("isSignIn(withEmailLink:) needs mode=signIn and an oobCode")
    func isSignInLink() {
        let auth = Harness().auth
        #expect(auth.isSignIn(withEmailLink: EmailFixture.signInLink()))
        #expect(auth.isSignIn(withEmailLink: "https://example.com/?oobCode=abc&mode=signIn"))
        #expect(!auth.isSignIn(withEmailLink: EmailFixture.signInLink(mode: "resetPassword")))
        #expect(!auth.isSignIn(withEmailLink: EmailFixture.signInLink(code: "")))
        #expect(!auth.isSignIn(withEmailLink: "https://example.com/?mode=signIn"))
        #expect(!auth.isSignIn(withEmailLink: ""))
        #expect(!auth.isSignIn(withEmailLink: "not a link"))
    }

    @Test("signIn(withEmail:link:) posts emailLinkSignin {email, oobCode}, signs in and says whether the user is new")
    func signInWithLink() async throws {
        let harness = Harness()
        harness.transport.enqueue("emailLinkSignin", json: EmailFixture.signInResponse(extra: ["isNewUser": true]))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let result = try await harness.auth.signIn(
            withEmail: EmailFixture.email, link: EmailFixture.signInLink(code: "a%2Bb"))
        let request = try #require(harness.transport.requests.first)
        #expect(request.isStandardPost(to: "emailLinkSignin"))
        #expect(request.json == ["email": .string(EmailFixture.email), "oobCode": "a+b"])
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.additionalUserInfo?.providerID == "password")
        #expect(harness.auth.currentUser === result.user)

        let other = Harness()
        let error = try #require(
            await authError {
                try await other.auth.signIn(
                    withEmail: EmailFixture.email, link: "https://example.com/?mode=verifyEmail&oobCode=x")
            })
        #expect(error.code == .invalidActionCode)
        #expect(other.transport.requests.isEmpty)
    }

    @Test("confirmPasswordReset posts resetPassword {oobCode, newPassword}")
    func confirmPasswordReset() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "resetPassword", json: ["email": .string(EmailFixture.email), "requestType": "PASSWORD_RESET"])
        try await harness.auth.confirmPasswordReset(withCode: "reset-code", newPassword: "new password 1")
        let request = try #require(harness.transport.requests.first)
        #expect(request.isStandardPost(to: "resetPassword"))
        #expect(request.json == ["oobCode": "reset-code", "newPassword": "new password 1"])
        #expect(harness.auth.currentUser == nil)
    }

    @Test(
        "checkActionCode posts resetPassword {oobCode} and reads the operation (v1 names and mode names)",
        arguments: [
            ("PASSWORD_RESET", ActionCodeOperation.passwordReset), ("resetPassword", .passwordReset),
            ("VERIFY_EMAIL", .verifyEmail), ("RECOVER_EMAIL", .recoverEmail), ("EMAIL_SIGNIN", .emailLink),
            ("VERIFY_AND_CHANGE_EMAIL", .verifyAndChangeEmail), ("verifyAndChangeEmail", .verifyAndChangeEmail),
            ("REVERT_SECOND_FACTOR_ADDITION", .revertSecondFactorAddition), ("SOMETHING_ELSE", .unknown),
        ])
    func checkActionCode(requestType: String, operation: ActionCodeOperation) async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "resetPassword", json: ["email": .string(EmailFixture.email), "requestType": .string(requestType)])
        let info = try await harness.auth.checkActionCode("the-code")
        #expect(harness.transport.requests.first?.json == ["oobCode": "the-code"])
        #expect(info.operation == operation)
        #expect(info.email == EmailFixture.email)
        #expect(info.previousEmail == nil)
    }

    @Test("a change of email: newEmail is the email, the old one previousEmail; no email at all is internalError")
    func checkActionCodeEmails() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "resetPassword",
            json: ["email": "old@example.com", "newEmail": "new@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        let info = try await harness.auth.checkActionCode("c")
        #expect(info.email == "new@example.com")
        #expect(info.previousEmail == "old@example.com")

        harness.transport.enqueue("resetPassword", json: ["requestType": "EMAIL_SIGNIN"])
        let error = try #require(await authError { _ = try await harness.auth.checkActionCode("c") })
        #expect(error.code == .internalError)
    }

    @Test("verifyPasswordResetCode returns the code's email without using it")
    func verifyPasswordResetCode() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "resetPassword", json: ["email": .string(EmailFixture.email), "requestType": "PASSWORD_RESET"])
        #expect(try await harness.auth.verifyPasswordResetCode("reset-code") == EmailFixture.email)
        #expect(harness.transport.requests.first?.json == ["oobCode": "reset-code"])
    }

    @Test("applyActionCode posts setAccountInfo {oobCode, returnSecureToken} without an idToken")
    func applyActionCode() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "setAccountInfo",
            json: ["localId": .string(Fixture.uid), "email": .string(EmailFixture.email), "emailVerified": true])
        try await harness.auth.applyActionCode("verify-code")
        let request = try #require(harness.transport.requests.first)
        #expect(request.isStandardPost(to: "setAccountInfo"))
        #expect(request.json == ["oobCode": "verify-code", "returnSecureToken": true])
    }

    @Test(
        "action code errors: INVALID_OOB_CODE → invalidActionCode, EXPIRED_OOB_CODE → expiredActionCode, …",
        arguments: [
            ("INVALID_OOB_CODE", AuthErrorCode.invalidActionCode), ("EXPIRED_OOB_CODE", .expiredActionCode),
            ("WEAK_PASSWORD", .weakPassword), ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS", .passwordDoesNotMeetRequirements),
            ("USER_DISABLED", .userDisabled), ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
        ])
    func actionCodeErrors(serverCode: String, expected: AuthErrorCode) async throws {
        let harness = Harness()
        harness.transport.enqueue("resetPassword", status: 400, json: Fixture.errorEnvelope(serverCode))
        harness.transport.enqueue("setAccountInfo", status: 400, json: Fixture.errorEnvelope(serverCode))
        let reset = try #require(
            await authError { try await harness.auth.confirmPasswordReset(withCode: "c", newPassword: "pw1234567") })
        #expect(reset.code == expected)
        let apply = try #require(await authError { try await harness.auth.applyActionCode("c") })
        #expect(apply.code == expected)
    }

    @Test(
        "sendOobCode errors map: EMAIL_NOT_FOUND, INVALID_EMAIL, MISSING_EMAIL, TOO_MANY_ATTEMPTS_TRY_LATER, …",
        arguments: [
            ("EMAIL_NOT_FOUND", AuthErrorCode.userNotFound), ("INVALID_EMAIL", .invalidEmail),
            ("MISSING_EMAIL", .missingEmail),
            ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests), ("INVALID_CONTINUE_URI", .invalidContinueURI),
            ("MISSING_CONTINUE_URI", .missingContinueURI), ("UNAUTHORIZED_DOMAIN", .unauthorizedDomain),
            ("MISSING_IOS_BUNDLE_ID", .missingIosBundleID), ("INVALID_HOSTING_LINK_DOMAIN", .invalidHostingLinkDomain),
            ("RESET_PASSWORD_EXCEED_LIMIT", .internalError),
        ])
    func sendErrors(serverCode: String, expected: AuthErrorCode) async throws {
        let harness = Harness()
        harness.transport.enqueue("getOobConfirmationCode", status: 400, json: Fixture.errorEnvelope(serverCode))
        let error = try #require(
            await authError { try await harness.auth.sendPasswordReset(withEmail: EmailFixture.email) })
        #expect(error.code == expected)
        #expect(error.serverCode == serverCode)
    }

    @Test("sendEmailVerification posts VERIFY_EMAIL with the user's idToken and no email")
    func sendEmailVerification() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        harness.transport.enqueue("getOobConfirmationCode", json: ["email": .string(EmailFixture.email)])
        try await user.sendEmailVerification()
        #expect(
            harness.transport.requests(to: "getOobConfirmationCode").first?.json == [
                "requestType": "VERIFY_EMAIL", "idToken": .string(EmailFixture.idToken()),
                "clientType": EmailFixture.iOSClientType,
            ])

        harness.transport.enqueue("getOobConfirmationCode", json: [:])
        try await user.sendEmailVerification(with: Self.settings)
        #expect(
            harness.transport.requests(to: "getOobConfirmationCode").last?.json?["continueUrl"]
                == "https://example.com/finish?x=1")
    }

    @Test("sendEmailVerification(beforeUpdatingEmail:) posts VERIFY_AND_CHANGE_EMAIL with newEmail and idToken")
    func verifyBeforeUpdate() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        harness.transport.enqueue("getOobConfirmationCode", json: [:])
        try await user.sendEmailVerification(beforeUpdatingEmail: "ada.new@example.com")
        #expect(
            harness.transport.requests(to: "getOobConfirmationCode").first?.json == [
                "requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "ada.new@example.com",
                "idToken": .string(EmailFixture.idToken()), "clientType": EmailFixture.iOSClientType,
            ])
        #expect(user.email == EmailFixture.email)

        // A dead session signs the user out.
        harness.transport.enqueue("getOobConfirmationCode", status: 400, json: Fixture.errorEnvelope("USER_DISABLED"))
        let error = try #require(await authError { try await user.sendEmailVerification() })
        #expect(error.code == .userDisabled)
        #expect(harness.auth.currentUser == nil)
    }
}
