internal import COpenSSL

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) with 96-bit nonces and 128-bit tags, computed by OpenSSL's
/// EVP API: encrypts and authenticates a message, and authenticates associated data that is not encrypted.
///
/// Never use a nonce twice with the same key: take each from ``SecureRandom``, and seal at most 2³² messages
/// under one key (the bound for random 96-bit nonces).
///
/// ```swift
/// let key = try AES256GCM.Key(SecureRandom.bytes(count: AES256GCM.Key.byteCount))
/// let nonce = SecureRandom.bytes(count: AES256GCM.nonceByteCount)
/// let sealed = try AES256GCM.seal(Array("secret".utf8), key: key, nonce: nonce, associatedData: Array("row 7".utf8))
/// let opened = try AES256GCM.open(sealed, key: key, nonce: nonce, associatedData: Array("row 7".utf8))
/// ```
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/EVP_EncryptInit_ex2.html>
public enum AES256GCM {
    /// The nonce length in bytes (96 bits, GCM's recommended size).
    public static let nonceByteCount = 12
    /// The authentication tag length in bytes (128 bits).
    public static let tagByteCount = 16

    /// A 256-bit key. Its description never shows the key bytes.
    public struct Key: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The key length in bytes.
        public static let byteCount = 32
        let bytes: [UInt8]

        /// - Throws: ``CryptoError`` `.invalidKey` unless `bytes` holds exactly 32 bytes.
        public init(_ bytes: [UInt8]) throws {
            guard bytes.count == Self.byteCount else {
                throw CryptoError(.invalidKey, reason: "an AES-256 key is \(Self.byteCount) bytes, not \(bytes.count)")
            }
            self.bytes = bytes
        }

        public var description: String { "AES256GCM.Key(32 bytes)" }
        public var debugDescription: String { description }
    }

    /// Encrypts `plaintext` and authenticates it together with `associatedData`.
    ///
    /// - Returns: the ciphertext (as long as `plaintext`) followed by the 16-byte tag.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a nonce that is not 12 bytes or an input over 2 GiB;
    ///   ``OpenSSLError`` when OpenSSL fails.
    public static func seal(_ plaintext: [UInt8], key: Key, nonce: [UInt8], associatedData: [UInt8] = []) throws
        -> [UInt8]
    {
        let context = try Context(key: key, nonce: nonce, encrypting: true, associatedData: associatedData)
        let ciphertext = try context.update(plaintext)
        // GCM is a stream mode: the final call writes no bytes, but must run before the tag exists.
        try context.finish()
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), &tag) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "EVP_CIPHER_CTX_ctrl(get tag)")
        }
        return ciphertext + tag
    }

    /// Checks the tag of `sealed` (ciphertext followed by tag, as ``seal(_:key:nonce:associatedData:)`` returns
    /// it) against `key`, `nonce` and `associatedData`, and decrypts.
    ///
    /// - Returns: the plaintext, only when everything authenticates.
    /// - Throws: ``CryptoError`` `.authenticationFailed` when the key, nonce, associated data or any byte differs
    ///   from what was sealed (no plaintext is returned then); `.invalidArgument` for a nonce that is not 12 bytes;
    ///   ``OpenSSLError`` when OpenSSL fails.
    public static func open(_ sealed: [UInt8], key: Key, nonce: [UInt8], associatedData: [UInt8] = []) throws
        -> [UInt8]
    {
        guard sealed.count >= tagByteCount else {
            throw CryptoError(.authenticationFailed, reason: "sealed data is shorter than its tag")
        }
        let context = try Context(key: key, nonce: nonce, encrypting: false, associatedData: associatedData)
        var plaintext = try context.update(Array(sealed.dropLast(tagByteCount)))
        var tag = Array(sealed.suffix(tagByteCount))
        guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "EVP_CIPHER_CTX_ctrl(set tag)")
        }
        do {
            try context.finish()
        } catch {
            // A wrong tag is not an OpenSSL failure (finish drained what it queued); wipe the unverified plaintext.
            plaintext.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            throw CryptoError(.authenticationFailed, reason: "the sealed data did not authenticate")
        }
        return plaintext
    }

    /// One `EVP_CIPHER_CTX` set up with key, nonce and associated data; freed on deinit.
    private final class Context {
        let pointer: OpaquePointer

        init(key: Key, nonce: [UInt8], encrypting: Bool, associatedData: [UInt8]) throws {
            guard nonce.count == AES256GCM.nonceByteCount else {
                throw CryptoError(.invalidArgument, reason: "an AES-GCM nonce is \(AES256GCM.nonceByteCount) bytes")
            }
            OpenSSLError.clearQueue()
            guard let pointer = EVP_CIPHER_CTX_new() else {
                throw OpenSSLError.drainingQueue(operation: "EVP_CIPHER_CTX_new")
            }
            self.pointer = pointer
            // GCM's default IV length in OpenSSL is 12 bytes, so no parameter is needed for the nonce.
            let initialized = key.bytes.withUnsafeBufferPointer { keyBytes in
                nonce.withUnsafeBufferPointer { nonceBytes in
                    encrypting
                        ? EVP_EncryptInit_ex2(pointer, FetchedCipher.aes256GCM.pointer, keyBytes.baseAddress, nonceBytes.baseAddress, nil)
                        : EVP_DecryptInit_ex2(pointer, FetchedCipher.aes256GCM.pointer, keyBytes.baseAddress, nonceBytes.baseAddress, nil)
                }
            }
            guard initialized == 1 else { throw OpenSSLError.drainingQueue(operation: "EVP_CipherInit_ex2") }
            if !associatedData.isEmpty {
                // With a NULL output buffer, an update feeds associated data.
                _ = try update(associatedData, output: false)
            }
        }

        deinit { EVP_CIPHER_CTX_free(pointer) }

        /// Ends the operation: computes the tag when encrypting, checks the tag set before when decrypting.
        func finish() throws {
            // GCM writes no bytes here; the buffer only gives OpenSSL somewhere to point.
            var unused = [UInt8](repeating: 0, count: AES256GCM.tagByteCount)
            var written: Int32 = 0
            guard EVP_CipherFinal_ex(pointer, &unused, &written) == 1, written == 0 else {
                throw OpenSSLError.drainingQueue(operation: "EVP_CipherFinal_ex")
            }
        }

        /// Encrypts or decrypts `input` (or, with `output: false`, authenticates it as associated data).
        @discardableResult
        func update(_ input: [UInt8], output: Bool = true) throws -> [UInt8] {
            guard input.count <= Int(Int32.max) else {
                throw CryptoError(.invalidArgument, reason: "AES-GCM input over 2 GiB")
            }
            guard !input.isEmpty else { return [] }
            var written: Int32 = 0
            let result = [UInt8](unsafeUninitializedCapacity: output ? input.count : 0) { buffer, initialized in
                let status = input.withUnsafeBufferPointer { inputBytes in
                    EVP_CipherUpdate(
                        pointer, output ? buffer.baseAddress : nil, &written, inputBytes.baseAddress, Int32(input.count))
                }
                initialized = status == 1 && output ? Int(written) : 0
                if status != 1 { written = -1 }
            }
            guard written == Int32(input.count) else { throw OpenSSLError.drainingQueue(operation: "EVP_CipherUpdate") }
            return result
        }
    }
}
