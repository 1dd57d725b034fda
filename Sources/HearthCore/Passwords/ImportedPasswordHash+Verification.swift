import BCrypt
import HearthCrypto

extension ImportedPasswordHash {
    /// Whether `password` is the one this hash was made from, compared in constant time (see
    /// ``ImportedHashScheme`` for each algorithm's definition).
    public func matches(_ password: String) throws -> Bool {
        let password = Array(password.utf8)
        switch scheme {
        case .bcrypt:
            return BCryptHash.verify(password, against: String(decoding: hash, as: UTF8.self))
        case .md5(let rounds):
            var digest = DigestAlgorithm.md5.hash(salt + password)
            for _ in 0..<rounds { digest = DigestAlgorithm.md5.hash(digest + password) }
            return ConstantTime.equals(hash.count == 16 ? digest : Array(Hex.encode(digest).utf8), hash)
        default:
            return ConstantTime.equals(try derive(password), hash)
        }
    }

    private func derive(_ password: [UInt8]) throws -> [UInt8] {
        switch scheme {
        case .firebaseScrypt(let key, let separator, let rounds, let memoryCost):
            let derived = try Scrypt.derive(
                password: password, salt: salt + separator, n: 1 << memoryCost, r: rounds, p: 1,
                byteCount: AES256CTR.keyByteCount)
            return try AES256CTR.apply(key, key: derived, iv: [UInt8](repeating: 0, count: AES256CTR.ivByteCount))
        case .standardScrypt(let n, let r, let p, let dkLen):
            return try Scrypt.derive(password: password, salt: salt, n: n, r: r, p: p, byteCount: dkLen)
        case .pbkdf2(let digest, let rounds):
            return try PBKDF2.derive(password: password, salt: salt, iterations: max(rounds, 1), digest: digest, byteCount: hash.count)
        case .hmac(let digest, let key, let order):
            return HMAC.compute(digest, key: key, message: order.joined(salt: salt, password: password))
        case .digest(let digest, let rounds, let order):
            var value = digest.hash(order.joined(salt: salt, password: password))
            for _ in 1..<max(rounds, 1) { value = digest.hash(value) }
            return value
        case .bcrypt, .md5:
            preconditionFailure("matches(_:) checks bcrypt and MD5 itself")
        }
    }
}
