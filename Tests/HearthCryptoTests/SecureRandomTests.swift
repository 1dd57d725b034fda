import HearthCrypto
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("returns exactly the requested number of bytes")
    func counts() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        for count in [1, 16, 32, 1000] {
            #expect(SecureRandom.bytes(count: count).count == count)
        }
    }

    @Test("consecutive outputs differ and are not all zero")
    func varies() {
        let first = SecureRandom.bytes(count: 32)
        let second = SecureRandom.bytes(count: 32)
        #expect(first != second)
        #expect(first.contains { $0 != 0 })
    }

    @Test("tokens are unpadded base64url of the requested entropy")
    func tokens() {
        let token = SecureRandom.token()
        #expect(token.count == 43)
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(SecureRandom.token(byteCount: 16).count == 22)
        #expect(SecureRandom.token() != SecureRandom.token())
    }
}
