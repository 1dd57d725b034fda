public import Foundation
import HearthProtocol

/// Email actions (FirebaseAuth's password reset, email-link and action-code calls): the server emails a code in
/// a link; the app (or the action page) completes it.
///
/// ```swift
/// try await Auth.auth().sendPasswordReset(withEmail: "ada@example.com")
/// // Later, with the oobCode from the link:
/// let email = try await Auth.auth().verifyPasswordResetCode(code)
/// try await Auth.auth().confirmPasswordReset(withCode: code, newPassword: newPassword)
/// ```
extension Auth {
    /// Emails a password reset link (`getOobConfirmationCode`, `PASSWORD_RESET`).
    ///
    /// - Throws: `AuthError`: `.invalidEmail`, `.missingEmail`, `.userNotFound` (only without email enumeration
    ///   protection), `.invalidContinueURI`, `.unauthorizedDomain`, `.tooManyRequests`, `.networkError`.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        _ = try await backend.call(
            GetOOBConfirmationCodeCall(
                body: .init(requestType: "PASSWORD_RESET", email: email, settings: actionCodeSettings)))
    }

    /// Emails a sign-in link (`getOobConfirmationCode`, `EMAIL_SIGNIN`); finish with `signIn(withEmail:link:)`.
    ///
    /// - Parameter actionCodeSettings: `handleCodeInApp` must be true, as in FirebaseAuth.
    /// - Throws: `AuthError`: `.invalidEmail`, `.missingEmail`, `.operationNotAllowed`, `.invalidContinueURI`,
    ///   `.networkError`; `.internalError` when `handleCodeInApp` is false (nothing is sent).
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        guard actionCodeSettings.handleCodeInApp else {
            throw AuthError(
                code: .internalError,
                message: "The handleCodeInApp flag in ActionCodeSettings must be true for email-link sign-in.")
        }
        _ = try await backend.call(
            GetOOBConfirmationCodeCall(
                body: .init(requestType: "EMAIL_SIGNIN", email: email, settings: actionCodeSettings)))
    }

    /// Sets a new password with the code of a password reset email (`resetPassword`).
    ///
    /// - Throws: `AuthError`: `.invalidActionCode`, `.expiredActionCode`, `.weakPassword`,
    ///   `.passwordDoesNotMeetRequirements`, `.userDisabled`, `.operationNotAllowed`, `.networkError`.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        _ = try await forgettingPasswordPolicyOnRefusal { () async throws(AuthError) in
            try await backend.call(ResetPasswordCall(body: .init(oobCode: code, newPassword: newPassword)))
        }
    }

    /// What an action code is for, without using it (`resetPassword` without a new password).
    ///
    /// - Throws: `AuthError`: `.invalidActionCode`, `.expiredActionCode`, `.networkError`; `.internalError` when the
    ///   server does not say which email the code is for.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        let response = try await backend.call(ResetPasswordCall(body: .init(oobCode: code))).response
        guard let email = response.email else {
            throw AuthError(code: .internalError, message: "The server did not say which email the code is for.")
        }
        return ActionCodeInfo(
            operation: ActionCodeOperation(requestType: response.requestType), email: email, newEmail: response.newEmail
        )
    }

    /// The email a password reset code is for, without using the code.
    ///
    /// - Throws: as `checkActionCode(_:)`.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        try await checkActionCode(code).email
    }

    /// Uses an email verification, change-of-email or recovery code (`setAccountInfo` with `oobCode`). Call
    /// `User.reload()` afterwards to see the change on the signed-in user.
    ///
    /// - Throws: `AuthError`: `.invalidActionCode`, `.expiredActionCode`, `.userDisabled`, `.userNotFound`,
    ///   `.emailAlreadyInUse`, `.networkError`.
    public func applyActionCode(_ code: String) async throws {
        var request = UpdateAccountRequest(idToken: nil)
        request.oobCode = code
        request.returnSecureToken = true
        _ = try await backend.call(SetAccountInfoCall(body: request))
    }
}
