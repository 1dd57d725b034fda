/// Why a call from Hearth to Apple's token or revocation endpoint failed, as a stable ``code``.
///
/// Neither the reason nor the description ever contains a token, an authorization code or the client secret.
/// ``isRetryable`` says whether the same call may succeed later unchanged (Apple unreachable, overloaded or failing).
public struct AppleClientError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A stable error code. New codes may be added without breaking exhaustive code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidGrant
            case invalidClient
            case invalidRequest
            case rejected
            case unavailable
            case invalidResponse
            case invalidConfiguration
            case signingFailed
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// Apple's `invalid_grant`: the code or token is expired, already used, revoked, or not for this client or
        /// redirect URI. Retrying the same call cannot help.
        public static let invalidGrant = Code(.invalidGrant)
        /// Apple's `invalid_client`: the client ID, team ID, key ID or key does not match, or the secret expired.
        /// An operator has to fix the configuration.
        public static let invalidClient = Code(.invalidClient)
        /// Apple's `invalid_request`: a parameter is missing or malformed.
        public static let invalidRequest = Code(.invalidRequest)
        /// Any other error Apple names (`unauthorized_client`, `unsupported_grant_type`, `invalid_scope`, …); the
        /// name is in ``AppleClientError/appleError``.
        public static let rejected = Code(.rejected)
        /// Apple could not be reached, timed out, or answered HTTP 5xx or 429. Retryable.
        public static let unavailable = Code(.unavailable)
        /// Apple answered something Hearth cannot read: another status, or a token answer without its tokens.
        public static let invalidResponse = Code(.invalidResponse)
        /// The team ID, key ID, client ID or lifetime given to Hearth is unusable.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The client secret could not be signed (OpenSSL failed).
        public static let signingFailed = Code(.signingFailed)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The `error` value of Apple's answer (`"invalid_grant"`, …), when Apple sent one.
    public let appleError: String?
    /// The HTTP status of Apple's answer, when there was one.
    public let status: Int?
    /// A human-readable explanation, safe to log.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, reason: String, appleError: String? = nil, status: Int? = nil) {
        self.code = code
        self.reason = reason
        self.appleError = appleError
        self.status = status
    }

    /// Whether the same call may succeed later: only when Apple was unreachable or failing (``Code/unavailable``).
    public var isRetryable: Bool { code == .unavailable }

    public static func == (lhs: AppleClientError, rhs: AppleClientError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String { "AppleClientError.\(code): \(reason)" }
}
