/// A request that HearthCrypto refuses before or instead of asking OpenSSL: a key that is too small, a PEM block
/// of the wrong kind, inconsistent key components, a point not on the curve, an invalid certificate field.
///
/// Failures *inside* OpenSSL are reported as ``OpenSSLError``. Equality compares only the ``code``.
///
/// ```swift
/// do {
///     _ = try RSAPublicKey(modulus: tinyModulus, exponent: [1, 0, 1])
/// } catch let error as CryptoError where error.code == .keyTooSmall {
///     // refuse the key
/// }
/// ```
public struct CryptoError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A stable error code. New codes may be added without breaking exhaustive code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case keyTooSmall
            case keyTooLarge
            case invalidKey
            case unsupportedKeyType
            case unsupportedFormat
            case invalidArgument
            case authenticationFailed
            case unknownKey
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The RSA modulus is shorter than ``RSAPublicKey/minimumBitCount`` (2048 bits).
        public static let keyTooSmall = Code(.keyTooSmall)
        /// The RSA modulus is longer than ``RSAPublicKey/maximumBitCount`` (16384 bits).
        public static let keyTooLarge = Code(.keyTooLarge)
        /// The key's numbers are malformed or do not belong together.
        public static let invalidKey = Code(.invalidKey)
        /// The key is not of the type asked for (for example an EC key where an RSA key is needed, or an EC key on
        /// a curve other than P-256).
        public static let unsupportedKeyType = Code(.unsupportedKeyType)
        /// The input is not in a format HearthCrypto reads (unknown or encrypted PEM block, bad DER).
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// An argument is outside its allowed range (for example an empty certificate common name).
        public static let invalidArgument = Code(.invalidArgument)
        /// Sealed data did not authenticate: wrong key, nonce or associated data, or changed bytes.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// Sealed data names a key that is not among the keys given to open it.
        public static let unknownKey = Code(.unknownKey)

        public var description: String { base.rawValue }
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A human-readable explanation. It never contains key material.
    public let reason: String

    /// Creates an error with a code and an explanation.
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String { "CryptoError.\(code): \(reason)" }
}
