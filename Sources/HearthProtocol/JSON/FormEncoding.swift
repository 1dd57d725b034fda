/// `application/x-www-form-urlencoded` text, as browsers and OAuth clients send it.
public enum FormEncoding {
    /// Splits `a=1&b=2` into ordered pairs. `+` is a space, `%XX` is a byte; malformed escapes are kept
    /// as written. Empty segments are skipped; a key without `=` gets an empty value.
    ///
    /// `&` and `=` are found as bytes (WHATWG URL §5.1), also where a combining mark follows them and makes them
    /// part of a larger character.
    public static func decode(_ text: some StringProtocol) -> [(name: String, value: String)] {
        Substring(text).utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { bytes in
            let pair = Substring(bytes)
            if let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) {
                return (unescape(pair[..<equals]), unescape(pair[pair.utf8.index(after: equals)...]))
            }
            return (unescape(pair), "")
        }
    }

    /// Builds `a=1&b=2`, escaping everything outside RFC 3986's unreserved set.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Percent-escapes every byte outside `A–Z a–z 0–9 - . _ ~`.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// Decodes `+` and `%XX`; invalid UTF-8 is replaced with U+FFFD.
    public static func unescape(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
