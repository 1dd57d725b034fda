public import Foundation
import HearthProtocol

/// The error every HearthAuth call throws.
///
/// `code` is FirebaseAuth's number; `serverCode` is the wire code the server sent (`USER_DISABLED`,
/// `INVALID_IDP_RESPONSE`, …) when there was one, and `message` its detail text. For linking
/// conflicts, `email` and `updatedCredential` carry what FirebaseAuth puts in the `NSError`'s
/// `userInfo` under `AuthErrors.userInfoEmailKey` and `userInfoUpdatedCredentialKey`.
///
/// `description` never contains a token: credentials print as `<redacted>`.
public struct AuthError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public let code: AuthErrorCode
    /// The server's detail text when there is one, else a short explanation.
    public let message: String
    /// The wire error code, e.g. `USER_DISABLED`; nil when the error did not come from the server.
    public let serverCode: String?
    /// The email of the account involved in `accountExistsWithDifferentCredential`,
    /// `credentialAlreadyInUse` or `emailAlreadyInUse`.
    public let email: String?
    /// A credential that can be used to recover, e.g. to sign in to the account that already holds it.
    public let updatedCredential: AuthCredential?

    /// For `.secondFactorRequired`: what is needed to finish the sign-in with a second factor (the
    /// enrolled factors as hints, and the session). FirebaseAuth puts it in the `NSError`'s
    /// `userInfo` under `AuthErrors.userInfoMultiFactorResolverKey`.
    ///
    /// ```swift
    /// } catch let error as AuthError where error.code == .secondFactorRequired {
    ///     let resolver = error.resolver!
    ///     // Let the user pick one of resolver.hints, challenge it, then:
    ///     let result = try await resolver.resolveSignIn(with: assertion)
    /// }
    /// ```
    public let resolver: MultiFactorResolver?

    public init(
        code: AuthErrorCode, message: String? = nil, serverCode: String? = nil, email: String? = nil,
        updatedCredential: AuthCredential? = nil
    ) {
        self.init(
            code: code, message: message, serverCode: serverCode, email: email, updatedCredential: updatedCredential,
            resolver: nil)
    }

    init(
        code: AuthErrorCode, message: String?, serverCode: String?, email: String?, updatedCredential: AuthCredential?,
        resolver: MultiFactorResolver?
    ) {
        self.code = code
        if let message, !message.isEmpty {
            self.message = message
        } else {
            self.message = Self.defaultMessage(for: code)
        }
        self.serverCode = serverCode
        self.email = email
        self.updatedCredential = updatedCredential
        self.resolver = resolver
    }

    public var description: String {
        var text = "AuthError(\(code): \(message)"
        if let serverCode { text += "; server code \(serverCode)" }
        if updatedCredential != nil { text += "; updated credential <redacted>" }
        if let resolver { text += "; resolver with \(resolver.hints.count) hint(s)" }
        return text + ")"
    }

    public var errorDescription: String? { message }

    private static func defaultMessage(for code: AuthErrorCode) -> String {
        switch code {
        case .networkError: "A network error (such as a timeout, an interrupted connection or an unreachable host) occurred."
        case .userDisabled: "The user account has been disabled."
        case .userNotFound: "There is no user for this identifier; the user may have been deleted."
        case .invalidUserToken, .userTokenExpired: "The user's credential is no longer valid. The user must sign in again."
        case .invalidAPIKey: "The API key is not valid."
        case .invalidCredential: "The credential is malformed or has expired."
        case .accountExistsWithDifferentCredential:
            "An account already exists with the same email address but a different sign-in provider."
        case .credentialAlreadyInUse: "This credential is already linked to a different user account."
        case .emailAlreadyInUse: "The email address is already in use by another account."
        case .secondFactorRequired: "Please complete a second factor challenge to finish signing into this account."
        case .tooManyRequests: "Too many requests from this device; try again later."
        case .missingPhoneNumber: "A phone number is required."
        case .invalidPhoneNumber: "The phone number is not a valid E.164 number."
        case .missingVerificationCode: "The verification code is empty."
        case .invalidVerificationCode: "The verification code is wrong. Ask for a new code and try again."
        case .missingVerificationID: "The verification ID is empty."
        case .invalidVerificationID: "The verification ID is not valid."
        case .sessionExpired: "The verification code has expired. Ask for a new code."
        case .missingMultiFactorSession: "The multi-factor session is missing."
        case .missingMultiFactorInfo: "No second factor was identified."
        case .invalidMultiFactorSession: "The multi-factor session is not valid or has expired. Sign in again."
        case .multiFactorInfoNotFound: "The user has no second factor with this ID."
        case .unverifiedEmail: "The email address must be verified before a second factor can be enrolled."
        case .secondFactorAlreadyEnrolled: "This second factor is already enrolled."
        case .maximumSecondFactorCountExceeded: "The user already has the maximum number of second factors."
        case .unsupportedFirstFactor: "A second factor cannot be used with this sign-in method."
        case .malformedJWT: "The token could not be decoded."
        case .keychainError: "The session could not be read or written."
        case .noSuchProvider: "The user is not linked to this provider."
        case .providerAlreadyLinked: "The user already has an identity of this provider linked."
        case .requiresRecentLogin: "This operation is sensitive and requires a recent sign-in. Sign in again, then retry."
        case .operationNotAllowed: "This sign-in provider is disabled for the project."
        case .missingOrInvalidNonce: "The request's nonce is missing or does not match the ID token's."
        case .nullUser: "No user is signed in."
        case .wrongPassword: "The password is invalid or the user does not have a password."
        case .weakPassword: "The password must be 6 characters long or more."
        case .passwordDoesNotMeetRequirements: "The password does not meet the project's password requirements."
        case .invalidEmail: "The email address is badly formatted."
        case .missingEmail: "An email address must be provided."
        case .invalidActionCode: "The action code is invalid. It may be malformed, expired, or already used."
        case .expiredActionCode: "The action code has expired."
        case .userMismatch: "The credential does not belong to the signed-in user."
        default: "An internal error occurred."
        }
    }
}

extension AuthError {
    /// Wire codes whose failure means the saved session is dead; the user is signed out locally
    /// (PROTOCOL.md §2, "iOS forced sign-out").
    var invalidatesSession: Bool {
        code == .userDisabled || code == .userNotFound || code == .invalidUserToken || code == .userTokenExpired
    }

    /// Maps a server error as FirebaseAuth's `AuthBackend` does: one table from wire code to client
    /// code; for unknown codes, `errors[].reason` `keyInvalid…` and `ipRefererBlocked`; else
    /// `internalError` carrying the server code.
    init(wire: WireError, email: String? = nil, updatedCredential: AuthCredential? = nil) {
        let serverCode = wire.code.rawValue
        var code = Self.serverCodeMap[serverCode]
        if code == nil {
            if wire.reason.hasPrefix("keyInvalid") {
                code = .invalidAPIKey
            } else if wire.reason == "ipRefererBlocked" {
                code = .appNotAuthorized
            }
        }
        self.init(
            code: code ?? .internalError, message: wire.detail, serverCode: serverCode, email: email,
            updatedCredential: updatedCredential, resolver: nil)
    }

    /// Server code → FirebaseAuth code, as `AuthBackend.clientError` maps them, plus the few codes
    /// that exist only in newer Identity Toolkit or in Hearth (`INVALID_LOGIN_CREDENTIALS`,
    /// `PROVIDER_ALREADY_LINKED`, and `MISSING_CREDENTIAL`, which `mfaSignIn:finalize` sends for a
    /// missing pending credential).
    static let serverCodeMap: [String: AuthErrorCode] = [
        "USER_NOT_FOUND": .userNotFound,
        "EMAIL_NOT_FOUND": .userNotFound,
        "MISSING_CONTINUE_URI": .missingContinueURI,
        "INVALID_IDENTIFIER": .invalidEmail,
        "INVALID_EMAIL": .invalidEmail,
        "INVALID_ID_TOKEN": .invalidUserToken,
        "TOKEN_EXPIRED": .userTokenExpired,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin,
        "EMAIL_EXISTS": .emailAlreadyInUse,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "PASSWORD_LOGIN_DISABLED": .operationNotAllowed,
        "USER_DISABLED": .userDisabled,
        "EXPIRED_OOB_CODE": .expiredActionCode,
        "INVALID_OOB_CODE": .invalidActionCode,
        "INVALID_MESSAGE_PAYLOAD": .invalidMessagePayload,
        "INVALID_SENDER": .invalidSender,
        "INVALID_RECIPIENT_EMAIL": .invalidRecipientEmail,
        "WEAK_PASSWORD": .weakPassword,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
        "MISSING_EMAIL": .missingEmail,
        "MISSING_IOS_BUNDLE_ID": .missingIosBundleID,
        "MISSING_ANDROID_PACKAGE_NAME": .missingAndroidPackageName,
        "UNAUTHORIZED_DOMAIN": .unauthorizedDomain,
        "INVALID_CONTINUE_URI": .invalidContinueURI,
        "INVALID_PASSWORD": .wrongPassword,
        "INVALID_IDP_RESPONSE": .invalidCredential,
        "INVALID_PENDING_TOKEN": .invalidCredential,
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential,
        "INVALID_CUSTOM_TOKEN": .invalidCustomToken,
        "CREDENTIAL_MISMATCH": .customTokenMismatch,
        "INVALID_PHONE_NUMBER": .invalidPhoneNumber,
        "MISSING_PHONE_NUMBER": .missingPhoneNumber,
        "MISSING_CODE": .missingVerificationCode,
        "MISSING_SESSION_INFO": .missingVerificationID,
        "QUOTA_EXCEEDED": .quotaExceeded,
        "APP_NOT_VERIFIED": .appNotVerified,
        "CAPTCHA_CHECK_FAILED": .captchaCheckFailed,
        "INVALID_APP_CREDENTIAL": .invalidAppCredential,
        "MISSING_APP_CREDENTIAL": .missingAppCredential,
        "INVALID_CODE": .invalidVerificationCode,
        "INVALID_SESSION_INFO": .invalidVerificationID,
        "SESSION_EXPIRED": .sessionExpired,
        "ADMIN_ONLY_OPERATION": .adminRestrictedOperation,
        "BLOCKING_FUNCTION_ERROR_RESPONSE": .blockingCloudFunctionError,
        "EMAIL_CHANGE_NEEDS_VERIFICATION": .emailChangeNeedsVerification,
        "INVALID_MFA_PENDING_CREDENTIAL": .invalidMultiFactorSession,
        "INVALID_PROVIDER_ID": .invalidProviderID,
        "MFA_ENROLLMENT_NOT_FOUND": .multiFactorInfoNotFound,
        "MISSING_CLIENT_IDENTIFIER": .missingClientIdentifier,
        "MISSING_IOS_APP_TOKEN": .missingAppToken,
        "MISSING_MFA_ENROLLMENT_ID": .missingMultiFactorInfo,
        "MISSING_MFA_PENDING_CREDENTIAL": .missingMultiFactorSession,
        "MISSING_CREDENTIAL": .missingMultiFactorSession,
        "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce,
        "SECOND_FACTOR_EXISTS": .secondFactorAlreadyEnrolled,
        "SECOND_FACTOR_LIMIT_EXCEEDED": .maximumSecondFactorCountExceeded,
        "TENANT_ID_MISMATCH": .tenantIDMismatch,
        "UNSUPPORTED_FIRST_FACTOR": .unsupportedFirstFactor,
        "UNSUPPORTED_TENANT_OPERATION": .unsupportedTenantOperation,
        "UNVERIFIED_EMAIL": .unverifiedEmail,
        "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse,
        "PROVIDER_ALREADY_LINKED": .providerAlreadyLinked,
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .passwordDoesNotMeetRequirements,
        "INVALID_HOSTING_LINK_DOMAIN": .invalidHostingLinkDomain,
    ]
}
