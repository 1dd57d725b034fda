/// Why JOSE refused a token, key or payload.
///
/// Each error has a stable ``code`` (compare codes, not reasons) and a human-readable ``reason``. Equality compares
/// only the code. Neither the reason nor the description ever contains the token, a signature or key material.
///
/// ```swift
/// do {
///     let jwt = try keySet.verify(token)
/// } catch {                       // error is JOSEError (typed throws)
///     switch error.code {
///     case .unknownKeyID: refetchKeys()
///     default: reject(error.code.description)
///     }
/// }
/// ```
public struct JOSEError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A stable error code. It is a struct over a private enum, so codes can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case malformedToken
            case invalidHeader
            case unsupportedAlgorithm
            case algorithmMismatch
            case missingKeyID
            case unknownKeyID
            case invalidSignature
            case invalidPayload
            case invalidKey
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// Not three non-empty base64url segments separated by dots (`=` padding is refused).
        public static let malformedToken = Code(.malformedToken)
        /// The protected header is not a JSON object with a string `alg`, or uses `crit`.
        public static let invalidHeader = Code(.invalidHeader)
        /// `alg` is `none` (in any case) or not a registered JWS algorithm.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// `alg` names a registered algorithm other than the one the selected key is bound to.
        public static let algorithmMismatch = Code(.algorithmMismatch)
        /// The header has no `kid`, or an empty one.
        public static let missingKeyID = Code(.missingKeyID)
        /// No key in the set has the header's `kid`.
        public static let unknownKeyID = Code(.unknownKeyID)
        /// The signature is empty or does not verify.
        public static let invalidSignature = Code(.invalidSignature)
        /// The payload is not a JSON object, or cannot be decoded as the requested claims type.
        public static let invalidPayload = Code(.invalidPayload)
        /// A JSON Web Key cannot be used (wrong `kty` or `crv`, an `alg` that does not fit its type, missing or bad
        /// `n`/`e`/`x`/`y`, too small, not a point on the curve).
        public static let invalidKey = Code(.invalidKey)

        /// The code's stable name, such as `"unknownKeyID"`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation, safe to log.
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

    public static func == (lhs: JOSEError, rhs: JOSEError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String { "JOSEError.\(code): \(reason)" }
}

extension JOSEError {
    /// Quotes a value taken from a token (such as a `kid`) for an error reason: escaped and cut to 64 characters,
    /// so a hostile value cannot forge log lines or flood them.
    static func quoted(_ value: String) -> String {
        let cut = value.count > 64 ? String(value.prefix(64)) + "…" : value
        return String(reflecting: cut)
    }
}
