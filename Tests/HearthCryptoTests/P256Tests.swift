@testable import HearthCrypto
import Testing

@Suite("P-256 keys and ES256 signatures")
struct P256Tests {
    let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjMifQ".utf8)

    @Test("RFC 7515 A.3: the example signature verifies, and the key's own signatures round-trip")
    func rfc7515Example() throws {
        let publicKey = try P256PublicKey(x: b64(RFC7515ES256.x), y: b64(RFC7515ES256.y))
        let input = Array(RFC7515ES256.signingInput.utf8)
        let signature = b64(RFC7515ES256.signature)
        #expect(signature.count == 64)
        #expect(publicKey.isValidSHA256Signature(signature, for: input))
        #expect(publicKey.isValidSHA256Signature(signature, for: input[...]))

        let privateKey = try P256PrivateKey(rawRepresentation: b64(RFC7515ES256.d))
        #expect(privateKey.publicKey == publicKey)
        let mine = try privateKey.signSHA256(input)
        #expect(mine.count == 64)
        #expect(publicKey.isValidSHA256Signature(mine, for: input))
        #expect(try privateKey.signSHA256(input) != mine, "ECDSA signatures use a fresh nonce each time")
    }

    @Test("RFC 6979 A.2.5: the scalar gives the RFC's public point and its SHA-256 signatures verify")
    func rfc6979Key() throws {
        let key = try P256PrivateKey(rawRepresentation: hex(RFC6979P256.privateScalar))
        #expect(key.publicKey.x == hex(RFC6979P256.ux))
        #expect(key.publicKey.y == hex(RFC6979P256.uy))
        for vector in RFC6979P256.signatures {
            let text = Array(vector.message.utf8)
            #expect(key.publicKey.isValidSHA256Signature(hex(vector.signature), for: text))
            #expect(!key.publicKey.isValidSHA256Signature(hex(vector.signature), for: text + [0]))
        }
        let sample = hex(RFC6979P256.signatures[0].signature)
        #expect(!key.publicKey.isValidSHA256Signature(Array(sample.suffix(32) + sample.prefix(32)), for: Array("sample".utf8)))
    }

    @Test("generate → sign → verify; tampered messages and signatures fail")
    func signAndVerify() throws {
        let key = try P256PrivateKey.generate()
        let signature = try key.signSHA256(message)
        #expect(key.publicKey.isValidSHA256Signature(signature, for: message))
        var tampered = message
        tampered[0] ^= 0x01
        #expect(!key.publicKey.isValidSHA256Signature(signature, for: tampered))
        for index in [0, 31, 32, 63] {
            var changed = signature
            changed[index] ^= 0x01
            #expect(!key.publicKey.isValidSHA256Signature(changed, for: message))
        }
        #expect(!(try P256PrivateKey.generate()).publicKey.isValidSHA256Signature(signature, for: message))
        // Still correct after the failures (the pooled contexts must be reusable).
        #expect(key.publicKey.isValidSHA256Signature(signature, for: message))
    }

    @Test("signatures that are not 64 bytes of r ‖ s with 0 < r, s < n are refused: DER, 65 bytes, zeros, n")
    func malformedSignatures() throws {
        let key = try P256PrivateKey(rawRepresentation: b64(RFC7515ES256.d))
        let input = Array(RFC7515ES256.signingInput.utf8)
        let signature = b64(RFC7515ES256.signature)
        let r = Array(signature.prefix(32)), s = Array(signature.suffix(32))
        let der = try #require(ECDSASignature.der(fromRaw: signature))
        #expect(!key.publicKey.isValidSHA256Signature(der, for: input), "the DER form of a valid signature")
        #expect(!key.publicKey.isValidSHA256Signature(signature + [0], for: input))
        #expect(!key.publicKey.isValidSHA256Signature([0] + signature, for: input))
        #expect(!key.publicKey.isValidSHA256Signature(Array(signature.dropLast()), for: input))
        #expect(!key.publicKey.isValidSHA256Signature([], for: input))
        // CVE-2022-21449 ("psychic signatures"): r = s = 0 must never verify.
        #expect(!key.publicKey.isValidSHA256Signature([UInt8](repeating: 0, count: 64), for: input))
        #expect(!key.publicKey.isValidSHA256Signature(r + [UInt8](repeating: 0, count: 32), for: input))
        #expect(!key.publicKey.isValidSHA256Signature(P256KeyMaterial.order + s, for: input))
        #expect(!key.publicKey.isValidSHA256Signature(r + P256KeyMaterial.order, for: input))
        #expect(!key.publicKey.isValidSHA256Signature([UInt8](repeating: 0xFF, count: 64), for: input))
        #expect(key.publicKey.isValidSHA256Signature(signature, for: input))
    }

    @Test("raw r ‖ s and DER convert both ways, with DER's sign bytes and trimmed zeros; out-of-range r, s refused")
    func signatureConversion() throws {
        let order = P256KeyMaterial.order
        var belowOrder = order
        belowOrder[31] -= 1
        let one = [UInt8](repeating: 0, count: 31) + [1]
        for (r, s) in [(one, belowOrder), (belowOrder, one), ([0x7F] + [UInt8](repeating: 0xAA, count: 31), one)] {
            let der = try #require(ECDSASignature.der(fromRaw: r + s))
            #expect(ECDSASignature.raw(fromDER: der) == r + s)
        }
        #expect(ECDSASignature.der(fromRaw: one + one) == [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])
        #expect(ECDSASignature.der(fromRaw: belowOrder + one)?[3] == 33, "a set top bit needs a leading zero byte")
        #expect(ECDSASignature.der(fromRaw: order + one) == nil)
        #expect(ECDSASignature.der(fromRaw: one + order) == nil)
        #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 0, count: 32) + one) == nil)
        #expect(ECDSASignature.der(fromRaw: one + one + [0]) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]) == nil, "negative")
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x25, 0x02, 0x21] + [UInt8](repeating: 1, count: 33) + [0x02, 0x01, 0x01]) == nil)
    }

    @Test("PKCS#8 and SEC 1 PEM files of one key read as the same key; PKCS#8 round trip")
    func privatePEM() throws {
        let pkcs8 = try P256PrivateKey(pemRepresentation: Fixtures.ecPrivate)
        let sec1 = try P256PrivateKey(pemRepresentation: ECFixtures.sec1Private)
        #expect(pkcs8.publicKey == sec1.publicKey)
        #expect(pkcs8.publicKey == (try P256PublicKey(pemRepresentation: Fixtures.ecPublic)))
        let pem = pkcs8.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let again = try P256PrivateKey(pemRepresentation: "Apple's AuthKey_ABC123DEFG.p8\n" + pem)
        #expect(again.publicKey == pkcs8.publicKey)
        #expect(pkcs8.publicKey.isValidSHA256Signature(try again.signSHA256(message), for: message))
        let generated = try P256PrivateKey.generate()
        #expect(try P256PrivateKey(pemRepresentation: generated.pemRepresentation).publicKey == generated.publicKey)
    }

    @Test("public key: SPKI PEM and DER, x and y round trips")
    func publicFormats() throws {
        let key = try P256PublicKey(pemRepresentation: Fixtures.ecPublic)
        #expect(key.x.count == 32 && key.y.count == 32)
        #expect(try P256PublicKey(x: key.x, y: key.y) == key)
        #expect(try P256PublicKey(derRepresentation: key.derRepresentation) == key)
        #expect(key.pemRepresentation == Fixtures.ecPublic + "\n")
        #expect(try P256PublicKey(pemRepresentation: key.pemRepresentation).x == key.x)
    }

    @Test("points that are not on P-256, and coordinates of the wrong length, are refused")
    func invalidPoints() throws {
        let x = b64(RFC7515ES256.x), y = b64(RFC7515ES256.y)
        var offCurve = y
        offCurve[31] ^= 0x01
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PublicKey(x: x, y: offCurve) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PublicKey(x: Array(x.dropFirst()), y: y) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PublicKey(x: [0] + x, y: y) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PublicKey(x: x, y: []) }
        // The same off-curve point inside an SPKI.
        var der = try P256PublicKey(x: x, y: y).derRepresentation
        der[der.count - 1] ^= 0x01
        #expect(throws: CryptoError.self) { try P256PublicKey(derRepresentation: der) }
    }

    @Test("private scalars outside [1, n − 1], of the wrong length, or with a foreign public point are refused")
    func invalidPrivateKeys() throws {
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PrivateKey(rawRepresentation: P256KeyMaterial.order) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PrivateKey(rawRepresentation: Array(b64(RFC7515ES256.d).dropFirst())) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try P256PrivateKey(pemRepresentation: ECFixtures.mismatchedSEC1Private) }
    }

    @Test("other curves and key types are refused")
    func wrongCurves() throws {
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try P256PublicKey(pemRepresentation: ECFixtures.p384Public) }
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try P256PrivateKey(pemRepresentation: ECFixtures.secp256k1Private) }
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try P256PrivateKey(pemRepresentation: Fixtures.pkcs8Private) }
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try P256PublicKey(pemRepresentation: Fixtures.spkiPublic) }
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try P256PublicKey(pemRepresentation: ECFixtures.explicitParametersPublic) }
    }

    @Test("PEM blocks of other kinds, encrypted keys and garbage are refused")
    func otherFormats() throws {
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PrivateKey(pemRepresentation: Fixtures.ecPublic) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PublicKey(pemRepresentation: Fixtures.ecPrivate) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PrivateKey(pemRepresentation: Fixtures.encryptedPKCS8) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PrivateKey(pemRepresentation: "") }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PublicKey(pemRepresentation: "not a key") }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try P256PublicKey(derRepresentation: []) }
    }
}
