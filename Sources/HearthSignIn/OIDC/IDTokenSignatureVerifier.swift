public import Foundation

/// Checks an ID token's signature against the issuer's keys. The seam between the OpenID logic, which is the
/// same everywhere, and the RSA implementation, which is per platform.
///
/// ``PlatformIDTokenSignatureVerifier`` is the default: JOSE (OpenSSL) on Linux, Security.framework on Apple
/// platforms.
public protocol IDTokenSignatureVerifier: Sendable {
    /// Verifies the RS256 signature of the compact JWS `token` with the key its header's `kid` names in `jwks`.
    ///
    /// - Parameters:
    ///   - token: the ID token (compact JWS).
    ///   - jwks: the issuer's JSON Web Key Set document, as served at its `jwks_uri`.
    /// - Returns: the payload: the bytes of the JSON claims object.
    /// - Throws: ``IDTokenSignatureError/unknownKeyID(_:)`` when no key in `jwks` has the token's `kid` (the caller then
    ///   refetches the key set once); ``IDTokenSignatureError/invalid(_:)`` for every other failure.
    func verify(_ token: String, jwks: Data) throws -> Data
}

/// Why an ID token's signature was not accepted.
public enum IDTokenSignatureError: Error, Sendable, Equatable {
    /// No key in the key set has this `kid`.
    case unknownKeyID(String)
    /// Anything else: malformed token, wrong algorithm, unusable key, signature mismatch.
    case invalid(String)
}

/// The platform's RS256 check: JOSE (OpenSSL) on Linux, `SecKeyVerifySignature` on Apple platforms.
public struct PlatformIDTokenSignatureVerifier: IDTokenSignatureVerifier {
    public init() {}

    public func verify(_ token: String, jwks: Data) throws -> Data {
        // Apple's framework first: the JOSE module can be visible on Apple platforms without being linked here.
        #if canImport(Security)
        return try SecuritySignatureCheck.verify(token, jwks: jwks)
        #elseif canImport(JOSE)
        return try JOSESignatureCheck.verify(token, jwks: jwks)
        #else
        throw IDTokenSignatureError.invalid("this platform has no RS256 implementation; pass an IDTokenSignatureVerifier")
        #endif
    }
}
