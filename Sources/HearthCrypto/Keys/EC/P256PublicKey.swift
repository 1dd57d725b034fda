internal import COpenSSL

/// A P-256 (secp256r1) public key that checks ES256 signatures (ECDSA with SHA-256, RFC 7518 §3.4).
///
/// Keys are immutable values; copies share one OpenSSL key. Every method is safe to call from many threads at once.
/// Every key is checked when it is made: on P-256 (no other curve), a point on the curve, not the point at infinity.
///
/// ```swift
/// let key = try P256PublicKey(x: Base64URL.decode(jwk.x)!, y: Base64URL.decode(jwk.y)!)
/// if key.isValidSHA256Signature(signature, for: Array(signingInput.utf8)) { … }
/// ```
public struct P256PublicKey: Sendable, Equatable {
    private let backing: Backing

    /// Builds a key from its affine coordinates, as found in a JWK's `x` and `y` (RFC 7518 §6.2.1).
    ///
    /// - Parameters:
    ///   - x: the x coordinate, big-endian, exactly 32 bytes (RFC 7518 §6.2.1.2 requires the full length).
    ///   - y: the y coordinate, big-endian, exactly 32 bytes.
    /// - Throws: ``CryptoError`` `.invalidKey` for coordinates of another length or a point not on P-256;
    ///   ``OpenSSLError`` when OpenSSL fails.
    public init(x: [UInt8], y: [UInt8]) throws {
        guard x.count == P256KeyMaterial.scalarByteCount, y.count == P256KeyMaterial.scalarByteCount else {
            throw CryptoError(
                .invalidKey, reason: "P-256 coordinates are \(P256KeyMaterial.scalarByteCount) bytes each, not \(x.count) and \(y.count)")
        }
        self.backing = try Backing.adopting(try P256KeyMaterial.buildPublicKey(x: x, y: y))
    }

    /// Reads an SPKI PEM public key (`-----BEGIN PUBLIC KEY-----`). Text before the first PEM block is ignored; only
    /// the first block is read.
    ///
    /// - Throws: ``CryptoError`` `.unsupportedFormat` for other PEM blocks or bad DER, `.unsupportedKeyType` for keys
    ///   that are not EC keys on P-256, `.invalidKey` for invalid points; ``OpenSSLError`` when OpenSSL fails.
    public init(pemRepresentation: String) throws {
        let block = try MemoryBIO.readPEMBlock(pemRepresentation)
        guard block.label == "PUBLIC KEY" else {
            throw CryptoError(.unsupportedFormat, reason: "expected a PUBLIC KEY PEM block, found \(block.label)")
        }
        try self.init(derRepresentation: block.der)
    }

    /// Reads a DER `SubjectPublicKeyInfo` (RFC 5480).
    ///
    /// - Throws: as ``init(pemRepresentation:)``.
    public init(derRepresentation: [UInt8]) throws {
        let key = try KeyMaterial.decode(der: derRepresentation, structure: CName.subjectPublicKeyInfo, part: .publicKey)
        self.backing = try Backing.adopting(key)
    }

    /// The x coordinate, big-endian, 32 bytes (a JWK's `x` before base64url).
    public var x: [UInt8] { backing.x }

    /// The y coordinate, big-endian, 32 bytes (a JWK's `y` before base64url).
    public var y: [UInt8] { backing.y }

    /// The key as an SPKI PEM block (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        backing.withKey(KeyMaterial.publicKeyPEM)
    }

    /// The key as DER `SubjectPublicKeyInfo`: the fixed 26-byte P-256 prefix, then 0x04 ‖ x ‖ y.
    public var derRepresentation: [UInt8] {
        P256KeyMaterial.subjectPublicKeyInfoPrefix + [0x04] + backing.x + backing.y
    }

    /// Checks an ES256 signature in JOSE's form: r ‖ s, 32 bytes each, over the SHA-256 digest of `message`.
    ///
    /// Anything but exactly 64 bytes (for example a DER-encoded signature), and an r or s that is zero or not
    /// below the curve order, is refused before OpenSSL sees it.
    ///
    /// - Parameters:
    ///   - signature: the 64-byte signature.
    ///   - message: the signed bytes (for a JWS, the ASCII of `header.payload`).
    /// - Returns: `true` only when the signature is valid for this key and message.
    public func isValidSHA256Signature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        backing.isValidSHA256Signature(signature, for: message[...])
    }

    /// The same check over part of a buffer (a JWS signing input inside its token), without copying it.
    public func isValidSHA256Signature(_ signature: [UInt8], for message: ArraySlice<UInt8>) -> Bool {
        backing.isValidSHA256Signature(signature, for: message)
    }

    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
        lhs.backing === rhs.backing || (lhs.backing.x == rhs.backing.x && lhs.backing.y == rhs.backing.y)
    }
}

extension P256PublicKey {
    /// Owns one public-key `EVP_PKEY`, its coordinates and the pooled verification contexts made from it.
    ///
    /// `@unchecked Sendable`: nothing is modified after `init`, OpenSSL allows concurrent read-only use of an
    /// `EVP_PKEY`, and the pool is thread-safe.
    private final class Backing: @unchecked Sendable {
        private let key: OpaquePointer
        let x: [UInt8]
        let y: [UInt8]
        private let contexts: SHA256SignatureContexts

        /// Checks `key` (P-256, valid point) and takes ownership of it. Frees `key` if it is refused.
        static func adopting(_ key: OpaquePointer) throws -> Backing {
            do {
                try P256KeyMaterial.checkIsP256(key)
                try P256KeyMaterial.check(key, part: .publicKey)
                let (x, y) = try P256KeyMaterial.coordinates(of: key)
                let contexts = try SHA256SignatureContexts(key: key, operation: .verify, rsaPadding: nil)
                return Backing(key: key, x: x, y: y, contexts: contexts)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
        }

        private init(key: OpaquePointer, x: [UInt8], y: [UInt8], contexts: SHA256SignatureContexts) {
            self.key = key
            self.x = x
            self.y = y
            self.contexts = contexts
        }

        deinit {
            EVP_PKEY_free(key)
        }

        func withKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
            try body(key)
        }

        func isValidSHA256Signature(_ signature: [UInt8], for message: ArraySlice<UInt8>) -> Bool {
            guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
            return contexts.isValid(der, forSHA256Of: message)
        }
    }
}
