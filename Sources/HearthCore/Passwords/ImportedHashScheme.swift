public import HearthCrypto

/// How a password hash imported through `accounts:batchCreate` was made: one of the algorithms Firebase's import
/// takes, with its parameters (firebase-admin's `UserImportHash`). The definitions, checked against Firebase's
/// published vectors and firebase-admin-node's integration tests against production:
///
/// - `SCRYPT` (Firebase's modified scrypt, github.com/firebase/scrypt): the hash is the signer key encrypted with
///   AES-256-CTR, zero IV, under the first 32 bytes of scrypt(password, salt ‖ saltSeparator, N = 2^memoryCost,
///   r = rounds, p = 1).
/// - `STANDARD_SCRYPT`: scrypt(password, salt, N = cpuMemCost, r = blockSize, p = parallelization, dkLen).
/// - `BCRYPT`: the hash is the whole `$2a$`/`$2b$`/`$2y$` string; the salt is inside it.
/// - `PBKDF_SHA1`, `PBKDF2_SHA256`: PBKDF2(password, salt, rounds) as long as the stored hash (0 rounds count as 1).
/// - `HMAC_*`: HMAC(signerKey, password ‖ salt), or salt ‖ password with `SALT_AND_PASSWORD`.
/// - `SHA1`, `SHA256`, `SHA512`: H(salt ‖ password) (or password ‖ salt with `PASSWORD_AND_SALT`), hashed again
///   (H(x)) until there were `rounds` hashes (0 counts as 1).
/// - `MD5`: x = MD5(salt ‖ password) (the order option is ignored, as Firebase does), then `rounds` times
///   x = MD5(x ‖ password) (phpass's loop: 8,192, the cap, is WordPress's count); compared as Firebase does with
///   the lowercase hex text of x (32 bytes), or with x itself when the stored hash is 16 bytes.
///
/// Work is capped so that one verification can neither take seconds nor claim much memory (DESIGN decision 3):
/// see the `maximum…` constants.
public enum ImportedHashScheme: Sendable, Equatable {
    case firebaseScrypt(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int)
    case standardScrypt(n: Int, r: Int, p: Int, dkLen: Int)
    case bcrypt
    case pbkdf2(DigestAlgorithm, rounds: Int)
    case hmac(DigestAlgorithm, key: [UInt8], order: PasswordHashOrder)
    case digest(DigestAlgorithm, rounds: Int, order: PasswordHashOrder)
    case md5(rounds: Int)

    /// Firebase scrypt's bounds (Firebase's own): rounds (r) 1–8, memory cost (log2 N) 1–14, so at most 16 MiB.
    public static let firebaseScryptRounds = 1...8
    public static let firebaseScryptMemoryCosts = 1...14
    /// Standard scrypt: at most 32 MiB of memory (128·N·r) and 64 MiB of work (128·N·r·p), about four Firebase
    /// scrypt verifications.
    public static let maximumStandardScryptMemory = 32 << 20
    public static let maximumStandardScryptWork = 64 << 20
    /// bcrypt: cost at most 13 (about 0.6 s on one loaded core; 10 to 12 are common).
    public static let maximumBCryptCost = 13
    /// PBKDF2: Firebase's 0–120,000 rounds, and a stored hash of at most 64 bytes.
    public static let pbkdf2Rounds = 0...120_000
    public static let maximumPBKDF2HashLength = 64
    /// SHA and MD5: Firebase's 0–8,192 rounds.
    public static let digestRounds = 0...8192
    /// Keys, separators, salts and hashes: at most 1,024 bytes each.
    public static let maximumByteCount = 1024

    /// Firebase's name for the algorithm (`hashAlgorithm`).
    public var algorithmName: String {
        switch self {
        case .firebaseScrypt: "SCRYPT"
        case .standardScrypt: "STANDARD_SCRYPT"
        case .bcrypt: "BCRYPT"
        case .pbkdf2(let digest, _): digest == .sha1 ? "PBKDF_SHA1" : "PBKDF2_SHA256"
        case .hmac(let digest, _, _): "HMAC_" + digest.rawValue
        case .digest(let digest, _, _): digest.rawValue
        case .md5: "MD5"
        }
    }

    /// Whether the parameters are within Firebase's ranges and Hearth's work caps.
    var isWithinBounds: Bool {
        switch self {
        case .firebaseScrypt(let key, let separator, let rounds, let memoryCost):
            return Self.firebaseScryptRounds.contains(rounds) && Self.firebaseScryptMemoryCosts.contains(memoryCost)
                && (1...Self.maximumByteCount).contains(key.count) && separator.count <= Self.maximumByteCount
        case .standardScrypt(let n, let r, let p, let dkLen):
            guard (1...Self.maximumByteCount).contains(dkLen), n > 1, n & (n - 1) == 0, r >= 1, p >= 1,
                n <= Self.maximumStandardScryptMemory
            else { return false }
            let (memory, memoryOverflow) = (128 * n).multipliedReportingOverflow(by: r)
            let (work, workOverflow) = memory.multipliedReportingOverflow(by: p)
            return !memoryOverflow && memory <= Self.maximumStandardScryptMemory && !workOverflow
                && work <= Self.maximumStandardScryptWork
        case .bcrypt:
            return true
        case .pbkdf2(let digest, let rounds):
            return [.sha1, .sha256].contains(digest) && Self.pbkdf2Rounds.contains(rounds)
        case .hmac(_, let key, _):
            return (1...Self.maximumByteCount).contains(key.count)
        case .digest(let digest, let rounds, _):
            return digest != .md5 && Self.digestRounds.contains(rounds)
        case .md5(let rounds):
            return Self.digestRounds.contains(rounds)
        }
    }
}

/// Which of salt and password comes first in the hashed input (`passwordHashOrder`).
public enum PasswordHashOrder: String, Sendable, Equatable {
    case saltAndPassword = "SALT_AND_PASSWORD"
    case passwordAndSalt = "PASSWORD_AND_SALT"

    func joined(salt: [UInt8], password: [UInt8]) -> [UInt8] {
        self == .saltAndPassword ? salt + password : password + salt
    }
}
