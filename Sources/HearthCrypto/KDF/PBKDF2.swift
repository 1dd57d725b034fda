internal import COpenSSL

/// PBKDF2 (RFC 8018 §5.2) with HMAC over a ``DigestAlgorithm``, computed by OpenSSL's `PKCS5_PBKDF2_HMAC`.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/PKCS5_PBKDF2_HMAC.html>
public enum PBKDF2 {
    /// Derives `byteCount` bytes from `password` and `salt` with `iterations` rounds of HMAC-`digest`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for fewer than one iteration, an empty or over-long output, or an
    ///   input over 2 GiB; ``OpenSSLError`` when OpenSSL fails.
    public static func derive(
        password: [UInt8], salt: [UInt8], iterations: Int, digest: DigestAlgorithm, byteCount: Int
    ) throws -> [UInt8] {
        guard iterations >= 1, iterations <= Int(Int32.max) else {
            throw CryptoError(.invalidArgument, reason: "PBKDF2 needs 1 to 2^31-1 iterations")
        }
        guard byteCount >= 1, byteCount <= Int(Int32.max), password.count <= Int(Int32.max), salt.count <= Int(Int32.max)
        else { throw CryptoError(.invalidArgument, reason: "PBKDF2 input or output out of range") }
        return try derivePasswordKey(password: password, salt: salt, byteCount: byteCount, operation: "PKCS5_PBKDF2_HMAC") {
            PKCS5_PBKDF2_HMAC(
                $0, Int32(password.count), $1, Int32(salt.count), Int32(iterations), digest.fetched.pointer, Int32(byteCount), $2)
        }
    }
}
