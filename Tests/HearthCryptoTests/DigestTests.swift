import HearthCrypto
import Testing

@Suite("SHA-256 and SHA-1 known answers")
struct DigestTests {
    @Test("SHA-256 of FIPS 180-2 messages", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(message: String, expected: String) {
        #expect(hexString(SHA256.hash(message)) == expected)
        #expect(hexString(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test("SHA-256 of a million 'a's")
    func sha256Million() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hexString(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256 of a string hashes its UTF-8 bytes")
    func sha256UTF8() {
        #expect(SHA256.hash("é🔑") == SHA256.hash([0xC3, 0xA9, 0xF0, 0x9F, 0x94, 0x91]))
        #expect(SHA256.hash("é").count == SHA256.byteCount)
    }

    @Test("SHA-1 of FIPS 180-2 messages", arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func sha1(message: String, expected: String) {
        #expect(hexString(SHA1.hash(Array(message.utf8))) == expected)
        #expect(SHA1.hash(Array(message.utf8)).count == SHA1.byteCount)
    }
}
