import HearthCrypto

/// Random identifiers and secret strings.
package enum Identifiers {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A Firebase-style uid: 28 random alphanumeric characters.
    static func localID() -> String { alphanumeric(length: 28) }

    /// `length` random alphanumeric characters.
    static func alphanumeric(length: Int) -> String { randomString(length: length, alphabet: alphanumerics) }

    /// `length` random lower-case letters and digits (the suffix of generated tenant ids).
    static func lowercaseAlphanumeric(length: Int) -> String {
        randomString(length: length, alphabet: Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8))
    }

    /// A Google-style subject: 21 decimal digits, not starting with 0.
    package static func googleSubject() -> String {
        let digits = Array("0123456789".utf8)
        return "1" + randomString(length: 20, alphabet: digits)
    }

    /// A key id: 40 lower-case hex characters, like Google's.
    static func keyID(prefix: String = "") -> String {
        prefix + hex(SecureRandom.bytes(count: 20))
    }

    /// An opaque secret for a refresh token, code or access token (256 bits, base64url).
    package static func secret(prefix: String = "") -> String { prefix + SecureRandom.token(byteCount: 32) }

    /// Lower-case hex SHA-256 of `secret`: what the store keeps instead of the secret.
    package static func hash(_ secret: String) -> String { hex(SHA256.hash(secret)) }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Uniform choice without modulo bias: bytes at or above the largest multiple of the alphabet size are redrawn.
    private static func randomString(length: Int, alphabet: [UInt8]) -> String {
        let limit = 256 - (256 % alphabet.count)
        var out = [UInt8]()
        out.reserveCapacity(length)
        while out.count < length {
            for byte in SecureRandom.bytes(count: length) where Int(byte) < limit && out.count < length {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
