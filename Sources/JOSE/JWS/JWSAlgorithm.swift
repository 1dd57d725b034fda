/// A JWS algorithm that JOSE can sign and verify with (RFC 7518 §3.1).
///
/// Each key in a ``JWTKeySet`` is bound to exactly one algorithm, the one its key type makes (RSA keys RS256, P-256
/// keys ES256); a token is verified with its key's algorithm, never with whatever its header claims.
public enum JWSAlgorithm: String, Sendable, Codable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 using SHA-256 (RFC 7518 §3.3), with an RSA key.
    case rs256 = "RS256"
    /// ECDSA using P-256 and SHA-256 (RFC 7518 §3.4), with a P-256 key; signatures are r ‖ s, 64 bytes.
    case es256 = "ES256"

    /// Every `alg` value registered for JWS in the IANA "JSON Web Signature and Encryption Algorithms" registry
    /// (RFC 7518, RFC 8037, RFC 8812, RFC 9864), except `none`.
    ///
    /// A header naming one of these that is not the key's algorithm is an ``JOSEError/Code/algorithmMismatch``;
    /// any other name is an ``JOSEError/Code/unsupportedAlgorithm``.
    static let registeredNames: Set<String> = [
        "HS256", "HS384", "HS512",
        "RS256", "RS384", "RS512",
        "ES256", "ES384", "ES512", "ES256K",
        "PS256", "PS384", "PS512",
        "EdDSA", "Ed25519", "Ed448",
    ]
}
