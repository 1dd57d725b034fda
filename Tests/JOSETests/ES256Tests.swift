import Foundation
import HearthCrypto
import JOSE
import Testing

/// RFC 7515 Appendix A.3: a JWS using ES256 (the key's numbers are public test values).
enum RFC7515A3 {
    static let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let d = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"
    static let compact =
        "eyJhbGciOiJFUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
    static let payload = "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"
    /// RFC 7638 thumbprint of the public key, computed independently (Python hashlib over the canonical JSON).
    static let thumbprint = "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U"

    static var jwk: JSONWebKey { JSONWebKey(kty: "EC", crv: "P-256", x: x, y: y) }
    static func privateKey() throws -> P256PrivateKey { try P256PrivateKey(rawRepresentation: b64(d)) }
}

/// Tokens with any header and payload, ES256-signed by a P-256 key (the RS256 counterpart is ``TokenForge``).
enum ES256Forge {
    static func signingInput(header: String, payload: String) -> String {
        TokenForge.encode(header) + "." + TokenForge.encode(payload)
    }

    static func token(header: String, payload: String, signedWith key: P256PrivateKey) throws -> String {
        let input = signingInput(header: header, payload: payload)
        return input + "." + Base64URL.encode(try key.signSHA256(Array(input.utf8)))
    }
}

@Suite("ES256: P-256 JSON Web Keys, signing and verification")
struct ES256Tests {
    static let ecKey: P256PrivateKey = {
        do { return try P256PrivateKey.generate() } catch { preconditionFailure("\(error)") }
    }()
    let payload = #"{"sub":"123","iss":"TEAMID1234"}"#

    /// A set with an EC key "ec" and an RSA key "rsa".
    var keys: JWTKeySet {
        var keys = JWTKeySet()
        keys.add(Self.ecKey.publicKey, keyID: "ec")
        keys.add(TestKeys.primary.publicKey, keyID: "rsa")
        return keys
    }

    @Test("RFC 7515 A.3: the RFC's ES256 JWS verifies with the RFC's public JWK")
    func rfcExample() throws {
        let jwk = RFC7515A3.jwk
        var keys = JWTKeySet()
        keys.add(try jwk.p256PublicKey(), keyID: "rfc7515-a3")
        // The RFC's header carries no kid, so the caller names the key.
        let verified = try keys.verify(RFC7515A3.compact, keyID: "rfc7515-a3")
        #expect(verified.header == JWSHeader(alg: "ES256"))
        #expect(verified.payload == Data(RFC7515A3.payload.utf8))
        #expect(keys.rejection(of: RFC7515A3.compact) == .missingKeyID)
        #expect(try jwk.thumbprint() == RFC7515A3.thumbprint)
        #expect(try RFC7515A3.privateKey().publicKey == jwk.p256PublicKey())
        // The RFC's payload, signed again with the RFC's key, under a header with a kid.
        let again = try ES256Forge.token(
            header: #"{"alg":"ES256","kid":"rfc7515-a3"}"#, payload: RFC7515A3.payload, signedWith: RFC7515A3.privateKey())
        #expect(try keys.verify(again).payload == Data(RFC7515A3.payload.utf8))
    }

    @Test("a P-256 public key's JWK has kty EC, crv P-256, use sig, alg ES256, kid, x and y, and round-trips")
    func jwkFromKey() throws {
        let key = try RFC7515A3.privateKey().publicKey
        let jwk = JSONWebKey(publicKey: key, keyID: "ABC123DEFG")
        #expect(jwk == JSONWebKey(kty: "EC", use: "sig", alg: "ES256", kid: "ABC123DEFG", crv: "P-256", x: RFC7515A3.x, y: RFC7515A3.y))
        #expect(try jwk.p256PublicKey() == key)
        let json = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
        #expect(!json.contains("\"n\"") && !json.contains("null"))
        #expect(try JSONDecoder().decode(JSONWebKey.self, from: Data(json.utf8)) == jwk)
    }

    @Test("JWTSigner with a P-256 key: header {alg ES256, kid, typ JWT}, a 64-byte signature, verified by the set")
    func signer() throws {
        let signer = JWTSigner(privateKey: Self.ecKey, keyID: "ec")
        let token = try signer.sign(["sub": "123"])
        let parts = token.split(separator: ".")
        #expect(String(decoding: b64(String(parts[0])), as: UTF8.self) == #"{"alg":"ES256","kid":"ec","typ":"JWT"}"#)
        #expect(b64(String(parts[2])).count == 64)
        let verified = try keys.verify(token)
        #expect(verified.header == JWSHeader(alg: "ES256", kid: "ec", typ: "JWT"))
        #expect(try signer.sign(["sub": "123"]) != token, "ES256 uses a fresh nonce per signature")
        // Another P-256 key under the same kid does not verify.
        let foreign = try JWTSigner(privateKey: P256PrivateKey.generate(), keyID: "ec").sign(["sub": "123"])
        #expect(keys.rejection(of: foreign) == .invalidSignature)
    }

    @Test("an RS256 header with an EC key's kid is refused, even correctly RS256-signed")
    func rs256HeaderOnECKey() throws {
        let token = try TokenForge.token(header: #"{"alg":"RS256","kid":"ec"}"#, payload: payload, signedWith: TestKeys.primary)
        #expect(keys.rejection(of: token) == .algorithmMismatch)
    }

    @Test("an ES256 header with an RSA key's kid is refused, even correctly ES256-signed")
    func es256HeaderOnRSAKey() throws {
        let token = try ES256Forge.token(header: #"{"alg":"ES256","kid":"rsa"}"#, payload: payload, signedWith: Self.ecKey)
        #expect(keys.rejection(of: token) == .algorithmMismatch)
    }

    @Test("HS256 with the EC key's public key as the HMAC secret, and alg none, are refused")
    func hmacAndNone() throws {
        let input = ES256Forge.signingInput(header: #"{"alg":"HS256","kid":"ec"}"#, payload: payload)
        for secret in [Self.ecKey.publicKey.pemRepresentation, RFC7515A3.x] {
            let mac = HMAC.sha256(key: Array(secret.utf8), message: Array(input.utf8))
            #expect(keys.rejection(of: input + "." + Base64URL.encode(mac)) == .algorithmMismatch)
        }
        for alg in ["none", "None"] {
            #expect(keys.rejection(of: ES256Forge.signingInput(header: #"{"alg":"\#(alg)","kid":"ec"}"#, payload: payload) + ".") == .unsupportedAlgorithm)
        }
        for alg in ["ES384", "ES512", "ES256K"] {
            let token = try ES256Forge.token(header: #"{"alg":"\#(alg)","kid":"ec"}"#, payload: payload, signedWith: Self.ecKey)
            #expect(keys.rejection(of: token) == .algorithmMismatch)
        }
    }

    @Test("a valid ES256 signature in any other shape is refused: 65 bytes, DER, 63 bytes, r = s = 0, r ‖ s swapped")
    func signatureShapes() throws {
        let input = ES256Forge.signingInput(header: #"{"alg":"ES256","kid":"ec"}"#, payload: payload)
        let signature = try Self.ecKey.signSHA256(Array(input.utf8))
        func token(_ bytes: [UInt8]) -> String { input + "." + Base64URL.encode(bytes) }
        #expect(keys.rejection(of: token(signature)) == nil)
        #expect(keys.rejection(of: token(signature + [0])) == .invalidSignature)
        #expect(keys.rejection(of: token([0] + signature)) == .invalidSignature)
        #expect(keys.rejection(of: token(Array(signature.dropLast()))) == .invalidSignature)
        #expect(keys.rejection(of: token(derSignature(signature))) == .invalidSignature)
        #expect(keys.rejection(of: token([UInt8](repeating: 0, count: 64))) == .invalidSignature)
        #expect(keys.rejection(of: token(Array(signature.suffix(32) + signature.prefix(32)))) == .invalidSignature)
    }

    @Test("JWKS import: EC keys on P-256 bound to ES256; alg that disagrees with the key type, other curves, bad points skipped")
    func importFilter() throws {
        let ec = JSONWebKey(publicKey: Self.ecKey.publicKey, keyID: "ec")
        var ecNoAlg = ec
        ecNoAlg.kid = "ec-no-alg"
        ecNoAlg.alg = nil
        ecNoAlg.use = nil
        var ecAsRS256 = ec
        ecAsRS256.kid = "ec-rs256"
        ecAsRS256.alg = "RS256"
        var ecAsHS256 = ec
        ecAsHS256.kid = "ec-hs256"
        ecAsHS256.alg = "HS256"
        var rsaAsES256 = JSONWebKey(publicKey: TestKeys.primary.publicKey, keyID: "rsa-es256")
        rsaAsES256.alg = "ES256"
        var p384 = ec
        p384.kid = "p384"
        p384.crv = "P-384"
        var noCurve = ec
        noCurve.kid = "no-crv"
        noCurve.crv = nil
        var offCurve = ec
        offCurve.kid = "off-curve"
        offCurve.y = RFC7515A3.y.replacingOccurrences(of: "a0", with: "a1")
        var shortX = ec
        shortX.kid = "short-x"
        shortX.x = Base64URL.encode(Self.ecKey.publicKey.x.dropFirst())
        var encryption = ec
        encryption.kid = "enc"
        encryption.use = "enc"

        let keys = JWTKeySet(jwks: JSONWebKeySet(keys: [
            ec, ecNoAlg, ecAsRS256, ecAsHS256, rsaAsES256, p384, noCurve, offCurve, shortX, encryption,
        ]))
        #expect(keys.keyIDs == ["ec", "ec-no-alg"])
        let token = try JWTSigner(privateKey: Self.ecKey, keyID: "ec-no-alg").sign(["sub": "x"])
        #expect(keys.rejection(of: token) == nil, "an EC key without alg is bound to ES256")
    }

    @Test("p256PublicKey() refuses unusable JWKs with invalidKey")
    func unusableJWK() {
        let cases = [
            JSONWebKey(kty: "RSA", crv: "P-256", x: RFC7515A3.x, y: RFC7515A3.y),
            JSONWebKey(kty: "EC", x: RFC7515A3.x, y: RFC7515A3.y),
            JSONWebKey(kty: "EC", crv: "P-384", x: RFC7515A3.x, y: RFC7515A3.y),
            JSONWebKey(kty: "EC", crv: "P-256", x: RFC7515A3.x),
            JSONWebKey(kty: "EC", crv: "P-256", x: RFC7515A3.x + "*", y: RFC7515A3.y),
            JSONWebKey(kty: "EC", crv: "P-256", x: RFC7515A3.x, y: RFC7515A3.x),
            JSONWebKey(kty: "EC", crv: "P-256", x: "AA" + RFC7515A3.x, y: RFC7515A3.y),
        ]
        for jwk in cases {
            #expect(throws: JOSEError(.invalidKey, reason: "")) { try jwk.p256PublicKey() }
        }
        #expect(throws: JOSEError(.invalidKey, reason: "")) { try RFC7515A3.jwk.rsaPublicKey() }
    }

    /// The DER ECDSA-Sig-Value of a raw r ‖ s signature (what a non-JOSE ECDSA signer would emit).
    private func derSignature(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ value: ArraySlice<UInt8>) -> [UInt8] {
            var content = Array(value.drop { $0 == 0 })
            if content[0] & 0x80 != 0 { content.insert(0, at: 0) }
            return [0x02, UInt8(content.count)] + content
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return [0x30, UInt8(body.count)] + body
    }
}
