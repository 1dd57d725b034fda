internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`).
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/RAND_bytes.html>
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// A failure of the random generator cannot be handled safely by a caller, so it stops the process
    /// (`precondition`) rather than returning predictable bytes.
    ///
    /// - Parameter count: how many bytes to return; must not be negative.
    /// - Returns: `count` bytes from `RAND_bytes`.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var offset = 0
            while offset < count {
                // RAND_bytes takes an Int32 length; fill very large requests in chunks.
                let chunk = min(count - offset, Int(Int32.max))
                let status = RAND_bytes(buffer.baseAddress! + offset, Int32(chunk))
                precondition(status == 1, "RAND_bytes failed; refusing to continue without secure randomness")
                offset += chunk
            }
            initialized = count
        }
    }

    /// Returns a random token: `byteCount` random bytes encoded as unpadded base64url.
    ///
    /// The default of 32 bytes gives 256 bits of entropy and a 43-character string, suitable for refresh tokens,
    /// one-time codes in links, OAuth `state` and `nonce` values.
    ///
    /// - Parameter byteCount: how many random bytes to encode.
    /// - Returns: the base64url text (alphabet `A–Z a–z 0–9 - _`, no `=`).
    public static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(count: byteCount))
    }
}
