@testable import HearthCrypto
import Foundation
import Testing

@Suite("RSA keys and RS256 signatures")
struct RSATests {
    let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ".utf8)

    @Test("generate → sign → verify")
    func signAndVerify() throws {
        let key = try RSAPrivateKey.generate()
        let signature = try key.signSHA256(message)
        #expect(signature.count == 256)
        #expect(key.publicKey.bitCount == 2048)
        #expect(key.publicKey.exponent == [0x01, 0x00, 0x01])
        #expect(key.publicKey.isValidSHA256Signature(signature, for: message))
        #expect(try key.signSHA256(message) == signature, "PKCS#1 v1.5 signatures are deterministic")
    }

    @Test("a tampered message fails verification")
    func tamperedMessage() throws {
        let key = SharedKeys.primary
        let signature = try key.signSHA256(message)
        var tampered = message
        tampered[tampered.count - 1] ^= 0x01
        #expect(!key.publicKey.isValidSHA256Signature(signature, for: tampered))
        #expect(!key.publicKey.isValidSHA256Signature(signature, for: message + [0]))
        #expect(!key.publicKey.isValidSHA256Signature(signature, for: []))
    }

    @Test("a tampered, truncated, extended or foreign signature fails verification")
    func tamperedSignature() throws {
        let key = SharedKeys.primary
        let signature = try key.signSHA256(message)
        for index in [0, 1, 128, 255] {
            var tampered = signature
            tampered[index] ^= 0x80
            #expect(!key.publicKey.isValidSHA256Signature(tampered, for: message))
        }
        #expect(!key.publicKey.isValidSHA256Signature(Array(signature.dropLast()), for: message))
        #expect(!key.publicKey.isValidSHA256Signature(signature + [0], for: message))
        #expect(!key.publicKey.isValidSHA256Signature([0] + signature.dropLast(), for: message))
        #expect(!key.publicKey.isValidSHA256Signature([], for: message))
        #expect(!key.publicKey.isValidSHA256Signature([UInt8](repeating: 0, count: 256), for: message))
        #expect(!SharedKeys.other.publicKey.isValidSHA256Signature(signature, for: message))
        // Still correct after the failures (the pooled contexts must be reusable).
        #expect(key.publicKey.isValidSHA256Signature(signature, for: message))
    }

    @Test("private key PEM round trip (PKCS#8)")
    func privatePEMRoundTrip() throws {
        let key = SharedKeys.primary
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let again = try RSAPrivateKey(pemRepresentation: pem)
        #expect(again.publicKey == key.publicKey)
        #expect(try again.signSHA256(message) == key.signSHA256(message))
        #expect(again.pemRepresentation == pem)
    }

    @Test("public key PEM round trip (SPKI)")
    func publicPEMRoundTrip() throws {
        let key = SharedKeys.primary.publicKey
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let again = try RSAPublicKey(pemRepresentation: pem)
        #expect(again == key)
        #expect(again.pemRepresentation == pem)
        #expect(again.isValidSHA256Signature(try SharedKeys.primary.signSHA256(message), for: message))
    }

    @Test("modulus and exponent round trip")
    func numbersRoundTrip() throws {
        let key = SharedKeys.primary.publicKey
        #expect(key.modulus.count == 256)
        #expect(key.modulus.first != 0)
        let again = try RSAPublicKey(modulus: key.modulus, exponent: key.exponent)
        #expect(again == key)
        #expect(again.pemRepresentation == key.pemRepresentation)
        // Leading zero bytes are ignored.
        let padded = try RSAPublicKey(modulus: [0, 0] + key.modulus, exponent: [0] + key.exponent)
        #expect(padded == key)
        #expect(padded.modulus == key.modulus)
        #expect(padded.exponent == key.exponent)
        #expect(key != SharedKeys.other.publicKey)
    }

    @Test("PKCS#1 and PKCS#8 files of one key read as the same key")
    func pkcs1Import() throws {
        let pkcs1 = try RSAPrivateKey(pemRepresentation: Fixtures.pkcs1Private)
        let pkcs8 = try RSAPrivateKey(pemRepresentation: Fixtures.pkcs8Private)
        #expect(pkcs1.publicKey == pkcs8.publicKey)
        #expect(try pkcs1.signSHA256(message) == pkcs8.signSHA256(message))
        // Our PKCS#8 output is byte for byte what the OpenSSL command line wrote.
        #expect(pkcs1.pemRepresentation == Fixtures.pkcs8Private + "\n")

        let spki = try RSAPublicKey(pemRepresentation: Fixtures.spkiPublic)
        let pkcs1Public = try RSAPublicKey(pemRepresentation: Fixtures.pkcs1Public)
        #expect(spki == pkcs1Public)
        #expect(spki == pkcs8.publicKey)
        #expect(pkcs1Public.pemRepresentation == Fixtures.spkiPublic + "\n")
        #expect(pkcs1Public.isValidSHA256Signature(try pkcs1.signSHA256(message), for: message))
    }

    @Test("text around the PEM block is ignored")
    func surroundingText() throws {
        let key = try RSAPublicKey(pemRepresentation: "Key for the test:\n" + Fixtures.spkiPublic + "\ntrailing text\n")
        #expect(key == (try RSAPublicKey(pemRepresentation: Fixtures.spkiPublic)))
    }

    @Test("moduli under 2048 bits are refused")
    func smallKeys() throws {
        #expect(throws: CryptoError(.keyTooSmall, reason: "")) {
            try RSAPublicKey(pemRepresentation: Fixtures.smallPublic)
        }
        let key = SharedKeys.primary.publicKey
        // 2047 bits: clear the top bit of a 2048-bit modulus.
        var shorter = key.modulus
        shorter[0] = 0x7F
        shorter[shorter.count - 1] |= 1
        #expect(throws: CryptoError(.keyTooSmall, reason: "")) {
            try RSAPublicKey(modulus: shorter, exponent: key.exponent)
        }
        #expect(throws: CryptoError(.keyTooSmall, reason: "")) {
            try RSAPublicKey(modulus: Array(key.modulus.prefix(128)), exponent: key.exponent)
        }
        #expect(throws: CryptoError(.keyTooSmall, reason: "")) {
            try RSAPrivateKey.generate(bits: 1024)
        }
        #expect(throws: CryptoError(.keyTooLarge, reason: "")) {
            try RSAPrivateKey.generate(bits: 16385)
        }
    }

    @Test("bad public numbers are refused")
    func badNumbers() throws {
        let key = SharedKeys.primary.publicKey
        var even = key.modulus
        even[even.count - 1] &= 0xFE
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: even, exponent: key.exponent) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: key.modulus, exponent: [1]) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: key.modulus, exponent: [0x01, 0x00, 0x00]) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: key.modulus, exponent: []) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: key.modulus, exponent: [UInt8](repeating: 0xFF, count: 9)) }
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try RSAPublicKey(modulus: [], exponent: key.exponent) }
    }

    @Test("keys from JWK-style numbers: RFC 7515 A.2 key")
    func privateFromNumbers() throws {
        let key = try RFC7515Key.privateKey()
        #expect(key.publicKey.modulus == b64(RFC7515Key.n))
        #expect(key.publicKey.exponent == b64(RFC7515Key.e))
        let signature = try key.signSHA256(message)
        #expect(key.publicKey.isValidSHA256Signature(signature, for: message))
        let reread = try RSAPrivateKey(pemRepresentation: key.pemRepresentation)
        #expect(try reread.signSHA256(message) == signature)
    }

    @Test("private numbers that do not belong together are refused")
    func inconsistentNumbers() throws {
        var coefficient = b64(RFC7515Key.qi)
        coefficient[coefficient.count - 1] ^= 0x02
        #expect(throws: CryptoError(.invalidKey, reason: "")) {
            try RFC7515Key.privateKey(replacingCoefficientWith: coefficient)
        }
        #expect(throws: CryptoError(.invalidKey, reason: "")) {
            try RSAPrivateKey(
                modulus: SharedKeys.primary.publicKey.modulus, publicExponent: b64(RFC7515Key.e),
                privateExponent: b64(RFC7515Key.d), prime1: b64(RFC7515Key.p), prime2: b64(RFC7515Key.q),
                exponent1: b64(RFC7515Key.dp), exponent2: b64(RFC7515Key.dq), coefficient: b64(RFC7515Key.qi))
        }
    }

    @Test("PEM blocks of other kinds are refused")
    func wrongPEM() throws {
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPrivateKey(pemRepresentation: Fixtures.spkiPublic) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPublicKey(pemRepresentation: Fixtures.pkcs8Private) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPrivateKey(pemRepresentation: Fixtures.encryptedPKCS8) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPrivateKey(pemRepresentation: Fixtures.encryptedPKCS1) }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPublicKey(pemRepresentation: "") }
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPublicKey(pemRepresentation: "not a key") }
        let corrupted = Fixtures.spkiPublic.replacingOccurrences(of: "MIIB", with: "MIIC")
        #expect(throws: CryptoError(.unsupportedFormat, reason: "")) { try RSAPublicKey(pemRepresentation: corrupted) }
    }

    @Test("keys that are not RSA are refused")
    func otherKeyTypes() throws {
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try RSAPrivateKey(pemRepresentation: Fixtures.ecPrivate) }
        #expect(throws: CryptoError(.unsupportedKeyType, reason: "")) { try RSAPublicKey(pemRepresentation: Fixtures.ecPublic) }
    }

    @Test("OpenSSLError describes the operation and the drained queue entries")
    func openSSLErrorDescription() {
        let error = OpenSSLError(operation: "EVP_PKEY_fromdata", entries: ["error:1:first", "error:2:second"])
        #expect(error.description == "OpenSSL: EVP_PKEY_fromdata failed: error:1:first; error:2:second")
        OpenSSLError.clearQueue()
        let empty = OpenSSLError.drainingQueue(operation: "nothing")
        #expect(empty.entries.isEmpty)
        #expect(empty.description == "OpenSSL: nothing failed")
    }
}
