public import Foundation

/// Reading a JWT **without checking its signature**.
///
/// - Warning: Nothing returned here is authentic. Use it only in tests, or to look at a header (for example its
///   `kid` or `iss`) before choosing which keys to verify with, and then verify with ``JWTKeySet/verify(_:)``.
public enum InsecureJWT {
    /// Decodes a compact JWS without verifying it.
    ///
    /// The token must still be well formed: three base64url segments without padding, a header that is a JSON object
    /// with a string `alg`, and a payload that is a JSON object. The signature segment may be empty and is ignored,
    /// and `alg` is not checked.
    ///
    /// - Parameter token: the compact JWS.
    /// - Returns: the header and the payload bytes.
    /// - Throws: ``JOSEError`` with `.malformedToken`, `.invalidHeader` or `.invalidPayload`.
    public static func decodeWithoutVerifying(_ token: String) throws(JOSEError) -> (header: JWSHeader, payload: Data) {
        let jws = try CompactJWS.parse(token)
        guard JSONObjectCheck.isObject(jws.payload) else {
            throw JOSEError(.invalidPayload, reason: "the payload is not a JSON object")
        }
        return (jws.header, jws.payload)
    }
}
