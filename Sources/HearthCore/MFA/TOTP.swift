import HearthCrypto

/// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) with HMAC-SHA1, as authenticator apps
/// and Firebase's TOTP factor use them: 6 digits, 30-second steps.
public struct TOTP: Sendable {
    public var digits: Int
    public var period: Int64

    public init(digits: Int = 6, period: Int64 = 30) {
        precondition((6...8).contains(digits) && period > 0)
        self.digits = digits
        self.period = period
    }

    /// The time step that `seconds` (since 1970) falls in.
    public func step(at seconds: Int64) -> Int64 { seconds / period }

    /// The code of one time step.
    public func code(secret: [UInt8], step: Int64) -> String {
        var counter = [UInt8](repeating: 0, count: 8)
        var value = UInt64(bitPattern: step)
        for index in stride(from: 7, through: 0, by: -1) {
            counter[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        let mac = HMAC.sha1(key: secret, message: counter)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let number = String(truncated % modulus)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// The step whose code equals `code` within ±`window` steps of `seconds`, or nil. Compared in
    /// constant time per candidate.
    public func matchingStep(code: String, secret: [UInt8], at seconds: Int64, window: Int64 = 1) -> Int64? {
        let given = Array(code.utf8)
        guard given.count == digits, given.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let current = step(at: seconds)
        var matched: Int64?
        for candidate in (current - window)...(current + window)
        where ConstantTime.equals(Array(self.code(secret: secret, step: candidate).utf8), given) {
            matched = candidate
        }
        return matched
    }
}

/// RFC 4648 base32 (upper case, no padding), the encoding of TOTP shared secrets.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 0x1F)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes upper- or lower-case base32; spaces and `=` padding are ignored. Nil for other characters.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
