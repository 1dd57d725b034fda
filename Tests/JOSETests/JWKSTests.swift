import Foundation
import HearthCrypto
import JOSE
import Testing

@Suite("JSON Web Keys and key sets")
struct JWKSTests {
    @Test("a public key's JWK has kty RSA, use sig, alg RS256, kid, n and e")
    func jwkFromKey() throws {
        let key = TestKeys.primary.publicKey
        let jwk = JSONWebKey(publicKey: key, keyID: "k1")
        #expect(jwk == JSONWebKey(
            kty: "RSA", use: "sig", alg: "RS256", kid: "k1",
            n: Base64URL.encode(key.modulus), e: "AQAB"))
        #expect(try jwk.rsaPublicKey() == key)
    }

    @Test("JWKS JSON round trip")
    func roundTrip() throws {
        let set = JSONWebKeySet(keys: [
            JSONWebKey(publicKey: TestKeys.primary.publicKey, keyID: "current"),
            JSONWebKey(publicKey: TestKeys.other.publicKey, keyID: "previous"),
        ])
        let json = try JSONEncoder().encode(set)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.hasPrefix(#"{"keys":[{"#))
        #expect(!text.contains("null"))
        let decoded = try JSONDecoder().decode(JSONWebKeySet.self, from: json)
        #expect(decoded == set)
        let keys = JWTKeySet(jwks: decoded)
        #expect(keys.keyIDs == ["current", "previous"])

        let token = try JWTSigner(privateKey: TestKeys.other, keyID: "previous").sign(["sub": "x"])
        #expect(keys.rejection(of: token) == nil)
    }

    @Test("entries that are not JSON objects with a string kty are skipped while decoding")
    func lenientDecoding() throws {
        let json = #"{"keys":[7,{"kid":"no-kty"},{"kty":1},{"kty":"RSA","kid":"ok","n":"AQAB","e":"AQAB"},"x",null]}"#
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(json.utf8))
        #expect(set.keys.map(\.kid) == ["ok"])
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONWebKeySet.self, from: Data(#"{"keys":5}"#.utf8)) }
    }

    @Test("JWTKeySet(jwks:) imports only usable RSA signature keys with a kid")
    func importFilter() throws {
        let good = JSONWebKey(publicKey: TestKeys.primary.publicKey, keyID: "good")
        var noAlg = JSONWebKey(publicKey: TestKeys.other.publicKey, keyID: "no-alg")
        noAlg.alg = nil
        noAlg.use = nil
        var noKid = good
        noKid.kid = nil
        var emptyKid = good
        emptyKid.kid = ""
        var encryption = good
        encryption.kid = "enc"
        encryption.use = "enc"
        var otherAlg = good
        otherAlg.kid = "ps256"
        otherAlg.alg = "PS256"
        var hmac = JSONWebKey(kty: "oct", alg: "HS256", kid: "hmac")
        hmac.n = nil
        var badModulus = good
        badModulus.kid = "bad-n"
        badModulus.n = "not base64!"
        var small = good
        small.kid = "small"
        small.n = Base64URL.encode(Array(TestKeys.primary.publicKey.modulus.prefix(128)))
        var duplicate = JSONWebKey(publicKey: TestKeys.other.publicKey, keyID: "good")
        duplicate.use = "sig"

        let keys = JWTKeySet(jwks: JSONWebKeySet(keys: [
            noKid, emptyKid, good, encryption, otherAlg, hmac, badModulus, small, noAlg, duplicate,
        ]))
        #expect(keys.keyIDs == ["good", "no-alg"])

        // The first "good" wins over the later duplicate.
        let signedByPrimary = try JWTSigner(privateKey: TestKeys.primary, keyID: "good").sign(["sub": "x"])
        #expect(keys.rejection(of: signedByPrimary) == nil)
        // A key without "alg" is bound to RS256.
        let noAlgToken = try JWTSigner(privateKey: TestKeys.other, keyID: "no-alg").sign(["sub": "x"])
        #expect(keys.rejection(of: noAlgToken) == nil)
    }

    @Test("rsaPublicKey() refuses unusable JWKs with invalidKey")
    func unusableJWK() {
        let modulus = Base64URL.encode(TestKeys.primary.publicKey.modulus)
        let cases = [
            JSONWebKey(kty: "EC", n: modulus, e: "AQAB"),
            JSONWebKey(kty: "RSA", e: "AQAB"),
            JSONWebKey(kty: "RSA", n: modulus),
            JSONWebKey(kty: "RSA", n: modulus + "*", e: "AQAB"),
            JSONWebKey(kty: "RSA", n: Base64URL.encode(TestKeys.primary.publicKey.modulus.prefix(100)), e: "AQAB"),
            JSONWebKey(kty: "RSA", n: modulus, e: "AQ"),
        ]
        for jwk in cases {
            #expect(throws: JOSEError(.invalidKey, reason: "")) { try jwk.rsaPublicKey() }
        }
    }

    @Test("add replaces a key with the same ID and keeps first-insertion order")
    func addReplaces() throws {
        var keys = JWTKeySet()
        #expect(keys.keyIDs.isEmpty)
        keys.add(TestKeys.other.publicKey, keyID: "a")
        keys.add(TestKeys.other.publicKey, keyID: "b")
        keys.add(TestKeys.primary.publicKey, keyID: "a")
        #expect(keys.keyIDs == ["a", "b"])
        #expect(keys.contains(keyID: "b"))
        #expect(!keys.contains(keyID: "c"))
        let token = try JWTSigner(privateKey: TestKeys.primary, keyID: "a").sign(["sub": "x"])
        #expect(keys.rejection(of: token) == nil)
    }
}
