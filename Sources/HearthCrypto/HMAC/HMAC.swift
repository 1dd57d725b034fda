internal import COpenSSL

/// HMAC (RFC 2104) over SHA-256 or SHA-1 (or, for imported password hashes, any ``DigestAlgorithm``), computed by
/// OpenSSL's one-shot `HMAC()`.
///
/// Compare MACs with ``ConstantTime/equals(_:_:)``, never with `==`.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/HMAC.html>
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key`.
    /// - Returns: the 32-byte MAC.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(FetchedDigest.sha256, key: key, message: message)
    }

    /// HMAC-SHA1 of `message` under `key` (for protocols such as TOTP that require it).
    /// - Returns: the 20-byte MAC.
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(FetchedDigest.sha1, key: key, message: message)
    }

    /// HMAC of `message` under `key` with `digest`.
    /// - Returns: the MAC, ``DigestAlgorithm/byteCount`` bytes.
    public static func compute(_ digest: DigestAlgorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(digest.fetched, key: key, message: message)
    }

    private static func compute(_ digest: FetchedDigest, key: [UInt8], message: [UInt8]) -> [UInt8] {
        precondition(key.count <= Int(Int32.max), "HMAC key too long")
        // A one-byte placeholder gives OpenSSL a non-NULL pointer for an empty key; its length stays 0.
        let keyBytes = key.isEmpty ? [0] : key
        return [UInt8](unsafeUninitializedCapacity: digest.size) { output, initialized in
            var length: UInt32 = 0
            let result = keyBytes.withUnsafeBytes { keyBuffer in
                message.withUnsafeBytes { messageBuffer in
                    COpenSSL.HMAC(
                        digest.pointer, keyBuffer.baseAddress, Int32(key.count),
                        messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count,
                        output.baseAddress, &length)
                }
            }
            // HMAC() with a fetched digest only fails on allocation failure.
            precondition(result != nil && Int(length) == digest.size, "HMAC() failed")
            initialized = digest.size
        }
    }
}
