/// Converts P-256 ECDSA signatures between JOSE's fixed-size form, r ‖ s with 32 bytes each (RFC 7518 §3.4), and
/// the DER `ECDSA-Sig-Value` SEQUENCE { r INTEGER, s INTEGER } that OpenSSL reads and writes (RFC 3279 §2.2.3).
enum ECDSASignature {
    /// The length of a JOSE ES256 signature.
    static let rawByteCount = 2 * P256KeyMaterial.scalarByteCount

    /// The DER form of a raw signature, or `nil` unless it is exactly 64 bytes with r and s both in [1, n − 1].
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawByteCount else { return nil }
        let r = raw[..<P256KeyMaterial.scalarByteCount]
        let s = raw[P256KeyMaterial.scalarByteCount...]
        guard P256KeyMaterial.isInScalarRange(r), P256KeyMaterial.isInScalarRange(s) else { return nil }
        let body = derInteger(r) + derInteger(s)
        // At most 2 × (2 + 33) = 70 bytes, so the length fits the short form.
        return [0x30, UInt8(body.count)] + body
    }

    /// The raw form of a DER signature made by OpenSSL with a P-256 key, or `nil` when it is not one.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 2, der[0] == 0x30, Int(der[1]) == der.count - 2, der[1] < 0x80 else { return nil }
        var cursor = 2
        guard let r = readInteger(der, at: &cursor), let s = readInteger(der, at: &cursor), cursor == der.count else {
            return nil
        }
        return r + s
    }

    /// A positive INTEGER in DER: no superfluous leading zero bytes, and one zero byte when the top bit is set.
    private static func derInteger(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(value.drop { $0 == 0 })
        if content[0] & 0x80 != 0 {
            content.insert(0, at: 0)
        }
        return [0x02, UInt8(content.count)] + content
    }

    /// Reads a non-negative INTEGER of at most 32 significant bytes, left-padded to 32 bytes.
    private static func readInteger(_ der: [UInt8], at cursor: inout Int) -> [UInt8]? {
        guard cursor + 2 <= der.count, der[cursor] == 0x02 else { return nil }
        let length = Int(der[cursor + 1])
        let start = cursor + 2
        guard length > 0, length < 0x80, start + length <= der.count, der[start] & 0x80 == 0 else { return nil }
        cursor = start + length
        let significant = der[start..<cursor].drop { $0 == 0 }
        guard significant.count <= P256KeyMaterial.scalarByteCount else { return nil }
        return [UInt8](repeating: 0, count: P256KeyMaterial.scalarByteCount - significant.count) + significant
    }
}
