/// Lower-case hexadecimal text, as used for key ids and digests shown to operators.
public enum Hex {
    /// Encodes `bytes` as lower-case hex, two characters per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
