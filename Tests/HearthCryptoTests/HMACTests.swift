import HearthCrypto
import Testing

@Suite("HMAC known answers (RFC 4231, RFC 2202)")
struct HMACTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var key: [UInt8]
        var message: [UInt8]
        var expected: String
        var testDescription: String { name }
    }

    static let sha256Cases: [Case] = [
        Case(name: "RFC 4231 4.2", key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
             expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Case(name: "RFC 4231 4.3", key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
             expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Case(name: "RFC 4231 4.4", key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
             expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Case(name: "RFC 4231 4.5", key: Array(1...25), message: [UInt8](repeating: 0xcd, count: 50),
             expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Case(name: "RFC 4231 4.7", key: [UInt8](repeating: 0xaa, count: 131),
             message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Case(name: "RFC 4231 4.8", key: [UInt8](repeating: 0xaa, count: 131),
             message: Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        Case(name: "empty key and message", key: [], message: [],
             expected: "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"),
    ]

    static let sha1Cases: [Case] = [
        Case(name: "RFC 2202 test 1", key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
             expected: "b617318655057264e28bc0b6fb378c8ef146be00"),
        Case(name: "RFC 2202 test 2", key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
             expected: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        Case(name: "RFC 2202 test 3", key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
             expected: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        Case(name: "RFC 2202 test 4", key: Array(1...25), message: [UInt8](repeating: 0xcd, count: 50),
             expected: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        Case(name: "RFC 2202 test 6", key: [UInt8](repeating: 0xaa, count: 80),
             message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             expected: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        Case(name: "RFC 2202 test 7", key: [UInt8](repeating: 0xaa, count: 80),
             message: Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
             expected: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
        Case(name: "empty key and message", key: [], message: [],
             expected: "fbdb1d1b18aa6c08324b7d64b71fb76370690e1d"),
    ]

    @Test("HMAC-SHA256", arguments: sha256Cases)
    func sha256(_ vector: Case) {
        #expect(hexString(HMAC.sha256(key: vector.key, message: vector.message)) == vector.expected)
    }

    @Test("HMAC-SHA1", arguments: sha1Cases)
    func sha1(_ vector: Case) {
        #expect(hexString(HMAC.sha1(key: vector.key, message: vector.message)) == vector.expected)
    }

    @Test("RFC 4231 4.6: truncated to 128 bits")
    func truncated() {
        let mac = HMAC.sha256(key: [UInt8](repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8))
        #expect(hexString(Array(mac.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }
}
