import Foundation
import HearthProtocol

extension HearthAdminError {
    /// Server codes and the admin codes they become: firebase-admin-node's `AUTH_SERVER_TO_CLIENT_CODE`, the
    /// codes firebase-admin-python maps, and `UNAUTHENTICATED`/`NOT_DISABLED`, which Hearth sends to admin callers.
    static let serverCodes: [String: Code] = [
        "USER_NOT_FOUND": .userNotFound,
        "EMAIL_EXISTS": .emailAlreadyExists, "DUPLICATE_EMAIL": .emailAlreadyExists,
        "DUPLICATE_LOCAL_ID": .uidAlreadyExists,
        "PHONE_NUMBER_EXISTS": .phoneNumberAlreadyExists,
        "EMAIL_NOT_FOUND": .emailNotFound,
        "USER_DISABLED": .userDisabled, "NOT_DISABLED": .userNotDisabled,
        "INVALID_ID_TOKEN": .invalidIDToken, "TOKEN_EXPIRED": .idTokenExpired,
        "INVALID_DURATION": .invalidSessionCookieDuration,
        "INVALID_ARGUMENT": .invalidArgument,
        "MISSING_LOCAL_ID": .missingUID, "MISSING_USER_ACCOUNT": .missingUID,
        "INVALID_EMAIL": .invalidEmail, "INVALID_PHONE_NUMBER": .invalidPhoneNumber, "WEAK_PASSWORD": .invalidPassword,
        "INVALID_DISPLAY_NAME": .invalidDisplayName, "INVALID_PHOTO_URL": .invalidPhotoURL,
        "INVALID_PAGE_SELECTION": .invalidPageToken,
        "INVALID_CLAIMS": .invalidClaims, "CLAIMS_TOO_LARGE": .claimsTooLarge, "FORBIDDEN_CLAIM": .forbiddenClaim,
        "LOCAL_ID_LIST_EXCEEDS_LIMIT": .maximumUserCountExceeded, "MAXIMUM_USER_COUNT_EXCEEDED": .maximumUserCountExceeded,
        "UNAUTHENTICATED": .invalidCredential, "INVALID_SERVICE_ACCOUNT": .invalidCredential,
        "INSUFFICIENT_PERMISSION": .insufficientPermission, "PERMISSION_DENIED": .insufficientPermission,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "PROJECT_NOT_FOUND": .projectNotFound,
        "CONFIGURATION_NOT_FOUND": .configurationNotFound, "INVALID_CONFIG": .invalidConfig,
        "TENANT_NOT_FOUND": .tenantNotFound, "INVALID_TENANT_ID": .invalidTenantID,
        "TENANT_ID_MISMATCH": .tenantIDMismatch,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
    ]

    /// The error for Hearth's error envelope: the mapped code, the server's detail (or its code when it sent
    /// none), the raw code and the status.
    init(wire: WireError) {
        let serverCode = wire.code.rawValue
        self.init(
            Self.serverCodes[serverCode] ?? .internalError, message: wire.detail ?? serverCode, serverCode: serverCode,
            httpStatus: wire.httpStatus)
    }

    /// The error for one failed row of a batch call, whose `message` is `CODE`, `CODE : detail` or (for an
    /// import) a plain sentence; ``serverCode`` is set only when the message starts with a code.
    ///
    /// - Parameter unknown: the code for a message without a code, or whose code has no mapping.
    init(rowMessage: String, unknown: Code) {
        let parts = rowMessage.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let code = parts[0].trimmingCharacters(in: .whitespaces)
        guard Self.isServerCode(code) else {
            self.init(unknown, message: rowMessage)
            return
        }
        let detail = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        self.init(Self.serverCodes[code] ?? unknown, message: detail.isEmpty ? code : detail, serverCode: code)
    }

    /// Whether `text` has the shape of a wire code such as `EMAIL_EXISTS`: capital letters, digits and underscores.
    private static func isServerCode(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
