#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(HearthCrypto)
import HearthCrypto
#endif

/// SHA-256 from whichever implementation the platform has: CryptoKit on Apple platforms, OpenSSL through
/// HearthCrypto on Linux.
///
/// Apple's framework is tested first: in a package build the HearthCrypto module can be visible on Apple platforms
/// too (built for another target) without being linked into this one.
enum Digest {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(CryptoKit.SHA256.hash(data: bytes))
        #elseif canImport(HearthCrypto)
        return HearthCrypto.SHA256.hash(bytes)
        #else
        #error("HearthSignIn needs SHA-256: HearthCrypto (Linux) or CryptoKit (Apple platforms)")
        #endif
    }

    /// Lowercase hex SHA-256 of the text's UTF-8: how Sign in with Apple's `nonce` is derived from the raw nonce.
    static func hexSHA256(_ text: String) -> String {
        sha256(Array(text.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// The PKCE S256 code challenge (RFC 7636 §4.2): base64url(SHA-256(ASCII(verifier))).
    static func codeChallenge(forVerifier verifier: String) -> String {
        Base64URLText.encode(sha256(Array(verifier.utf8)))
    }
}
