/// Why an ID token was refused.
///
/// Each error has a stable ``code`` (switch on codes, not reasons) and a human-readable ``reason`` that is safe to
/// log. Equality compares only the code. Neither the reason nor the description ever contains the token, and values
/// taken from the token (a `kid`, an `iss`) appear escaped and cut short.
///
/// ```swift
/// do {
///     let user = try verifier.verify(token)
/// } catch {                              // error is VerificationError (typed throws)
///     switch error.code {
///     case .expired: askClientToRefresh()
///     case .keysUnavailable, .revocationCheckFailed: answer503()
///     default: answer401(wwwAuthenticate: error.wwwAuthenticateHeader)
///     }
/// }
/// ```
public struct VerificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code. It is a struct over a private enum, so codes can be added without breaking callers'
    /// `switch` statements (which need a `default`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case missingToken
            case malformedToken
            case missingKeyID
            case unknownKeyID
            case unsupportedAlgorithm
            case invalidSignature
            case wrongIssuer
            case wrongAudience
            case invalidSubject
            case expired
            case issuedInFuture
            case authTimeInFuture
            case notYetValid
            case missingClaim
            case wrongTenant
            case keysUnavailable
            case revoked
            case userDisabled
            case userNotFound
            case revocationCheckFailed
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// No token at all: an empty string, or no usable `Authorization` header.
        public static let missingToken = Code(.missingToken)
        /// Not a compact JWS with a JSON-object header and payload, or a claim has the wrong JSON type (a time claim
        /// that is not whole seconds between 1970 and 9999 included).
        public static let malformedToken = Code(.malformedToken)
        /// The header has no `kid` (or an empty one).
        public static let missingKeyID = Code(.missingKeyID)
        /// No published key has the header's `kid`, even after refetching the JWKS.
        public static let unknownKeyID = Code(.unknownKeyID)
        /// `alg` is not RS256 (including `none`, HS256, and algorithms other than the key's).
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The signature is empty or does not verify with the key named by `kid`.
        public static let invalidSignature = Code(.invalidSignature)
        /// `iss` is not the configured issuer.
        public static let wrongIssuer = Code(.wrongIssuer)
        /// `aud` is not the project ID.
        public static let wrongAudience = Code(.wrongAudience)
        /// `sub` is not a non-empty string of at most 128 characters.
        public static let invalidSubject = Code(.invalidSubject)
        /// `exp` has passed (allowing for the clock skew).
        public static let expired = Code(.expired)
        /// `iat` is in the future (beyond the clock skew).
        public static let issuedInFuture = Code(.issuedInFuture)
        /// `auth_time` is in the future (beyond the clock skew).
        public static let authTimeInFuture = Code(.authTimeInFuture)
        /// `nbf` is in the future (beyond the clock skew).
        public static let notYetValid = Code(.notYetValid)
        /// A required claim (`iss`, `aud`, `sub`, `exp`, `iat`, `auth_time`) is absent.
        public static let missingClaim = Code(.missingClaim)
        /// The token's tenant (`firebase.tenant`) is not the one the verifier requires (``IDTokenVerifier/TenantCheck``),
        /// as firebase-admin's `TenantIdMismatchError`.
        public static let wrongTenant = Code(.wrongTenant)
        /// The verification keys could not be fetched and none are cached. A server-side problem: answer 503.
        public static let keysUnavailable = Code(.keysUnavailable)
        /// The user's sessions were revoked after this token was issued (`TOKEN_EXPIRED` from Hearth).
        public static let revoked = Code(.revoked)
        /// The user is disabled.
        public static let userDisabled = Code(.userDisabled)
        /// The user no longer exists.
        public static let userNotFound = Code(.userNotFound)
        /// Hearth could not be asked whether the token is revoked. A server-side problem: answer 503.
        public static let revocationCheckFailed = Code(.revocationCheckFailed)

        /// The code's stable name, such as `"expired"`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation, safe to log and to show to the client.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - reason: an explanation; must not contain the token or secrets.
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: VerificationError, rhs: VerificationError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String { "VerificationError.\(code): \(reason)" }
}

extension VerificationError {
    /// Quotes a value taken from a token for a reason: escaped and cut to 64 characters, so a hostile value can
    /// neither forge log lines nor flood them.
    static func quoted(_ value: String) -> String {
        let cut = value.count > 64 ? String(value.prefix(64)) + "…" : value
        return String(reflecting: cut)
    }
}
