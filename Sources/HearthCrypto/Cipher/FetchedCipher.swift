internal import COpenSSL

/// A cipher fetched once from OpenSSL's default provider and kept for the life of the process (as
/// `FetchedDigest` does for digests).
///
/// `@unchecked Sendable`: the `EVP_CIPHER` is immutable after the fetch, never freed, and OpenSSL documents fetched
/// algorithm objects as safe to share between threads.
final class FetchedCipher: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(name: String) {
        guard let pointer = EVP_CIPHER_fetch(nil, name, nil) else {
            preconditionFailure("OpenSSL's default provider has no \(name) cipher: \(OpenSSLError.drainingQueue(operation: "EVP_CIPHER_fetch"))")
        }
        self.pointer = pointer
    }

    static let aes256GCM = FetchedCipher(name: "AES-256-GCM")
    static let aes256CTR = FetchedCipher(name: "AES-256-CTR")
}
