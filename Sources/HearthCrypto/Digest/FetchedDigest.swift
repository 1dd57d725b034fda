internal import COpenSSL

/// A digest algorithm fetched once from OpenSSL's default provider and kept for the life of the process.
///
/// Fetching (`EVP_MD_fetch`) takes locks and searches the provider's method store, so doing it per call would put
/// that cost on every hash, HMAC and signature check.
///
/// `@unchecked Sendable`: the wrapped `EVP_MD` is immutable after the fetch, never freed, and OpenSSL documents
/// fetched algorithm objects as safe to share between threads.
final class FetchedDigest: @unchecked Sendable {
    /// The `EVP_MD *` for this algorithm.
    let pointer: OpaquePointer
    /// The digest length in bytes.
    let size: Int

    private init(name: String) {
        guard let pointer = EVP_MD_fetch(nil, name, nil) else {
            preconditionFailure("OpenSSL's default provider has no \(name) digest: \(OpenSSLError.drainingQueue(operation: "EVP_MD_fetch"))")
        }
        self.pointer = pointer
        self.size = Int(EVP_MD_get_size(pointer))
    }

    static let sha256 = FetchedDigest(name: "SHA256")
    static let sha1 = FetchedDigest(name: "SHA1")
    static let sha512 = FetchedDigest(name: "SHA512")
    static let md5 = FetchedDigest(name: "MD5")

    /// Hashes `count` bytes at `data` into `output`, which must have room for ``size`` bytes.
    func hash(_ data: UnsafeRawPointer?, count: Int, into output: UnsafeMutablePointer<UInt8>) {
        var length: UInt32 = 0
        // EVP_Digest with a pre-fetched digest cannot fail except on allocation failure.
        let status = EVP_Digest(data, count, output, &length, pointer, nil)
        precondition(status == 1 && Int(length) == size, "EVP_Digest failed")
    }

    /// Hashes `bytes` and returns the digest.
    func hash(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
            bytes.withUnsafeBytes { input in
                hash(input.baseAddress, count: input.count, into: output.baseAddress!)
            }
            initialized = size
        }
    }
}
