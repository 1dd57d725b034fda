import Foundation

/// Base64url without padding (RFC 4648 §5), Foundation-only so it builds on every platform.
enum Base64URLText {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded base64url; nil for any other character (including `=`), or an impossible length.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.utf8.allSatisfy(isAlphabet), text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

/// Random protocol values: `state`, `nonce` and the PKCE `code_verifier`.
enum RandomToken {
    /// 32 random bytes as unpadded base64url: 43 characters, 256 bits (RFC 7636 §4.1 recommends this for verifiers).
    ///
    /// `SystemRandomNumberGenerator` reads the kernel CSPRNG (`getrandom` on Linux, `arc4random_buf` on Apple
    /// platforms), so it is suitable for secrets.
    static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URLText.encode(bytes)
    }
}
