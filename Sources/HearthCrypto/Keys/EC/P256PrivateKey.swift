internal import COpenSSL

/// A P-256 (secp256r1) private key that makes ES256 signatures (ECDSA with SHA-256, RFC 7518 §3.4), such as the
/// `.p8` keys Apple issues for Sign in with Apple.
///
/// Keys are immutable values; copies share one OpenSSL key. Every method is safe to call from many threads at once.
///
/// ```swift
/// let key = try P256PrivateKey(pemRepresentation: String(contentsOfFile: "AuthKey_ABC123DEFG.p8"))
/// let signature = try key.signSHA256(Array("header.payload".utf8))      // 64 bytes: r ‖ s
/// assert(key.publicKey.isValidSHA256Signature(signature, for: Array("header.payload".utf8)))
/// let stored = key.pemRepresentation                                     // PKCS#8 "PRIVATE KEY"
/// ```
public struct P256PrivateKey: Sendable {
    private let backing: Backing

    private init(backing: Backing) {
        self.backing = backing
    }

    /// Generates a new key pair.
    ///
    /// - Throws: ``OpenSSLError`` when generation fails.
    public static func generate() throws -> P256PrivateKey {
        let key = try KeyMaterial.generate(CName.ec) { context in
            EVP_PKEY_CTX_set_group_name(context, CName.p256) == 1
        }
        return P256PrivateKey(backing: try Backing.adopting(key, checkConsistency: false))
    }

    /// Reads a PEM private key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, as in Apple's `.p8` files) or SEC 1
    /// (`-----BEGIN EC PRIVATE KEY-----`).
    ///
    /// Encrypted keys are refused rather than prompting for a password. Text before the first PEM block is ignored;
    /// only the first block is read.
    ///
    /// - Throws: ``CryptoError`` `.unsupportedFormat` for other or encrypted blocks and bad DER, `.unsupportedKeyType`
    ///   for keys that are not EC keys on P-256, `.invalidKey` for a private scalar out of range or a public point
    ///   that does not belong to it; ``OpenSSLError`` when OpenSSL fails.
    public init(pemRepresentation: String) throws {
        let key = try KeyMaterial.decodePrivateKeyPEM(pemRepresentation, typeSpecificLabel: "EC PRIVATE KEY", keyType: CName.ec)
        self.backing = try Backing.adopting(key, checkConsistency: true)
    }

    /// Builds a key from its private scalar d, as found in a private JWK's `d` (RFC 7518 §6.2.2.1).
    ///
    /// - Parameter rawRepresentation: d, big-endian, exactly 32 bytes.
    /// - Throws: ``CryptoError`` `.invalidKey` for another length or a scalar that is zero or not below the curve
    ///   order; ``OpenSSLError`` when OpenSSL fails.
    public init(rawRepresentation: [UInt8]) throws {
        guard P256KeyMaterial.isInScalarRange(rawRepresentation[...]) else {
            throw CryptoError(.invalidKey, reason: "a P-256 private key is 32 bytes in the range [1, n − 1]")
        }
        var der = P256KeyMaterial.sec1PrivateKeyDER(scalar: rawRepresentation)
        defer { der.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        let key = try KeyMaterial.decode(der: der, structure: CName.typeSpecific, keyType: CName.ec, part: .keyPair)
        self.backing = try Backing.adopting(key, checkConsistency: true)
    }

    /// The key as a PKCS#8 PEM block (`-----BEGIN PRIVATE KEY-----`), unencrypted. Treat it as a secret.
    public var pemRepresentation: String {
        backing.withKey(KeyMaterial.privateKeyPEM)
    }

    /// The matching public key.
    public var publicKey: P256PublicKey { backing.publicKey }

    /// Signs `message` with ECDSA over its SHA-256 digest (ES256, RFC 7518 §3.4). Each signature uses a fresh
    /// random nonce, so signing the same message twice gives different bytes; both verify.
    ///
    /// - Parameter message: the bytes to sign (for a JWS, the ASCII of `header.payload`).
    /// - Returns: the signature in JOSE's form: r ‖ s, 32 bytes each.
    /// - Throws: ``OpenSSLError`` when OpenSSL fails.
    public func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        try backing.signSHA256(message)
    }
}

extension P256PrivateKey {
    /// Owns one key-pair `EVP_PKEY` and the matching public key.
    ///
    /// `@unchecked Sendable`: nothing is modified after `init`, and OpenSSL allows concurrent signing with one
    /// `EVP_PKEY` (each call checks out its own context from the pool).
    private final class Backing: @unchecked Sendable {
        private let key: OpaquePointer
        let publicKey: P256PublicKey
        private let signing: SHA256SignatureContexts

        /// Checks `key` and takes ownership of it. Frees `key` if it is refused.
        ///
        /// - Parameter checkConsistency: run OpenSSL's full key check (scalar in range, point on the curve and
        ///   equal to d·G), to refuse imported keys whose parts do not belong together. Generated keys skip it.
        static func adopting(_ key: OpaquePointer, checkConsistency: Bool) throws -> Backing {
            do {
                try P256KeyMaterial.checkIsP256(key)
                if checkConsistency {
                    try P256KeyMaterial.check(key, part: .keyPair)
                }
                let (x, y) = try P256KeyMaterial.coordinates(of: key)
                // A separate public-only EVP_PKEY, so public keys handed out never carry the private scalar.
                let publicKey = try P256PublicKey(x: x, y: y)
                let signing = try SHA256SignatureContexts(key: key, operation: .sign, rsaPadding: nil)
                return Backing(key: key, publicKey: publicKey, signing: signing)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
        }

        private init(key: OpaquePointer, publicKey: P256PublicKey, signing: SHA256SignatureContexts) {
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

        func signSHA256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
            let der = try signing.sign(sha256Of: message[...])
            guard let raw = ECDSASignature.raw(fromDER: der) else {
                throw OpenSSLError(operation: "EVP_DigestSign", entries: ["the signature is not a P-256 ECDSA-Sig-Value"])
            }
            return raw
        }
    }
}
