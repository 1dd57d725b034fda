internal import COpenSSL

/// AES-256 in counter mode (NIST SP 800-38A) with a 128-bit big-endian counter block, computed by OpenSSL's EVP
/// API. It is unauthenticated: Hearth uses it only to recompute Firebase's scrypt password hashes, which encrypt a
/// known signer key under a password-derived key.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/EVP_EncryptInit_ex2.html>
public enum AES256CTR {
    /// The key length in bytes.
    public static let keyByteCount = 32
    /// The initial counter block's length in bytes.
    public static let ivByteCount = 16

    /// Encrypts (or, the same operation, decrypts) `input` under `key` from the counter block `iv`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a key that is not 32 bytes, an IV that is not 16 bytes or an
    ///   input over 2 GiB; ``OpenSSLError`` when OpenSSL fails.
    public static func apply(_ input: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard key.count == keyByteCount, iv.count == ivByteCount, input.count <= Int(Int32.max) else {
            throw CryptoError(.invalidArgument, reason: "AES-256-CTR takes a 32-byte key, a 16-byte IV and at most 2 GiB")
        }
        OpenSSLError.clearQueue()
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError.drainingQueue(operation: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex2(context, FetchedCipher.aes256CTR.pointer, key, iv, nil) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "EVP_EncryptInit_ex2")
        }
        guard !input.isEmpty else { return [] }
        var written: Int32 = 0
        var status: Int32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: input.count) { buffer, initialized in
            status = EVP_EncryptUpdate(context, buffer.baseAddress, &written, input, Int32(input.count))
            initialized = status == 1 ? Int(written) : 0
        }
        // CTR is a stream mode: every byte comes out of the update, and the final call adds none.
        guard status == 1, Int(written) == input.count else { throw OpenSSLError.drainingQueue(operation: "EVP_EncryptUpdate") }
        return output
    }
}
