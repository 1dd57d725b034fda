public import HearthCrypto

/// A JSON Web Key (RFC 7517) with the members JOSE uses for RSA signature keys.
///
/// Members are the base64url strings of the wire format; `kty` is required by RFC 7517 §4.1, the rest are optional
/// as in the RFC. Members JOSE does not model (`x5c`, `crv`, `key_ops`, …) are ignored when decoding and not written
/// when encoding.
///
/// ```swift
/// let jwk = JSONWebKey(publicKey: key.publicKey, keyID: "2024-05")
/// // {"kty":"RSA","use":"sig","alg":"RS256","kid":"2024-05","n":"…","e":"AQAB"}
/// let key = try jwk.rsaPublicKey()
/// ```
public struct JSONWebKey: Codable, Sendable, Equatable {
    /// The key type, `"RSA"` for keys JOSE can use (RFC 7517 §4.1).
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

    /// Creates a key from its members.
    public init(kty: String, use: String? = nil, alg: String? = nil, kid: String? = nil, n: String? = nil, e: String? = nil) {
        self.kty = kty
        self.use = use
        self.alg = alg
        self.kid = kid
        self.n = n
        self.e = e
    }

    /// Describes an RSA public key for publishing in a JWKS: `kty` `"RSA"`, `use` `"sig"`.
    ///
    /// - Parameters:
    ///   - publicKey: the key.
    ///   - keyID: its `kid`.
    ///   - algorithm: the one algorithm the key is bound to.
    public init(publicKey: RSAPublicKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        self.init(
            kty: "RSA", use: "sig", alg: algorithm.rawValue, kid: keyID,
            n: Base64URL.encode(publicKey.modulus), e: Base64URL.encode(publicKey.exponent))
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

    /// The key's JWK thumbprint (RFC 7638): base64url of the SHA-256 of `{"e":…,"kty":"RSA","n":…}`.
    ///
    /// A stable identifier derived from the key itself, suitable as a `kid`. Only RSA keys are supported.
    ///
    /// - Throws: ``JOSEError`` with ``JOSEError/Code/invalidKey`` for keys ``rsaPublicKey()`` refuses.
    public func thumbprint() throws -> String {
        let key = try rsaPublicKey()
        // Members in lexicographic order, no whitespace; base64url text needs no JSON escaping (RFC 7638 §3.2).
        let canonical = "{\"e\":\"\(Base64URL.encode(key.exponent))\",\"kty\":\"RSA\",\"n\":\"\(Base64URL.encode(key.modulus))\"}"
        return Base64URL.encode(SHA256.hash(canonical))
    }
}
