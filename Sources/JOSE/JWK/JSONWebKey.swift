public import HearthCrypto

/// A JSON Web Key (RFC 7517) with the members JOSE uses for RSA and P-256 signature keys.
///
/// Members are the base64url strings of the wire format; `kty` is required by RFC 7517 §4.1, the rest are optional
/// as in the RFC. Members JOSE does not model (`x5c`, `key_ops`, `d`, …) are ignored when decoding and not written
/// when encoding.
///
/// ```swift
/// let jwk = JSONWebKey(publicKey: key.publicKey, keyID: "2024-05")
/// // {"kty":"RSA","use":"sig","alg":"RS256","kid":"2024-05","n":"…","e":"AQAB"}
/// let key = try jwk.rsaPublicKey()
/// let ec = JSONWebKey(publicKey: p256Key.publicKey, keyID: "ABC123DEFG")
/// // {"kty":"EC","use":"sig","alg":"ES256","kid":"ABC123DEFG","crv":"P-256","x":"…","y":"…"}
/// ```
public struct JSONWebKey: Codable, Sendable, Equatable {
    /// The key type: `"RSA"` or `"EC"` for keys JOSE can use (RFC 7517 §4.1).
    public var kty: String
    /// The intended use: `"sig"` (signatures) or `"enc"` (encryption) (RFC 7517 §4.2).
    public var use: String?
    /// The algorithm the key is meant for, such as `"RS256"` (RFC 7517 §4.4).
    public var alg: String?
    /// The key ID (RFC 7517 §4.5).
    public var kid: String?
    /// The RSA modulus, base64url of its big-endian bytes (RFC 7518 §6.3.1.1).
    public var n: String?
    /// The RSA public exponent, base64url of its big-endian bytes (RFC 7518 §6.3.1.2).
    public var e: String?
    /// The curve of an EC key, `"P-256"` for keys JOSE can use (RFC 7518 §6.2.1.1).
    public var crv: String?
    /// The x coordinate of an EC key, base64url of its full-length big-endian bytes (RFC 7518 §6.2.1.2).
    public var x: String?
    /// The y coordinate of an EC key, base64url of its full-length big-endian bytes (RFC 7518 §6.2.1.3).
    public var y: String?

    /// Creates a key from its members.
    public init(
        kty: String, use: String? = nil, alg: String? = nil, kid: String? = nil, n: String? = nil, e: String? = nil,
        crv: String? = nil, x: String? = nil, y: String? = nil
    ) {
        self.kty = kty
        self.use = use
        self.alg = alg
        self.kid = kid
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }

    /// Describes an RSA public key for publishing in a JWKS: `kty` `"RSA"`, `use` `"sig"`, `alg` `"RS256"`.
    ///
    /// - Parameters:
    ///   - publicKey: the key.
    ///   - keyID: its `kid`.
    ///   - algorithm: the one algorithm the key is bound to; must be ``JWSAlgorithm/rs256``.
    public init(publicKey: RSAPublicKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        precondition(algorithm == .rs256, "an RSA key is bound to RS256")
        self.init(
            kty: "RSA", use: "sig", alg: algorithm.rawValue, kid: keyID,
            n: Base64URL.encode(publicKey.modulus), e: Base64URL.encode(publicKey.exponent))
    }

    /// Describes a P-256 public key for publishing in a JWKS: `kty` `"EC"`, `crv` `"P-256"`, `use` `"sig"`,
    /// `alg` `"ES256"`.
    ///
    /// - Parameters:
    ///   - publicKey: the key.
    ///   - keyID: its `kid`.
    public init(publicKey: P256PublicKey, keyID: String) {
        self.init(
            kty: "EC", use: "sig", alg: JWSAlgorithm.es256.rawValue, kid: keyID,
            crv: "P-256", x: Base64URL.encode(publicKey.x), y: Base64URL.encode(publicKey.y))
    }

    /// The algorithm this JWK's key type makes (RS256 for `"RSA"`, ES256 for `"EC"` on `"P-256"`), when `alg` is
    /// absent or names that same algorithm.
    ///
    /// - Throws: ``JOSEError`` ``JOSEError/Code/invalidKey`` for another key type or curve, or an `alg` that
    ///   disagrees with the key type (such as `"ES256"` on an RSA key, or `"HS256"` on any key).
    func boundAlgorithm() throws(JOSEError) -> JWSAlgorithm {
        let algorithm: JWSAlgorithm
        switch (kty, crv) {
        case ("RSA", _): algorithm = .rs256
        case ("EC", "P-256"): algorithm = .es256
        case ("EC", _):
            throw JOSEError(.invalidKey, reason: "the curve is \(JOSEError.quoted(crv ?? "")), not \"P-256\"")
        default:
            throw JOSEError(.invalidKey, reason: "the key type is \(JOSEError.quoted(kty)), not \"RSA\" or \"EC\"")
        }
        if let alg, alg != algorithm.rawValue {
            throw JOSEError(.invalidKey, reason: "alg \(JOSEError.quoted(alg)) does not fit a \(kty) key, which is bound to \(algorithm.rawValue)")
        }
        return algorithm
    }

    /// The RSA public key this JWK describes.
    ///
    /// `use` and `alg` are not checked here; ``JWTKeySet/init(jwks:)`` applies them.
    ///
    /// - Throws: ``JOSEError`` with ``JOSEError/Code/invalidKey`` when `kty` is not `"RSA"`, `n` or `e` is missing
    ///   or not base64url, or the numbers are refused by ``RSAPublicKey/init(modulus:exponent:)`` (for example a
    ///   modulus under 2048 bits).
    public func rsaPublicKey() throws -> RSAPublicKey {
        guard kty == "RSA" else {
            throw JOSEError(.invalidKey, reason: "the key type is \(JOSEError.quoted(kty)), not \"RSA\"")
        }
        guard let n, let e else {
            throw JOSEError(.invalidKey, reason: "an RSA JWK needs both \"n\" and \"e\"")
        }
        guard let modulus = Base64URL.decode(n), let exponent = Base64URL.decode(e) else {
            throw JOSEError(.invalidKey, reason: "\"n\" or \"e\" is not base64url")
        }
        do {
            return try RSAPublicKey(modulus: modulus, exponent: exponent)
        } catch {
            throw JOSEError(.invalidKey, reason: "the RSA numbers were refused: \(error)")
        }
    }

    /// The P-256 public key this JWK describes.
    ///
    /// `use` and `alg` are not checked here; ``JWTKeySet/init(jwks:)`` applies them.
    ///
    /// - Throws: ``JOSEError`` with ``JOSEError/Code/invalidKey`` when `kty` is not `"EC"`, `crv` is not `"P-256"`,
    ///   `x` or `y` is missing, not base64url or not 32 bytes, or (x, y) is not a point on P-256.
    public func p256PublicKey() throws -> P256PublicKey {
        guard kty == "EC" else {
            throw JOSEError(.invalidKey, reason: "the key type is \(JOSEError.quoted(kty)), not \"EC\"")
        }
        guard crv == "P-256" else {
            throw JOSEError(.invalidKey, reason: "the curve is \(JOSEError.quoted(crv ?? "")), not \"P-256\"")
        }
        guard let x, let y else {
            throw JOSEError(.invalidKey, reason: "an EC JWK needs both \"x\" and \"y\"")
        }
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y) else {
            throw JOSEError(.invalidKey, reason: "\"x\" or \"y\" is not base64url")
        }
        do {
            return try P256PublicKey(x: xBytes, y: yBytes)
        } catch {
            throw JOSEError(.invalidKey, reason: "the P-256 point was refused: \(error)")
        }
    }

    /// The key's JWK thumbprint (RFC 7638): base64url of the SHA-256 of its required members in lexicographic order,
    /// `{"e":…,"kty":"RSA","n":…}` or `{"crv":"P-256","kty":"EC","x":…,"y":…}`.
    ///
    /// A stable identifier derived from the key itself, suitable as a `kid`.
    ///
    /// - Throws: ``JOSEError`` with ``JOSEError/Code/invalidKey`` for keys ``rsaPublicKey()`` or ``p256PublicKey()``
    ///   refuses.
    public func thumbprint() throws -> String {
        // No whitespace; base64url text needs no JSON escaping (RFC 7638 §3.2).
        let canonical: String
        if kty == "EC" {
            let key = try p256PublicKey()
            canonical = "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"\(Base64URL.encode(key.x))\",\"y\":\"\(Base64URL.encode(key.y))\"}"
        } else {
            let key = try rsaPublicKey()
            canonical = "{\"e\":\"\(Base64URL.encode(key.exponent))\",\"kty\":\"RSA\",\"n\":\"\(Base64URL.encode(key.modulus))\"}"
        }
        return Base64URL.encode(SHA256.hash(canonical))
    }
}
