import HearthCrypto
import Testing

@testable import HearthCore

@Suite("Service-account public keys, parsed once")
struct ParsedPublicKeysTests {
    @Test("a PEM parses to its key, again from the cache; a PEM that is no key is nil; the cache stays bounded")
    func parsedOnce() throws {
        let cache = ParsedPublicKeys(capacity: 2)
        let keys = try (0..<3).map { _ in try RSAPrivateKey.generate(bits: 2048).publicKey }
        for key in keys {
            #expect(cache.key(pem: key.pemRepresentation) == key)
            #expect(cache.key(pem: key.pemRepresentation) == key, "from the cache")
        }
        #expect(cache.key(pem: keys[0].pemRepresentation) == keys[0], "after eviction, parsed again")
        #expect(cache.key(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") == nil)
        #expect(cache.key(pem: "") == nil)
    }
}
