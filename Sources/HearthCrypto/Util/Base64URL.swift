/// The URL- and filename-safe base64 alphabet of RFC 4648 §5, as used by JOSE (RFC 7515 §2).
///
/// Encoding never emits `=` padding. Decoding is strict about the alphabet:
///
/// - characters outside `A–Z a–z 0–9 - _` are rejected (including `+`, `/`, whitespace and line breaks);
/// - trailing `=` padding is accepted only when it is exactly what a padded encoding would have (callers such as
///   JOSE that must refuse padding check for `=` themselves);
/// - lengths that no encoding can produce (`length % 4 == 1`) are rejected;
/// - non-canonical encodings, whose unused low bits in the last character are not zero, are rejected, so each
///   byte string has exactly one accepted unpadded encoding.
///
/// ```swift
/// let text = Base64URL.encode([0xFB, 0xFF])   // "-_8"
/// let bytes = Base64URL.decode(text)          // [0xFB, 0xFF]
/// ```
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xFF when the byte is not in the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    private static let padding = UInt8(ascii: "=")

    /// Encodes `bytes` as base64url without padding.
    ///
    /// - Parameter bytes: any byte sequence (`[UInt8]`, `Data`, an array slice, a string's `utf8` view).
    /// - Returns: the encoded text; empty input gives an empty string.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        let outputCount = (input.count / 3) * 4 + [0, 2, 3][input.count % 3]
        guard outputCount > 0 else { return "" }
        return String(unsafeUninitializedCapacity: outputCount) { output in
            alphabet.withUnsafeBufferPointer { table in
                var out = 0
                var index = 0
                while index + 3 <= input.count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[out] = table[Int(chunk >> 18 & 0x3F)]
                    output[out + 1] = table[Int(chunk >> 12 & 0x3F)]
                    output[out + 2] = table[Int(chunk >> 6 & 0x3F)]
                    output[out + 3] = table[Int(chunk & 0x3F)]
                    out += 4
                    index += 3
                }
                switch input.count - index {
                case 1:
                    let chunk = UInt32(input[index]) << 16
                    output[out] = table[Int(chunk >> 18 & 0x3F)]
                    output[out + 1] = table[Int(chunk >> 12 & 0x3F)]
                    out += 2
                case 2:
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    output[out] = table[Int(chunk >> 18 & 0x3F)]
                    output[out + 1] = table[Int(chunk >> 12 & 0x3F)]
                    output[out + 2] = table[Int(chunk >> 6 & 0x3F)]
                    out += 3
                default:
                    break
                }
            }
            return outputCount
        }
    }

    /// Decodes base64url text.
    ///
    /// - Parameter string: the encoded text, unpadded or correctly padded with `=`.
    /// - Returns: the decoded bytes, or `nil` when the text is not valid base64url (see the type's rules).
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        // Native strings and substrings lend their UTF-8 storage directly; anything else is copied once.
        if let decoded = string.utf8.withContiguousStorageIfAvailable({ decode(utf8: $0) }) {
            return decoded
        }
        return Array(string.utf8).withUnsafeBufferPointer { decode(utf8: $0) }
    }

    /// Decodes base64url given as the bytes of its (ASCII) text, for callers that already hold bytes.
    ///
    /// - Parameter bytes: the encoded text's UTF-8 bytes, such as a slice of a token's `utf8`.
    /// - Returns: the decoded bytes, or `nil` when the text is not valid base64url.
    public static func decode(bytes: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = bytes.withContiguousStorageIfAvailable({ decode(utf8: $0) }) {
            return decoded
        }
        return Array(bytes).withUnsafeBufferPointer { decode(utf8: $0) }
    }

    private static func decode(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var count = input.count
        // Strip correct padding: one or two '=' that complete a multiple of 4. Any other '=' is then an invalid
        // character below.
        if count > 0 && input[count - 1] == padding {
            guard count % 4 == 0 else { return nil }
            count -= 1
            if input[count - 1] == padding {
                count -= 1
            }
        }
        let remainder = count % 4
        guard remainder != 1 else { return nil }
        let fullQuads = count / 4
        let outputCount = fullQuads * 3 + [0, 0, 1, 2][remainder]
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            decodeTable.withUnsafeBufferPointer { table in
                var inIndex = 0
                var outIndex = 0
                // Values are 0–63, or 0xFF for "not in the alphabet"; OR-ing them exposes any 0xFF.
                var flags: UInt8 = 0
                for _ in 0..<fullQuads {
                    let a = table[Int(input[inIndex])]
                    let b = table[Int(input[inIndex + 1])]
                    let c = table[Int(input[inIndex + 2])]
                    let d = table[Int(input[inIndex + 3])]
                    flags |= a | b | c | d
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[outIndex] = UInt8(truncatingIfNeeded: chunk >> 16)
                    output[outIndex + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[outIndex + 2] = UInt8(truncatingIfNeeded: chunk)
                    inIndex += 4
                    outIndex += 3
                }
                switch remainder {
                case 2:
                    let a = table[Int(input[inIndex])]
                    let b = table[Int(input[inIndex + 1])]
                    flags |= a | b
                    // The low 4 bits of the last character are unused and must be zero (canonical encoding).
                    flags |= b & 0x0F == 0 ? 0 : 0xFF
                    output[outIndex] = UInt8(truncatingIfNeeded: UInt32(a) << 2 | UInt32(b) >> 4)
                    outIndex += 1
                case 3:
                    let a = table[Int(input[inIndex])]
                    let b = table[Int(input[inIndex + 1])]
                    let c = table[Int(input[inIndex + 2])]
                    flags |= a | b | c
                    // The low 2 bits of the last character are unused and must be zero (canonical encoding).
                    flags |= c & 0x03 == 0 ? 0 : 0xFF
                    let chunk = UInt32(a) << 10 | UInt32(b) << 4 | UInt32(c) >> 2
                    output[outIndex] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[outIndex + 1] = UInt8(truncatingIfNeeded: chunk)
                    outIndex += 2
                default:
                    break
                }
                valid = flags & 0x80 == 0
                initialized = outIndex
            }
        }
        return valid ? output : nil
    }
}
