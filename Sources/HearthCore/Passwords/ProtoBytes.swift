import HearthCrypto

/// proto3 JSON `bytes`: base64 in the standard or the URL-safe alphabet, padded or not (firebase-admin-python
/// sends URL-safe with padding, firebase-tools and Firebase's exports standard base64, the Go SDK URL-safe without).
enum ProtoBytes {
    /// The bytes of `text`, or `nil` when it is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        let urlSafe = text.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            default: byte
            }
        }
        return Base64URL.decode(bytes: urlSafe)
    }
}
