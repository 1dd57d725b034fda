import HearthCrypto
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test("RFC 4648 section 10 vectors, without padding", arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("uses '-' and '_' instead of '+' and '/'")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFE]) == "___-")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("___-") == [0xFF, 0xFF, 0xFE])
    }

    @Test("round-trips every length from 0 to 300 and all byte values")
    func roundTrip() {
        for length in 0...300 {
            let bytes = SecureRandom.bytes(count: length)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("="))
            #expect(text.count == (length * 4 + 2) / 3)
            #expect(Base64URL.decode(text) == bytes)
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
    }

    @Test("encodes any byte sequence, including slices and string views")
    func sequences() {
        let bytes: [UInt8] = Array("foobar".utf8)
        #expect(Base64URL.encode(bytes[1...3]) == Base64URL.encode(Array("oob".utf8)))
        #expect(Base64URL.encode("foo".utf8) == "Zm9v")
        #expect(Base64URL.decode("xZm9vx".dropFirst().dropLast()) == Array("foo".utf8))
    }

    @Test("accepts correct '=' padding")
    func padding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64URL.decode("Zm9vYg==") == Array("foob".utf8))
    }

    @Test("rejects invalid text", arguments: [
        "Zm9v+", "Zm9v/w", "Zm 9v", "Zm9v\n", "Zm9v\t", "é", "Zm9v.", "Zm9v*",  // characters outside the alphabet
        "Z", "Zm9vY", "Zm9vYmFyZ",  // length % 4 == 1
        "Zg=", "Zg===", "Z===", "=", "==", "=Zg", "Z=g=", "Zm9v=", "Zm9v====", "Zm8==",  // bad padding
        "Zh", "Zm9", "Zm-", "Zm_",  // non-canonical: unused low bits set
    ])
    func rejects(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
