internal import CArgon2
internal import HearthCrypto

/// Argon2id (RFC 9106) through libargon2: hashes to PHC strings and checks passwords against them.
///
/// ```swift
/// let stored = try Argon2id.hash("correct horse", cost: Argon2idCost(memoryKiB: 19_456, iterations: 2, parallelism: 1))
/// try Argon2id.verify("correct horse", against: stored)  // true
/// ```
///
/// Both calls are deliberately slow and use `memoryKiB` of memory; callers bound how many run at once.
public enum Argon2id {
    /// Bytes of random salt in a new hash.
    public static let saltLength = 16
    /// Bytes of hash output in a new hash.
    public static let hashLength = 32

    /// The PHC string of `password` with a fresh 16-byte random salt
    /// (`$argon2id$v=19$m=<KiB>,t=<iterations>,p=<lanes>$<salt>$<hash>`, base64 without padding).
    public static func hash(_ password: String, cost: Argon2idCost) throws(Argon2Error) -> String {
        try hash(password, salt: SecureRandom.bytes(count: saltLength), cost: cost)
    }

    /// The PHC string of `password` with the given salt (at least 8 bytes); for reference vectors.
    public static func hash(_ password: String, salt: [UInt8], cost: Argon2idCost) throws(Argon2Error) -> String {
        let length = argon2_encodedlen(
            cost.iterations, cost.memoryKiB, cost.parallelism, UInt32(clamping: salt.count), UInt32(hashLength),
            Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                argon2id_hash_encoded(
                    cost.iterations, cost.memoryKiB, cost.parallelism, passwordBytes.baseAddress, passwordBytes.count,
                    saltBytes.baseAddress, saltBytes.count, hashLength, &encoded, length)
            }
        }
        guard status == ARGON2_OK.rawValue else { throw Argon2Error(status: status) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` hashes to `encoded` (compared in constant time inside libargon2). Throws
    /// ``Argon2Error/malformedHash`` for a string that is not Argon2id; read ``Argon2idEncodedHash`` first to
    /// refuse costs a caller will not pay.
    public static func verify(_ password: String, against encoded: String) throws(Argon2Error) -> Bool {
        guard !encoded.utf8.contains(0) else { throw .malformedHash }
        let password = Array(password.utf8)
        let status = password.withUnsafeBytes { passwordBytes in
            argon2id_verify(encoded, passwordBytes.baseAddress, passwordBytes.count)
        }
        switch status {
        case ARGON2_OK.rawValue: return true
        case ARGON2_VERIFY_MISMATCH.rawValue: return false
        default: throw Argon2Error(status: status)
        }
    }
}
