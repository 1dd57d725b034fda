internal import CXCrypt
import HearthCrypto

/// Checks passwords against bcrypt hashes (`$2a$`, `$2b$`, `$2y$`), as other systems export them, with libxcrypt's
/// thread-safe `crypt_rn` and a constant-time comparison. Hearth never writes bcrypt hashes; it only verifies
/// imported ones.
///
/// Related documentation: crypt(5) and crypt_rn(3) of libxcrypt.
public enum BCryptHash {
    /// The cost (log2 of the rounds) of `hash` when it is a well-formed bcrypt hash — `$2a$`, `$2b$` or `$2y$`, a
    /// two-digit cost from 04 to 31, then 53 characters of bcrypt's base64 (22 of salt, 31 of hash) — else `nil`.
    public static func cost(of hash: String) -> Int? {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
            bytes[6] == UInt8(ascii: "$"), let tens = digit(bytes[4]), let ones = digit(bytes[5]),
            bytes[7...].allSatisfy(isBCryptBase64)
        else { return nil }
        let cost = tens * 10 + ones
        return (4...31).contains(cost) ? cost : nil
    }

    /// Whether `password` matches the bcrypt `hash`. A `hash` that ``cost(of:)`` refuses, and a password holding a
    /// NUL byte (which crypt would silently cut short), never match. Like every bcrypt, only the first 72 bytes of
    /// the password count.
    public static func verify(_ password: [UInt8], against hash: String) -> Bool {
        guard cost(of: hash) != nil, !password.contains(0) else { return false }
        let size = MemoryLayout<crypt_data>.size
        let data = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        // crypt_rn needs the structure zeroed before its first use; it is wiped again before it is freed, since it
        // held the password.
        data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        defer {
            data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            data.deallocate()
        }
        let computed: [UInt8]? = (password + [0]).withUnsafeBufferPointer { phrase in
            phrase.withMemoryRebound(to: CChar.self) { phrase in
                guard let output = crypt_rn(phrase.baseAddress, hash, data, Int32(size)) else { return nil }
                return Array(String(cString: output).utf8)
            }
        }
        guard let computed else { return false }
        return ConstantTime.equals(computed, Array(hash.utf8))
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func isBCryptBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
