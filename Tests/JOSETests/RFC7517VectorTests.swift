import Foundation
import HearthCrypto
import JOSE
import Testing

@Suite("RFC 7517 Appendix A.1: public key set")
struct RFC7517VectorTests {
    let vector: RFC7517PublicKeysVector

    init() throws {
        vector = try VectorLoader.load("rfc7517-a1-public-keys")
    }

    @Test("the set decodes with both keys and their members")
    func decodes() throws {
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: vector.jwksJSON)
        #expect(set.keys.count == 2)
        #expect(set.keys[0].kty == "EC")
        #expect(set.keys[0].kid == vector.ecKeyID)
        #expect(set.keys[0].use == "enc")
        #expect(set.keys[0].n == nil)
        #expect(set.keys[1].kty == "RSA")
        #expect(set.keys[1].kid == vector.rsaKeyID)
        #expect(set.keys[1].alg == "RS256")
        #expect(set.keys[1].e == "AQAB")
    }

    @Test("the RSA key imports into a key set and the EC key is skipped")
    func importsRSAOnly() throws {
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: vector.jwksJSON)
        let keys = JWTKeySet(jwks: set)
        #expect(keys.keyIDs == [vector.rsaKeyID])
        #expect(keys.contains(keyID: vector.rsaKeyID))
        #expect(!keys.contains(keyID: vector.ecKeyID))

        let rsa = try set.keys[1].rsaPublicKey()
        #expect(rsa.bitCount == 2048)
        #expect(throws: JOSEError(.invalidKey, reason: "")) { try set.keys[0].rsaPublicKey() }
    }

    @Test("the RSA key's RFC 7638 thumbprint matches the RFC's")
    func thumbprint() throws {
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: vector.jwksJSON)
        #expect(try set.keys[1].thumbprint() == vector.rsaThumbprint)
        // Re-deriving the JWK from the imported key gives the same thumbprint.
        let rebuilt = JSONWebKey(publicKey: try set.keys[1].rsaPublicKey(), keyID: "other")
        #expect(try rebuilt.thumbprint() == vector.rsaThumbprint)
        #expect(rebuilt.n == set.keys[1].n)
    }

    @Test("the set survives an encode/decode round trip")
    func roundTrip() throws {
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: vector.jwksJSON)
        let again = try JSONDecoder().decode(JSONWebKeySet.self, from: JSONEncoder().encode(set))
        #expect(again == set)
    }
}
