internal import COpenSSL

/// An RSA private key that makes RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256).
///
/// Keys are immutable values; copies share one OpenSSL key. Every method is safe to call from many threads at once.
/// Like ``RSAPublicKey``, the modulus must be 2048 to 16384 bits long.
///
/// ```swift
/// let key = try RSAPrivateKey.generate()
/// let signature = try key.signSHA256(Array("header.payload".utf8))
/// assert(key.publicKey.isValidSHA256Signature(signature, for: Array("header.payload".utf8)))
/// let stored = key.pemRepresentation            // PKCS#8 "PRIVATE KEY"
/// let again = try RSAPrivateKey(pemRepresentation: stored)
/// ```
public struct RSAPrivateKey: Sendable {
    private let backing: Backing

    private init(backing: Backing) {
        self.backing = backing
    }

    /// Generates a new key pair with public exponent 65537.
    ///
    /// - Parameter bits: the modulus length, from 2048 to 16384.
    /// - Throws: ``CryptoError`` `.keyTooSmall`/`.keyTooLarge` for a length outside the policy; ``OpenSSLError``
    ///   when generation fails.
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        guard bits >= RSAPublicKey.minimumBitCount else {
            throw CryptoError(.keyTooSmall, reason: "RSA keys need at least \(RSAPublicKey.minimumBitCount) bits")
        }
        guard bits <= RSAPublicKey.maximumBitCount else {
            throw CryptoError(.keyTooLarge, reason: "RSA keys may have at most \(RSAPublicKey.maximumBitCount) bits")
        }
        let key = try KeyMaterial.generate(CName.rsa) { context in
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1
        }
        return RSAPrivateKey(backing: try Backing.adopting(key, checkConsistency: false))
    }

    /// Reads a PEM private key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) or PKCS#1 (`-----BEGIN RSA PRIVATE KEY-----`).
    ///
    /// Encrypted keys (`ENCRYPTED PRIVATE KEY`, or PKCS#1 with `Proc-Type`/`DEK-Info` headers) are refused rather
    /// than prompting for a password. Text before the first PEM block is ignored; only the first block is read.
    ///
    /// - Throws: ``CryptoError`` with `.unsupportedFormat` for other or encrypted blocks and bad DER,
    ///   `.unsupportedKeyType` for non-RSA keys, `.keyTooSmall`/`.keyTooLarge`/`.invalidKey` for keys outside the
    ///   policy; ``OpenSSLError`` when OpenSSL fails.
    public init(pemRepresentation: String) throws {
        let key = try KeyMaterial.decodePrivateKeyPEM(pemRepresentation, typeSpecificLabel: "RSA PRIVATE KEY", keyType: nil)
        self.backing = try Backing.adopting(key, checkConsistency: true)
    }

    /// Builds a key from its numbers, as found in a private JWK (RFC 7518 §6.3.2), all big-endian.
    ///
    /// The numbers are checked with OpenSSL's full RSA key check (primes, n = p·q, the exponents and the
    /// coefficient), so components that do not belong together are refused.
    ///
    /// - Parameters:
    ///   - modulus: `n`.
    ///   - publicExponent: `e`.
    ///   - privateExponent: `d`.
    ///   - prime1: `p`.
    ///   - prime2: `q`.
    ///   - exponent1: `dp` = d mod (p − 1).
    ///   - exponent2: `dq` = d mod (q − 1).
    ///   - coefficient: `qi` = q⁻¹ mod p.
    /// - Throws: ``CryptoError`` `.keyTooSmall`/`.keyTooLarge`/`.invalidKey`; ``OpenSSLError`` when OpenSSL fails.
    public init(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8], prime1: [UInt8], prime2: [UInt8],
        exponent1: [UInt8], exponent2: [UInt8], coefficient: [UInt8]
    ) throws {
        _ = try RSAKeyMaterial.validatePublicNumbers(
            modulus: BigNumber.trimmed(modulus), exponent: BigNumber.trimmed(publicExponent))
        typealias Name = CName
        let key = try RSAKeyMaterial.build(
            from: [
                (Name.modulus, modulus), (Name.publicExponent, publicExponent), (Name.privateExponent, privateExponent),
                (Name.prime1, prime1), (Name.prime2, prime2), (Name.exponent1, exponent1), (Name.exponent2, exponent2),
                (Name.coefficient, coefficient),
            ],
            part: .keyPair)
        self.backing = try Backing.adopting(key, checkConsistency: true)
    }

    /// The key as a PKCS#8 PEM block (`-----BEGIN PRIVATE KEY-----`), unencrypted. Treat it as a secret.
    public var pemRepresentation: String {
        backing.withKey(KeyMaterial.privateKeyPEM)
    }

    /// The matching public key.
    public var publicKey: RSAPublicKey { backing.publicKey }

    /// Signs `message` with RSASSA-PKCS1-v1_5 over its SHA-256 digest (RS256, RFC 7518 §3.3). The signature is
    /// deterministic: the same key and message always give the same bytes.
    ///
    /// - Parameter message: the bytes to sign (for a JWS, the ASCII of `header.payload`).
    /// - Returns: the signature, as long as the modulus.
    /// - Throws: ``OpenSSLError`` when OpenSSL fails.
    public func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        try backing.signSHA256(message)
    }

    /// Lends the `EVP_PKEY *` to `body`. The pointer must not escape or be freed.
    func withKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try backing.withKey(body)
    }
}

extension RSAPrivateKey {
    /// Owns one key-pair `EVP_PKEY` and the matching public key.
    ///
    /// `@unchecked Sendable`: nothing is modified after `init`, and OpenSSL allows concurrent signing with one
    /// `EVP_PKEY` (each call checks out its own context from the pool; RSA blinding is internally locked).
    private final class Backing: @unchecked Sendable {
        private let key: OpaquePointer
        let publicKey: RSAPublicKey
        private let signing: SHA256SignatureContexts

        /// Checks `key` and takes ownership of it. Frees `key` if it is refused.
        ///
        /// - Parameter checkConsistency: run OpenSSL's full key check, to refuse imported numbers that do not belong
        ///   together. Generated keys skip it.
        static func adopting(_ key: OpaquePointer, checkConsistency: Bool) throws -> Backing {
            let publicKey: RSAPublicKey
            let signing: SHA256SignatureContexts
            do {
                guard RSAKeyMaterial.isRSA(key) else {
                    throw CryptoError(.unsupportedKeyType, reason: "the key is not an RSA key")
                }
                guard RSAKeyMaterial.hasPrivateExponent(key) else {
                    throw CryptoError(.invalidKey, reason: "the key has no private exponent")
                }
                guard let modulus = KeyMaterial.publicParameter(CName.modulus, of: key),
                    let exponent = KeyMaterial.publicParameter(CName.publicExponent, of: key)
                else {
                    throw CryptoError(.invalidKey, reason: "the key has no RSA modulus or exponent")
                }
                // A separate public-only EVP_PKEY, so public keys handed out never carry private numbers.
                publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
                signing = try SHA256SignatureContexts(key: key, operation: .sign, rsaPadding: RSA_PKCS1_PADDING)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
            let backing = Backing(key: key, publicKey: publicKey, signing: signing)
            if checkConsistency {
                try backing.checkConsistency()
            }
            return backing
        }

        private init(key: OpaquePointer, publicKey: RSAPublicKey, signing: SHA256SignatureContexts) {
            self.key = key
            self.publicKey = publicKey
            self.signing = signing
        }

        deinit {
            EVP_PKEY_free(key)
        }

        func withKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
            try body(key)
        }

        /// `EVP_PKEY_check`: p and q are prime, n = p·q, d·e ≡ 1 (mod λ(n)) and dp, dq, qi match
        /// (RSA_check_key's checks; OpenSSL outside FIPS mode does not apply SP 800-56B's stricter limits).
        private func checkConsistency() throws {
            OpenSSLError.clearQueue()
            guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
                throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_pkey")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_check(context) == 1 else {
                let detail = OpenSSLError.drainingQueue(operation: "EVP_PKEY_check")
                throw CryptoError(.invalidKey, reason: "the RSA private key numbers are inconsistent (\(detail.entries.joined(separator: "; ")))")
            }
        }

        func signSHA256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
            try signing.sign(sha256Of: message[...])
        }
    }
}
