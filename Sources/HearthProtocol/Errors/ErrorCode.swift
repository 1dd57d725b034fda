/// A Firebase Auth wire error code, such as `EMAIL_EXISTS` or `INVALID_ID_TOKEN`.
///
/// The raw value is exactly what goes on the wire. Codes that name a whole class of failure
/// (`PERMISSION_DENIED`, `NOT_FOUND`, …) are *canonical*: their envelope carries a `status` field and
/// their message is a sentence rather than `CODE : detail` (PROTOCOL.md §2).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The HTTP status this code is sent with.
    public var httpStatus: Int { Self.statusTable[self] ?? 400 }

    /// Whether the code is a canonical status (`PERMISSION_DENIED`, …) rather than an application code.
    public var isCanonical: Bool { Self.statusTable[self] != nil || self == .invalidArgument }

    private static let statusTable: [ErrorCode: Int] = [
        .unauthenticated: 401, .permissionDenied: 403, .notFound: 404, .methodNotAllowed: 405,
        .payloadTooLarge: 413, .headersTooLarge: 431, .internalError: 500, .notImplemented: 501,
        .unavailable: 503,
    ]

    // Canonical statuses.
    public static let invalidArgument = ErrorCode(rawValue: "INVALID_ARGUMENT")
    public static let unauthenticated = ErrorCode(rawValue: "UNAUTHENTICATED")
    public static let permissionDenied = ErrorCode(rawValue: "PERMISSION_DENIED")
    public static let notFound = ErrorCode(rawValue: "NOT_FOUND")
    public static let methodNotAllowed = ErrorCode(rawValue: "METHOD_NOT_ALLOWED")
    public static let payloadTooLarge = ErrorCode(rawValue: "PAYLOAD_TOO_LARGE")
    public static let headersTooLarge = ErrorCode(rawValue: "REQUEST_HEADER_FIELDS_TOO_LARGE")
    public static let internalError = ErrorCode(rawValue: "INTERNAL")
    public static let notImplemented = ErrorCode(rawValue: "NOT_IMPLEMENTED")
    public static let unavailable = ErrorCode(rawValue: "UNAVAILABLE")

    // Application codes (Identity Toolkit and Secure Token).
    public static let emailExists = ErrorCode(rawValue: "EMAIL_EXISTS")
    public static let invalidEmail = ErrorCode(rawValue: "INVALID_EMAIL")
    public static let invalidIDToken = ErrorCode(rawValue: "INVALID_ID_TOKEN")
    public static let missingIDToken = ErrorCode(rawValue: "MISSING_ID_TOKEN")
    public static let tokenExpired = ErrorCode(rawValue: "TOKEN_EXPIRED")
    public static let userDisabled = ErrorCode(rawValue: "USER_DISABLED")
    public static let userNotFound = ErrorCode(rawValue: "USER_NOT_FOUND")
    public static let missingLocalID = ErrorCode(rawValue: "MISSING_LOCAL_ID")
    public static let invalidIdpResponse = ErrorCode(rawValue: "INVALID_IDP_RESPONSE")
    public static let invalidCredentialOrProviderID = ErrorCode(rawValue: "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    /// `revokeToken` for a provider other than Apple.
    public static let invalidProviderID = ErrorCode(rawValue: "INVALID_PROVIDER_ID")
    public static let missingRequestURI = ErrorCode(rawValue: "MISSING_REQUEST_URI")
    public static let invalidRequestURI = ErrorCode(rawValue: "INVALID_REQUEST_URI")
    public static let missingOrInvalidNonce = ErrorCode(rawValue: "MISSING_OR_INVALID_NONCE")
    public static let federatedUserIDAlreadyLinked = ErrorCode(rawValue: "FEDERATED_USER_ID_ALREADY_LINKED")
    public static let operationNotAllowed = ErrorCode(rawValue: "OPERATION_NOT_ALLOWED")
    public static let invalidPendingToken = ErrorCode(rawValue: "INVALID_PENDING_TOKEN")
    public static let missingGrantType = ErrorCode(rawValue: "MISSING_GRANT_TYPE")
    public static let invalidGrantType = ErrorCode(rawValue: "INVALID_GRANT_TYPE")
    public static let missingRefreshToken = ErrorCode(rawValue: "MISSING_REFRESH_TOKEN")
    public static let invalidRefreshToken = ErrorCode(rawValue: "INVALID_REFRESH_TOKEN")
    public static let insufficientPermission = ErrorCode(rawValue: "INSUFFICIENT_PERMISSION")
    public static let invalidReqType = ErrorCode(rawValue: "INVALID_REQ_TYPE")
    public static let unexpectedParameter = ErrorCode(rawValue: "UNEXPECTED_PARAMETER")
    public static let invalidPhotoURL = ErrorCode(rawValue: "INVALID_PHOTO_URL")
    public static let invalidDisplayName = ErrorCode(rawValue: "INVALID_DISPLAY_NAME")
    public static let projectNotFound = ErrorCode(rawValue: "PROJECT_NOT_FOUND")
    public static let tenantIDMismatch = ErrorCode(rawValue: "TENANT_ID_MISMATCH")
    public static let tenantNotFound = ErrorCode(rawValue: "TENANT_NOT_FOUND")
    /// A client call to a tenant whose `disableAuth` is set (the emulator's code).
    public static let projectDisabled = ErrorCode(rawValue: "PROJECT_DISABLED")
    /// An anonymous sign-up where anonymous users are off (the emulator's code).
    public static let adminOnlyOperation = ErrorCode(rawValue: "ADMIN_ONLY_OPERATION")
    public static let invalidTenantID = ErrorCode(rawValue: "INVALID_TENANT_ID")
    public static let providerAlreadyLinked = ErrorCode(rawValue: "PROVIDER_ALREADY_LINKED")
    public static let invalidOOBCode = ErrorCode(rawValue: "INVALID_OOB_CODE")
    // Admin API (PROTOCOL.md §3.1, §3.6, §3.14).
    public static let duplicateLocalID = ErrorCode(rawValue: "DUPLICATE_LOCAL_ID")
    public static let phoneNumberExists = ErrorCode(rawValue: "PHONE_NUMBER_EXISTS")
    public static let invalidClaims = ErrorCode(rawValue: "INVALID_CLAIMS")
    public static let claimsTooLarge = ErrorCode(rawValue: "CLAIMS_TOO_LARGE")
    public static let forbiddenClaim = ErrorCode(rawValue: "FORBIDDEN_CLAIM")
    public static let missingProviderID = ErrorCode(rawValue: "MISSING_PROVIDER_ID")
    public static let missingRawID = ErrorCode(rawValue: "MISSING_RAW_ID")
    public static let invalidMFAPhoneNumber = ErrorCode(rawValue: "INVALID_MFA_PHONE_NUMBER")
    public static let duplicateMFAEnrollment = ErrorCode(rawValue: "DUPLICATE_MFA_ENROLLMENT_ID")
    public static let invalidHostingLinkDomain = ErrorCode(rawValue: "INVALID_HOSTING_LINK_DOMAIN")
    public static let localIDListExceedsLimit = ErrorCode(rawValue: "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    public static let notDisabled = ErrorCode(rawValue: "NOT_DISABLED")
    public static let invalidPageSelection = ErrorCode(rawValue: "INVALID_PAGE_SELECTION")
    public static let missingUserAccount = ErrorCode(rawValue: "MISSING_USER_ACCOUNT")
    public static let duplicateEmail = ErrorCode(rawValue: "DUPLICATE_EMAIL")
    public static let duplicateRawID = ErrorCode(rawValue: "DUPLICATE_RAW_ID")
    public static let invalidDuration = ErrorCode(rawValue: "INVALID_DURATION")
    // Passwords and email actions (PROTOCOL.md §3.1–3.2, §3.6, §3.8–3.11).
    public static let missingEmail = ErrorCode(rawValue: "MISSING_EMAIL")
    public static let missingPassword = ErrorCode(rawValue: "MISSING_PASSWORD")
    public static let missingNewEmail = ErrorCode(rawValue: "MISSING_NEW_EMAIL")
    public static let missingReqType = ErrorCode(rawValue: "MISSING_REQ_TYPE")
    public static let missingOOBCode = ErrorCode(rawValue: "MISSING_OOB_CODE")
    public static let expiredOOBCode = ErrorCode(rawValue: "EXPIRED_OOB_CODE")
    public static let weakPassword = ErrorCode(rawValue: "WEAK_PASSWORD")
    public static let passwordDoesNotMeetRequirements = ErrorCode(rawValue: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    public static let emailNotFound = ErrorCode(rawValue: "EMAIL_NOT_FOUND")
    public static let invalidPassword = ErrorCode(rawValue: "INVALID_PASSWORD")
    /// Every credential failure of a password sign-in while email enumeration protection is on.
    public static let invalidLoginCredentials = ErrorCode(rawValue: "INVALID_LOGIN_CREDENTIALS")
    public static let passwordLoginDisabled = ErrorCode(rawValue: "PASSWORD_LOGIN_DISABLED")
    public static let credentialTooOldLoginAgain = ErrorCode(rawValue: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    public static let invalidIdentifier = ErrorCode(rawValue: "INVALID_IDENTIFIER")
    public static let missingContinueURI = ErrorCode(rawValue: "MISSING_CONTINUE_URI")
    public static let invalidContinueURI = ErrorCode(rawValue: "INVALID_CONTINUE_URI")
    /// A continue URL whose host is not one of the project's authorized domains.
    public static let unauthorizedDomain = ErrorCode(rawValue: "UNAUTHORIZED_DOMAIN")
    public static let resetPasswordExceedLimit = ErrorCode(rawValue: "RESET_PASSWORD_EXCEED_LIMIT")
    public static let invalidHashAlgorithm = ErrorCode(rawValue: "INVALID_HASH_ALGORITHM")
    public static let invalidHashRounds = ErrorCode(rawValue: "INVALID_HASH_ROUNDS")
    public static let invalidHashMemoryCost = ErrorCode(rawValue: "INVALID_HASH_MEMORY_COST")
    public static let invalidHashKey = ErrorCode(rawValue: "INVALID_HASH_KEY")
    public static let invalidHashSaltSeparator = ErrorCode(rawValue: "INVALID_HASH_SALT_SEPARATOR")
    public static let invalidHashParallelization = ErrorCode(rawValue: "INVALID_HASH_PARALLELIZATION")
    public static let invalidHashBlockSize = ErrorCode(rawValue: "INVALID_HASH_BLOCK_SIZE")
    public static let invalidHashDerivedKeyLength = ErrorCode(rawValue: "INVALID_HASH_DERIVED_KEY_LENGTH")
    // Multi-factor (PROTOCOL.md §6).
    public static let missingMFAPendingCredential = ErrorCode(rawValue: "MISSING_MFA_PENDING_CREDENTIAL")
    public static let missingCredential = ErrorCode(rawValue: "MISSING_CREDENTIAL")
    public static let invalidMFAPendingCredential = ErrorCode(rawValue: "INVALID_MFA_PENDING_CREDENTIAL")
    public static let missingMFAEnrollmentID = ErrorCode(rawValue: "MISSING_MFA_ENROLLMENT_ID")
    public static let mfaEnrollmentNotFound = ErrorCode(rawValue: "MFA_ENROLLMENT_NOT_FOUND")
    public static let missingCode = ErrorCode(rawValue: "MISSING_CODE")
    public static let invalidCode = ErrorCode(rawValue: "INVALID_CODE")
    public static let missingSessionInfo = ErrorCode(rawValue: "MISSING_SESSION_INFO")
    public static let invalidSessionInfo = ErrorCode(rawValue: "INVALID_SESSION_INFO")
    public static let sessionExpired = ErrorCode(rawValue: "SESSION_EXPIRED")
    public static let invalidPhoneNumber = ErrorCode(rawValue: "INVALID_PHONE_NUMBER")
    public static let missingPhoneNumber = ErrorCode(rawValue: "MISSING_PHONE_NUMBER")
    public static let secondFactorExists = ErrorCode(rawValue: "SECOND_FACTOR_EXISTS")
    public static let secondFactorLimitExceeded = ErrorCode(rawValue: "SECOND_FACTOR_LIMIT_EXCEEDED")
    public static let unsupportedFirstFactor = ErrorCode(rawValue: "UNSUPPORTED_FIRST_FACTOR")
    public static let unverifiedEmail = ErrorCode(rawValue: "UNVERIFIED_EMAIL")
    public static let quotaExceeded = ErrorCode(rawValue: "QUOTA_EXCEEDED")
    public static let tooManyAttemptsTryLater = ErrorCode(rawValue: "TOO_MANY_ATTEMPTS_TRY_LATER")
    // Provider configurations (`oauthIdpConfigs`, `defaultSupportedIdpConfigs`), as Identity Platform names them.
    public static let configurationNotFound = ErrorCode(rawValue: "CONFIGURATION_NOT_FOUND")
    public static let configurationExists = ErrorCode(rawValue: "CONFIGURATION_EXISTS")
    public static let invalidConfig = ErrorCode(rawValue: "INVALID_CONFIG")
    public static let missingIssuer = ErrorCode(rawValue: "MISSING_ISSUER")
    public static let missingOAuthClientID = ErrorCode(rawValue: "MISSING_OAUTH_CLIENT_ID")
}
