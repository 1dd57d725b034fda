import HearthCrypto
import Testing

@Suite("ConstantTime.equals")
struct ConstantTimeTests {
    @Test("equal inputs compare equal")
    func equal() {
        let secret = SecureRandom.bytes(count: 32)
        #expect(ConstantTime.equals(secret, secret))
        #expect(ConstantTime.equals(Array(secret), secret.map { $0 }))
        #expect(ConstantTime.equals([], []))
    }

    @Test("a difference in any position makes inputs unequal")
    func differentContent() {
        let secret = SecureRandom.bytes(count: 32)
        for index in [0, 1, 15, 31] {
            var other = secret
            other[index] ^= 0x01
            #expect(!ConstantTime.equals(secret, other))
            #expect(!ConstantTime.equals(other, secret))
        }
    }

    @Test("different lengths are unequal, even when one is a prefix of the other")
    func differentLength() {
        let secret = SecureRandom.bytes(count: 32)
        #expect(!ConstantTime.equals(secret, Array(secret.prefix(31))))
        #expect(!ConstantTime.equals(secret, secret + [0]))
        #expect(!ConstantTime.equals([], [0]))
    }
}
