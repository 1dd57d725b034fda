public import Foundation
public import HearthCrypto

/// Signs JWTs with one private key and key ID.
///
/// Tokens are compact JWS (RFC 7515 §7.1) with the header `{"alg":"RS256","kid":"<keyID>","typ":"JWT"}`.
/// RS256 signatures are deterministic, so signing the same claims twice gives the same token.
///
/// ```swift
/// let signer = JWTSigner(privateKey: key, keyID: "2024-05")
/// let token = try signer.sign(IDTokenClaims(sub: uid, exp: expiry, …))
/// ```
public struct JWTSigner: Sendable {
    private let privateKey: RSAPrivateKey
    private let algorithm: JWSAlgorithm
    /// The base64url header segment, computed once.
    private let encodedHeader: String

    /// The `kid` written into every token.
    public let keyID: String

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - privateKey: the signing key.
    ///   - keyID: the `kid` for the header; must not be empty (verifiers reject tokens without one).
    ///   - algorithm: the algorithm the key is bound to.
    public init(privateKey: RSAPrivateKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        precondition(!keyID.isEmpty, "JWTSigner needs a non-empty key ID")
        self.privateKey = privateKey
        self.keyID = keyID
        self.algorithm = algorithm
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
        let signature: [UInt8]
        switch algorithm {
        case .rs256:
            signature = try privateKey.signSHA256(Array(signingInput.utf8))
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
