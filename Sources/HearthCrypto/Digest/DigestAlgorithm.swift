/// The digests that password hashes imported from other systems use, for ``DigestAlgorithm/hash(_:)``,
/// ``HMAC/compute(_:key:message:)`` and ``PBKDF2``. MD5 and SHA-1 are here only to check such legacy hashes.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// The digest length in bytes.
    public var byteCount: Int { fetched.size }

    /// Hashes `bytes`.
    public func hash(_ bytes: [UInt8]) -> [UInt8] { fetched.hash(bytes) }

    var fetched: FetchedDigest {
        switch self {
        case .md5: .md5
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha512: .sha512
        }
    }
}
