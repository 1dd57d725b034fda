public import Foundation
public import HearthCrypto

/// Signs JWTs with one private key and key ID.
///
/// Tokens are compact JWS (RFC 7515 §7.1) with the header `{"alg":"RS256","kid":"<keyID>","typ":"JWT"}` for an RSA
/// key, `{"alg":"ES256","kid":"<keyID>","typ":"JWT"}` for a P-256 key. RS256 signatures are deterministic, so
/// signing the same claims twice gives the same token; ES256 signatures are not.
///
/// ```swift
/// let signer = JWTSigner(privateKey: key, keyID: "2024-05")
/// let token = try signer.sign(IDTokenClaims(sub: uid, exp: expiry, …))
/// let apple = JWTSigner(privateKey: try P256PrivateKey(pemRepresentation: p8), keyID: "ABC123DEFG")
/// ```
public struct JWTSigner: Sendable {
    /// The signing key; its type decides the algorithm.
    private enum SigningKey: Sendable {
        case rsa(RSAPrivateKey)
        case p256(P256PrivateKey)
    }

    private let privateKey: SigningKey
    /// The base64url header segment, computed once.
    private let encodedHeader: String

    /// The `kid` written into every token.
    public let keyID: String

    /// Creates an RS256 signer.
    ///
    /// - Parameters:
    ///   - privateKey: the signing key.
    ///   - keyID: the `kid` for the header; must not be empty (verifiers reject tokens without one).
    ///   - algorithm: the algorithm the key is bound to; must be ``JWSAlgorithm/rs256``.
    public init(privateKey: RSAPrivateKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        precondition(algorithm == .rs256, "an RSA key is bound to RS256")
        self.init(key: .rsa(privateKey), algorithm: .rs256, keyID: keyID)
    }

    /// Creates an ES256 signer.
    ///
    /// - Parameters:
    ///   - privateKey: the signing key.
    ///   - keyID: the `kid` for the header; must not be empty (verifiers reject tokens without one).
    public init(privateKey: P256PrivateKey, keyID: String) {
        self.init(key: .p256(privateKey), algorithm: .es256, keyID: keyID)
    }

    private init(key: SigningKey, algorithm: JWSAlgorithm, keyID: String) {
        precondition(!keyID.isEmpty, "JWTSigner needs a non-empty key ID")
        self.privateKey = key
        self.keyID = keyID
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = JWSHeader(alg: algorithm.rawValue, kid: keyID, typ: "JWT")
        guard let json = try? encoder.encode(header) else {
            preconditionFailure("a header of three strings always encodes")
        }
        self.encodedHeader = Base64URL.encode(json)
    }

    /// Signs `claims`, encoded as JSON with sorted keys and dates as NumericDate (seconds since 1970).
    ///
    /// - Parameter claims: any `Encodable` value that encodes as a JSON object.
    /// - Returns: the compact token.
    /// - Throws: `EncodingError` when `claims` cannot be encoded; ``JOSEError`` `.invalidPayload` when it does not
    ///   encode as a JSON object; ``OpenSSLError`` when signing fails.
    public func sign<Claims: Encodable>(_ claims: Claims) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try sign(payload: try encoder.encode(claims))
    }

    /// Signs a payload that is already JSON.
    ///
    /// - Parameter payload: the bytes of one JSON object.
    /// - Returns: the compact token.
    /// - Throws: ``JOSEError`` `.invalidPayload` when `payload` is not a JSON object (a verifier would refuse the
    ///   token); ``OpenSSLError`` when signing fails.
    public func sign(payload: Data) throws -> String {
        guard JSONObjectCheck.isObject(payload) else {
            throw JOSEError(.invalidPayload, reason: "the payload is not a JSON object")
        }
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        let signature = switch privateKey {
        case .rsa(let key): try key.signSHA256(Array(signingInput.utf8))
        case .p256(let key): try key.signSHA256(Array(signingInput.utf8))
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
