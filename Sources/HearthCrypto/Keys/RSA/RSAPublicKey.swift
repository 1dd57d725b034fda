internal import COpenSSL

/// An RSA public key that checks RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// Keys are immutable values; copies share one OpenSSL key. Every method is safe to call from many threads at once.
/// The modulus must be 2048 to 16384 bits long (RFC 7518 §3.3 requires at least 2048 for RS256).
///
/// ```swift
/// let key = try RSAPublicKey(pemRepresentation: pem)
/// if key.isValidSHA256Signature(signature, for: Array(signingInput.utf8)) { … }
/// ```
public struct RSAPublicKey: Sendable, Equatable {
    /// The smallest accepted modulus length, in bits.
    public static let minimumBitCount = 2048
    /// The largest accepted modulus length, in bits (OpenSSL's own limit for RSA operations).
    public static let maximumBitCount = 16384

    private let backing: Backing

    /// Reads a PEM public key: SPKI (`-----BEGIN PUBLIC KEY-----`) or PKCS#1 (`-----BEGIN RSA PUBLIC KEY-----`).
    ///
    /// Text before the first PEM block is ignored; only the first block is read.
    ///
    /// - Throws: ``CryptoError`` with `.unsupportedFormat` for other PEM blocks or bad DER, `.unsupportedKeyType`
    ///   for keys that are not RSA, `.keyTooSmall`/`.keyTooLarge`/`.invalidKey` for keys outside the policy;
    ///   ``OpenSSLError`` when OpenSSL fails.
    public init(pemRepresentation: String) throws {
        let block = try MemoryBIO.readPEMBlock(pemRepresentation)
        let structure: UnsafePointer<CChar>
        switch block.label {
        case "PUBLIC KEY": structure = CName.subjectPublicKeyInfo
        case "RSA PUBLIC KEY": structure = CName.typeSpecific
        default:
            throw CryptoError(.unsupportedFormat, reason: "expected a PUBLIC KEY or RSA PUBLIC KEY PEM block, found \(block.label)")
        }
        let key = try KeyMaterial.decode(der: block.der, structure: structure, part: .publicKey)
        self.backing = try Backing.adopting(key)
    }

    /// Builds a key from its numbers, as found in a JWK's `n` and `e` (RFC 7518 §6.3.1).
    ///
    /// - Parameters:
    ///   - modulus: big-endian modulus `n`; leading zero bytes are ignored.
    ///   - exponent: big-endian public exponent `e` (usually `[0x01, 0x00, 0x01]`).
    /// - Throws: ``CryptoError`` `.keyTooSmall` for a modulus under 2048 bits, `.keyTooLarge` over 16384 bits,
    ///   `.invalidKey` for an even modulus or an exponent that is even, 1, or longer than 64 bits;
    ///   ``OpenSSLError`` when OpenSSL fails.
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        let modulus = BigNumber.trimmed(modulus)
        let exponent = BigNumber.trimmed(exponent)
        _ = try RSAKeyMaterial.validatePublicNumbers(modulus: modulus, exponent: exponent)
        let key = try RSAKeyMaterial.build(
            from: [(CName.modulus, modulus), (CName.publicExponent, exponent)],
            part: .publicKey)
        self.backing = try Backing.adopting(key)
    }

    /// Wraps an `EVP_PKEY` the caller gives up ownership of. It is freed even if this throws.
    init(adopting key: OpaquePointer) throws {
        self.backing = try Backing.adopting(key)
    }

    /// The modulus `n`, big-endian, without leading zero bytes.
    public var modulus: [UInt8] { backing.modulus }

    /// The public exponent `e`, big-endian, without leading zero bytes.
    public var exponent: [UInt8] { backing.exponent }

    /// The modulus length in bits (2048 for a 2048-bit key).
    public var bitCount: Int { backing.bitCount }

    /// The key as an SPKI PEM block (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        backing.withKey(KeyMaterial.publicKeyPEM)
    }

    /// Checks an RS256 signature: RSASSA-PKCS1-v1_5 over the SHA-256 digest of `message` (RFC 8017 §8.2.2).
    ///
    /// This is the hot path of token verification: it hashes `message` and reuses a pooled, pre-initialised
    /// OpenSSL verification context, so it makes no OpenSSL algorithm look-ups per call.
    ///
    /// - Parameters:
    ///   - signature: the signature; it must be exactly as long as the modulus.
    ///   - message: the signed bytes (for a JWS, the ASCII of `header.payload`).
    /// - Returns: `true` only when the signature is valid for this key and message.
    public func isValidSHA256Signature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        backing.isValidSHA256Signature(signature, for: message[...])
    }

    /// The same check over part of a buffer (a JWS signing input inside its token), without copying it.
    public func isValidSHA256Signature(_ signature: [UInt8], for message: ArraySlice<UInt8>) -> Bool {
        backing.isValidSHA256Signature(signature, for: message)
    }

    /// Lends the `EVP_PKEY *` to `body`. The pointer must not escape or be freed.
    func withKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try backing.withKey(body)
    }

    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.backing === rhs.backing || (lhs.backing.modulus == rhs.backing.modulus && lhs.backing.exponent == rhs.backing.exponent)
    }
}

extension RSAPublicKey {
    /// Owns one public-key `EVP_PKEY` and the pooled verification contexts made from it.
    ///
    /// `@unchecked Sendable`: the key and the cached numbers are never modified after `init`, and OpenSSL allows
    /// concurrent read-only use of an `EVP_PKEY`; the pool is thread-safe.
    private final class Backing: @unchecked Sendable {
        private let key: OpaquePointer
        let modulus: [UInt8]
        let exponent: [UInt8]
        let bitCount: Int
        private let contexts: SHA256SignatureContexts

        /// Checks `key` against the RSA policy and takes ownership of it. Frees `key` if it is refused.
        static func adopting(_ key: OpaquePointer) throws -> Backing {
            do {
                guard RSAKeyMaterial.isRSA(key) else {
                    throw CryptoError(.unsupportedKeyType, reason: "the key is not an RSA key")
                }
                guard let modulus = KeyMaterial.publicParameter(CName.modulus, of: key),
                    let exponent = KeyMaterial.publicParameter(CName.publicExponent, of: key)
                else {
                    throw CryptoError(.invalidKey, reason: "the key has no RSA modulus or exponent")
                }
                let bitCount = try RSAKeyMaterial.validatePublicNumbers(modulus: modulus, exponent: exponent)
                let contexts = try SHA256SignatureContexts(key: key, operation: .verify, rsaPadding: RSA_PKCS1_PADDING)
                return Backing(key: key, modulus: modulus, exponent: exponent, bitCount: bitCount, contexts: contexts)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
        }

        private init(key: OpaquePointer, modulus: [UInt8], exponent: [UInt8], bitCount: Int, contexts: SHA256SignatureContexts) {
            self.key = key
            self.modulus = modulus
            self.exponent = exponent
            self.bitCount = bitCount
            self.contexts = contexts
        }

        deinit {
            EVP_PKEY_free(key)
        }

        func withKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
            try body(key)
        }

        func isValidSHA256Signature(_ signature: [UInt8], for message: ArraySlice<UInt8>) -> Bool {
            // RSASSA-PKCS1-v1_5 signatures are exactly as long as the modulus (RFC 8017 §8.2.2 step 1).
            guard signature.count == modulus.count else { return false }
            return contexts.isValid(signature, forSHA256Of: message)
        }
    }
}
