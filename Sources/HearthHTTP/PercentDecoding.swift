/// Percent-decoding for URL paths (RFC 3986 §2.1) and query strings
/// (`application/x-www-form-urlencoded`, WHATWG URL §5.1).
///
/// libmicrohttpd is told to leave URLs untouched (see `HTTPServer`), so all decoding happens here.
/// Malformed escapes such as `%zz` or a trailing `%` are kept literally; decoded bytes that are not
/// valid UTF-8 become U+FFFD. Visible to the fuzz targets (`Fuzz/`) as SPI only.
@_spi(Fuzzing) public enum PercentDecoding {
    /// Decodes a path: `%XX` escapes only; `+` stays `+`.
    public static func decodePath<S: StringProtocol>(_ text: S) -> String {
        decode(text, plusIsSpace: false)
    }

    /// Decodes one query key or value: `%XX` escapes, and `+` means a space.
    public static func decodeFormComponent<S: StringProtocol>(_ text: S) -> String {
        decode(text, plusIsSpace: true)
    }

    /// Splits a raw query (`a=1&b=x+y&a=2`) into decoded pairs, in order. Empty pieces are skipped;
    /// a piece without `=` has an empty value. `&` and `=` are found as bytes, also where a combining
    /// mark follows them.
    public static func parseQuery(_ raw: String) -> [(String, String)] {
        guard !raw.isEmpty else { return [] }
        var pairs: [(String, String)] = []
        for piece in raw.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let part = Substring(piece)
            if let equals = part.utf8.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append((decodeFormComponent(part[..<equals]), decodeFormComponent(part[part.utf8.index(after: equals)...])))
            } else {
                pairs.append((decodeFormComponent(part), ""))
            }
        }
        return pairs
    }

    private static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String {
        let utf8 = text.utf8
        // Fast path: nothing to decode, return the text as it is.
        let needsWork = utf8.contains { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }
        guard needsWork else { return String(text) }

        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
                        output.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                output.append(byte)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else {
                output.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
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
