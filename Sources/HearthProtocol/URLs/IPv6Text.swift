/// IPv6 addresses as text (RFC 4291 §2.2 without embedded IPv4), and their RFC 5952 form, which is how the WHATWG
/// URL Standard serializes them.
enum IPv6Text {
    /// The eight 16-bit groups of `text` (`1:2::8`, at most one `::`), or nil.
    static func groups(_ text: ArraySlice<UInt8>) -> [UInt16]? {
        let colon = UInt8(ascii: ":")
        var doubleColon: Int?
        var index = text.startIndex
        while index + 1 < text.endIndex {
            if text[index] == colon, text[index + 1] == colon {
                guard doubleColon == nil else { return nil }
                doubleColon = index
                index += 2
            } else {
                index += 1
            }
        }
        guard let doubleColon else {
            let all = pieces(text)
            return all?.count == 8 ? all : nil
        }
        guard let head = pieces(text[..<doubleColon]), let tail = pieces(text[(doubleColon + 2)...]),
            head.count + tail.count <= 7
        else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// `a:b:c` as groups of 1 to 4 hex digits; the empty text is no groups.
    private static func pieces(_ text: ArraySlice<UInt8>) -> [UInt16]? {
        if text.isEmpty { return [] }
        var groups: [UInt16] = []
        for piece in text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
            guard (1...4).contains(piece.count) else { return nil }
            var value: UInt16 = 0
            for byte in piece {
                guard let digit = BrowserURL.hexValue(byte) else { return nil }
                value = value << 4 | UInt16(digit)
            }
            groups.append(value)
        }
        return groups
    }

    /// RFC 5952: lower-case hex without leading zeros, the first longest run of two or more zero groups as `::`.
    static func canonical(_ groups: [UInt16]) -> String {
        var compressed: Range<Int>?
        var start = 0
        while start < groups.count {
            guard groups[start] == 0 else {
                start += 1
                continue
            }
            var end = start
            while end < groups.count, groups[end] == 0 { end += 1 }
            if end - start >= 2, end - start > (compressed?.count ?? 0) { compressed = start..<end }
            start = end
        }
        let hex = { (range: Range<Int>) in groups[range].map { String($0, radix: 16) }.joined(separator: ":") }
        guard let compressed else { return hex(0..<groups.count) }
        return hex(0..<compressed.lowerBound) + "::" + hex(compressed.upperBound..<groups.count)
    }
}
