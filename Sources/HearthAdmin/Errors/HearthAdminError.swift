/// Why an ``AdminAuth`` call failed.
///
/// Each error has a stable ``code`` (switch on codes, not messages) and a ``message`` that keeps the server's own
/// detail. When Hearth refused the call, ``serverCode`` holds the code it sent (`USER_NOT_FOUND`, …) and
/// ``httpStatus`` the status. Equality compares only the code. No message ever contains a token, a password or a key.
///
/// ```swift
/// do {
///     let user = try await auth.getUser(email: "ada@example.com")
/// } catch where error.code == .userNotFound {
///     …
/// }
/// ```
public struct HearthAdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code: a struct over a private enum, so codes can be added without breaking callers'
    /// `switch` statements (which need a `default`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case userNotFound, emailAlreadyExists, uidAlreadyExists, phoneNumberAlreadyExists, emailNotFound
            case userDisabled, userNotDisabled
            case invalidIDToken, idTokenExpired, idTokenRevoked
            case invalidSessionCookie, sessionCookieExpired, sessionCookieRevoked, invalidSessionCookieDuration
            case invalidArgument, invalidUID, missingUID, invalidEmail, invalidPhoneNumber, invalidPassword
            case invalidDisplayName, invalidPhotoURL, invalidPageToken, invalidUserImport
            case invalidClaims, claimsTooLarge, forbiddenClaim, maximumUserCountExceeded
            case invalidCredential, insufficientPermission, operationNotAllowed, projectNotFound
            case configurationNotFound, invalidConfig, tenantNotFound, invalidTenantID, tenantIDMismatch, tooManyRequests
            case networkError, unexpectedResponse, internalError
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// No user matches (`USER_NOT_FOUND`, or a lookup that found nobody).
        public static let userNotFound = Code(.userNotFound)
        /// Another user has this email (`EMAIL_EXISTS`, `DUPLICATE_EMAIL`).
        public static let emailAlreadyExists = Code(.emailAlreadyExists)
        /// Another user has this uid (`DUPLICATE_LOCAL_ID`).
        public static let uidAlreadyExists = Code(.uidAlreadyExists)
        /// Another user has this phone number (`PHONE_NUMBER_EXISTS`).
        public static let phoneNumberAlreadyExists = Code(.phoneNumberAlreadyExists)
        /// No user has this email (`EMAIL_NOT_FOUND`).
        public static let emailNotFound = Code(.emailNotFound)
        /// The user is disabled (`USER_DISABLED`, or a revocation check found `disabled`).
        public static let userDisabled = Code(.userDisabled)
        /// `deleteUsers` without force met an enabled user (`NOT_DISABLED`, per row).
        public static let userNotDisabled = Code(.userNotDisabled)
        /// The ID token is not valid: malformed, badly signed, or for another project or issuer (`INVALID_ID_TOKEN`).
        public static let invalidIDToken = Code(.invalidIDToken)
        /// The ID token has expired (`TOKEN_EXPIRED`).
        public static let idTokenExpired = Code(.idTokenExpired)
        /// The user's sessions were revoked after the ID token was issued.
        public static let idTokenRevoked = Code(.idTokenRevoked)
        /// The session cookie is not valid.
        public static let invalidSessionCookie = Code(.invalidSessionCookie)
        /// The session cookie has expired.
        public static let sessionCookieExpired = Code(.sessionCookieExpired)
        /// The user's sessions were revoked after the session cookie was issued.
        public static let sessionCookieRevoked = Code(.sessionCookieRevoked)
        /// A session cookie lifetime outside 5 minutes…14 days (`INVALID_DURATION`).
        public static let invalidSessionCookieDuration = Code(.invalidSessionCookieDuration)
        /// An argument is not acceptable (`INVALID_ARGUMENT`, or checked before sending).
        public static let invalidArgument = Code(.invalidArgument)
        /// A uid that is empty or longer than 128 characters.
        public static let invalidUID = Code(.invalidUID)
        /// No uid was given (`MISSING_LOCAL_ID`, `MISSING_USER_ACCOUNT`).
        public static let missingUID = Code(.missingUID)
        /// An email Hearth refuses (`INVALID_EMAIL`).
        public static let invalidEmail = Code(.invalidEmail)
        /// A phone number Hearth refuses (`INVALID_PHONE_NUMBER`).
        public static let invalidPhoneNumber = Code(.invalidPhoneNumber)
        /// A password Hearth refuses (`WEAK_PASSWORD`).
        public static let invalidPassword = Code(.invalidPassword)
        /// A display name Hearth refuses (`INVALID_DISPLAY_NAME`).
        public static let invalidDisplayName = Code(.invalidDisplayName)
        /// A photo URL Hearth refuses (`INVALID_PHOTO_URL`).
        public static let invalidPhotoURL = Code(.invalidPhotoURL)
        /// A page token Hearth does not know (`INVALID_PAGE_SELECTION`).
        public static let invalidPageToken = Code(.invalidPageToken)
        /// One row of `importUsers` was refused for a reason without a code of its own.
        public static let invalidUserImport = Code(.invalidUserImport)
        /// Custom claims that are not a JSON object (`INVALID_CLAIMS`).
        public static let invalidClaims = Code(.invalidClaims)
        /// Custom claims longer than 1,000 characters (UTF-16 code units) as JSON (`CLAIMS_TOO_LARGE`).
        public static let claimsTooLarge = Code(.claimsTooLarge)
        /// A custom claim with a reserved name such as `sub` or `firebase` (`FORBIDDEN_CLAIM`).
        public static let forbiddenClaim = Code(.forbiddenClaim)
        /// Too many users in one call (over 100 for `getUsers`, 1,000 for `deleteUsers` and `importUsers`).
        public static let maximumUserCountExceeded = Code(.maximumUserCountExceeded)
        /// The credential is unusable: a bad service-account file, a refused JWT-bearer grant, or admin calls
        /// answered 401 (`UNAUTHENTICATED`).
        public static let invalidCredential = Code(.invalidCredential)
        /// The credential may not make this call (`INSUFFICIENT_PERMISSION`, `PERMISSION_DENIED`).
        public static let insufficientPermission = Code(.insufficientPermission)
        /// The operation is switched off on this server (`OPERATION_NOT_ALLOWED`).
        public static let operationNotAllowed = Code(.operationNotAllowed)
        /// The project ID is not this server's (`PROJECT_NOT_FOUND`).
        public static let projectNotFound = Code(.projectNotFound)
        /// `CONFIGURATION_NOT_FOUND`.
        public static let configurationNotFound = Code(.configurationNotFound)
        /// A configuration field the server does not have, or a value it cannot take (`INVALID_CONFIG`).
        public static let invalidConfig = Code(.invalidConfig)
        /// `TENANT_NOT_FOUND`.
        public static let tenantNotFound = Code(.tenantNotFound)
        /// `INVALID_TENANT_ID`: an id no tenant can have.
        public static let invalidTenantID = Code(.invalidTenantID)
        /// `TENANT_ID_MISMATCH`: a token or user of another tenant (or of the project) was given to a tenant's
        /// ``AdminAuth``, or the other way round.
        public static let tenantIDMismatch = Code(.tenantIDMismatch)
        /// Hearth's rate limits refused the call (`TOO_MANY_ATTEMPTS_TRY_LATER`).
        public static let tooManyRequests = Code(.tooManyRequests)
        /// No HTTP answer arrived.
        public static let networkError = Code(.networkError)
        /// An answer that is not what the endpoint sends (not JSON, fields missing).
        public static let unexpectedResponse = Code(.unexpectedResponse)
        /// Any other server error; ``HearthAdminError/serverCode`` says which.
        public static let internalError = Code(.internalError)

        /// The code's stable name, such as `"userNotFound"`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation: the server's detail when it sent one.
    public let message: String
    /// The code Hearth sent (`USER_NOT_FOUND`, `INVALID_ARGUMENT`, …), when the error came from its error envelope.
    public let serverCode: String?
    /// The HTTP status of Hearth's answer, when there was one.
    public let httpStatus: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: an explanation; must not contain tokens, passwords or keys.
    ///   - serverCode: the wire code, if the server sent one.
    ///   - httpStatus: the HTTP status, if there was an answer.
    public init(_ code: Code, message: String, serverCode: String? = nil, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
        self.httpStatus = httpStatus
    }

    public static func == (lhs: HearthAdminError, rhs: HearthAdminError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String {
        let server = serverCode.map { " [\($0)\(httpStatus.map { ", HTTP \($0)" } ?? "")]" } ?? ""
        return "HearthAdminError.\(code): \(message)\(server)"
    }
}
