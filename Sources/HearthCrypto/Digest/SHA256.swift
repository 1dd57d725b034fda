/// SHA-256 (FIPS 180-4), computed by OpenSSL.
///
/// ```swift
/// let digest = SHA256.hash("abc")   // 32 bytes, ba7816bf…
/// ```
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Hashes `bytes`.
    /// - Returns: the 32-byte digest.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        FetchedDigest.sha256.hash(bytes)
    }

    /// Hashes the UTF-8 encoding of `string`.
    /// - Returns: the 32-byte digest.
    public static func hash(_ string: String) -> [UInt8] {
        hash(Array(string.utf8))
    }
}

/// SHA-1, computed by OpenSSL. Only for protocols that still require it (for example TOTP or certificate
/// thumbprints); never for new signatures.
public enum SHA1 {
    /// The digest length in bytes.
    public static let byteCount = 20

    /// Hashes `bytes`.
    /// - Returns: the 20-byte digest.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        FetchedDigest.sha1.hash(bytes)
    }
}
