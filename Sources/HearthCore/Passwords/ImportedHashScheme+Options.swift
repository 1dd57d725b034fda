public import HearthCrypto
public import HearthProtocol

extension ImportedHashScheme {
    /// The scheme `options` describe, or Firebase's error for the request: `INVALID_HASH_ALGORITHM` for an
    /// algorithm Hearth does not take, `INVALID_HASH_ROUNDS`, `INVALID_HASH_MEMORY_COST`, `INVALID_HASH_KEY`, … for a
    /// parameter outside its range (the ranges are Firebase's, narrowed by Hearth's work caps).
    public init(options: PasswordHashOptions) throws(WireError) {
        let algorithm = options.hashAlgorithm ?? ""
        let order = options.passwordHashOrder.flatMap(PasswordHashOrder.init(rawValue:))
        switch algorithm {
        case "SCRYPT":
            let key = try Self.bytes(options.signerKey, required: true, .invalidHashKey, "signerKey")
            let separator = try Self.bytes(options.saltSeparator, required: false, .invalidHashSaltSeparator, "saltSeparator")
            let rounds = try Self.number(options.rounds, in: Self.firebaseScryptRounds, .invalidHashRounds, "rounds")
            let memoryCost = try Self.number(
                options.memoryCost, in: Self.firebaseScryptMemoryCosts, .invalidHashMemoryCost, "memoryCost")
            self = .firebaseScrypt(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost)
        case "STANDARD_SCRYPT":
            // firebase-admin-python sends N as cpuMemCost, the Go and older SDKs as memoryCost.
            let n = try Self.number(options.cpuMemCost ?? options.memoryCost, in: 2...Self.maximumStandardScryptMemory, .invalidHashMemoryCost, "cpuMemCost")
            guard n & (n - 1) == 0 else { throw WireError(.invalidHashMemoryCost, "cpuMemCost must be a power of two.") }
            let r = try Self.number(options.blockSize, in: 1...Self.maximumStandardScryptMemory, .invalidHashBlockSize, "blockSize")
            let p = try Self.number(options.parallelization, in: 1...Self.maximumStandardScryptWork, .invalidHashParallelization, "parallelization")
            let dkLen = try Self.number(options.dkLen, in: 1...Self.maximumByteCount, .invalidHashDerivedKeyLength, "dkLen")
            self = .standardScrypt(n: n, r: r, p: p, dkLen: dkLen)
            guard isWithinBounds else {
                throw WireError(
                    .invalidHashMemoryCost,
                    "scrypt with these parameters needs more than Hearth allows (\(Self.maximumStandardScryptMemory >> 20) MiB of memory, \(Self.maximumStandardScryptWork >> 20) MiB of work).")
            }
        case "BCRYPT":
            self = .bcrypt
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            let rounds = try Self.number(options.rounds ?? 0, in: Self.pbkdf2Rounds, .invalidHashRounds, "rounds")
            self = .pbkdf2(algorithm == "PBKDF_SHA1" ? .sha1 : .sha256, rounds: rounds)
        case "HMAC_MD5", "HMAC_SHA1", "HMAC_SHA256", "HMAC_SHA512":
            let key = try Self.bytes(options.signerKey, required: true, .invalidHashKey, "signerKey")
            let digest = DigestAlgorithm(rawValue: String(algorithm.dropFirst("HMAC_".count)))!
            self = .hmac(digest, key: key, order: order ?? .passwordAndSalt)
        case "SHA1", "SHA256", "SHA512":
            let rounds = try Self.number(options.rounds ?? 0, in: Self.digestRounds, .invalidHashRounds, "rounds")
            self = .digest(DigestAlgorithm(rawValue: algorithm)!, rounds: rounds, order: order ?? .saltAndPassword)
        case "MD5":
            self = .md5(rounds: try Self.number(options.rounds ?? 0, in: Self.digestRounds, .invalidHashRounds, "rounds"))
        default:
            throw WireError(
                .invalidHashAlgorithm,
                algorithm.isEmpty
                    ? "hashAlgorithm is required to import password hashes."
                    : "Hearth imports SCRYPT, STANDARD_SCRYPT, BCRYPT, PBKDF_SHA1, PBKDF2_SHA256, HMAC_MD5, HMAC_SHA1, HMAC_SHA256, HMAC_SHA512, MD5, SHA1, SHA256 and SHA512 hashes.")
        }
    }

    private static func number(_ value: Int64?, in range: ClosedRange<Int>, _ code: ErrorCode, _ name: String) throws(WireError) -> Int {
        guard let value, value >= range.lowerBound, value <= range.upperBound else {
            throw WireError(code, "\(name) must be from \(range.lowerBound) to \(range.upperBound).")
        }
        return Int(value)
    }

    private static func bytes(_ text: String?, required: Bool, _ code: ErrorCode, _ name: String) throws(WireError) -> [UInt8] {
        guard let text, !text.isEmpty else {
            if required { throw WireError(code, "\(name) is required for this hashAlgorithm.") }
            return []
        }
        guard let bytes = ProtoBytes.decode(text), bytes.count <= maximumByteCount else {
            throw WireError(code, "\(name) must be base64, at most \(maximumByteCount) bytes.")
        }
        return bytes
    }
}
