import HearthCrypto
import Testing

@Suite("Secret keyring (sealed values for storage)")
struct SecretKeyringTests {
    static let keyA = [UInt8](repeating: 0x11, count: 32)
    static let keyB = [UInt8](repeating: 0x22, count: 32)
    static let context = Array("mfa-enrollment-totp/enrol-1".utf8)
    static let secret: [UInt8] = [0x00, 0xFF, 0x3A, 0x0A] + Array("JBSWY3DPEHPK3PXP".utf8)

    static func keyring(_ current: [UInt8], previous: [[UInt8]] = []) throws -> SecretKeyring {
        SecretKeyring(current: try .init(current), previous: try previous.map { try .init($0) })
    }

    @Test("the key id is the first 8 bytes of the key's SHA-256 in hex (what sha256sum shows)")
    func keyID() throws {
        let key = try SecretKeyring.Key(Self.keyA)
        #expect(key.id == String(hexString(SHA256.hash(Self.keyA)).prefix(16)))
        #expect(key.id.count == 16)
        #expect("\(key)" == "SecretKeyring.Key(\(key.id))")
        #expect(throws: CryptoError(.invalidKey, reason: "")) { try SecretKeyring.Key([UInt8](repeating: 1, count: 31)) }
    }

    @Test("a sealed value is ASCII, names its format and key, holds no plaintext, and opens to the secret")
    func roundTrip() throws {
        let keyring = try Self.keyring(Self.keyA)
        let sealed = try keyring.seal(Self.secret, context: Self.context)
        let text = String(decoding: sealed, as: UTF8.self)
        #expect(text.hasPrefix("hearth-sealed:v1:\(keyring.current.id):"))
        #expect(sealed.allSatisfy { $0 >= 0x21 && $0 < 0x7F })
        #expect(!text.contains("JBSWY3DPEHPK3PXP"))
        // Marker, version, 16-character key id, colons; base64url of 12-byte nonce + secret + 16-byte tag.
        #expect(sealed.count == 17 + 16 + 1 + Base64URL.encode([UInt8](repeating: 0, count: 12 + Self.secret.count + 16)).count)
        #expect(SecretKeyring.isSealed(sealed))
        #expect(SecretKeyring.keyID(ofSealed: sealed) == keyring.current.id)
        #expect(try keyring.open(sealed, context: Self.context) == Self.secret)
        #expect(try keyring.seal(Self.secret, context: Self.context) != sealed, "a fresh nonce per seal")
        #expect(try keyring.open(try keyring.seal([], context: []), context: []) == [])
    }

    @Test("opens a value sealed by an independent implementation of the format (Python's cryptography)")
    func independentImplementation() throws {
        // key = bytes 0…31; record key = HMAC-SHA256(key, header ‖ context); AES-256-GCM with nonce 00…0b and
        // associated data header ‖ context; stored as header ‖ base64url(nonce ‖ ciphertext ‖ tag).
        let keyring = try Self.keyring(Array(0..<32))
        #expect(keyring.current.id == "630dcd2966c43366")
        let sealed = Array(
            "hearth-sealed:v1:630dcd2966c43366:AAECAwQFBgcICQoL0PEKvFIMbjpjxzGEzd8xB743J-rVU2IClt1L1brFze7w4PPpMDI8QOPXdAM".utf8)
        let opened = try keyring.open(sealed, context: Array("signing-key/key-1".utf8))
        #expect(String(decoding: opened, as: UTF8.self) == "-----BEGIN PRIVATE KEY-----\n")
        #expect(throws: CryptoError(.authenticationFailed, reason: "")) {
            try keyring.open(sealed, context: Array("signing-key/key-2".utf8))
        }
    }

    @Test("plain values are not taken for sealed ones")
    func plainValues() {
        for plain in ["-----BEGIN PRIVATE KEY-----\nMII", "", "hearth", "hearth-sealed"] {
            #expect(!SecretKeyring.isSealed(Array(plain.utf8)))
            #expect(SecretKeyring.keyID(ofSealed: Array(plain.utf8)) == nil)
        }
        #expect(!SecretKeyring.isSealed(Self.secret))
    }

    @Test("a value sealed for one record does not open for another")
    func boundToContext() throws {
        let keyring = try Self.keyring(Self.keyA)
        let sealed = try keyring.seal(Self.secret, context: Self.context)
        for other in ["mfa-enrollment-totp/enrol-2", "verification-session-totp/enrol-1", ""] {
            #expect(throws: CryptoError(.authenticationFailed, reason: "")) {
                try keyring.open(sealed, context: Array(other.utf8))
            }
        }
    }

    @Test("a changed character anywhere in the payload, or a changed key id, does not open")
    func tampered() throws {
        let keyring = try Self.keyring(Self.keyA, previous: [Self.keyB])
        let sealed = try keyring.seal(Self.secret, context: Self.context)
        let payloadStart = 17 + 16 + 1
        for index in payloadStart..<sealed.count {
            var changed = sealed
            changed[index] = changed[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(throws: CryptoError.self, "character \(index)") { try keyring.open(changed, context: Self.context) }
        }
        // The header is authenticated too: relabelling the value with the other key's id does not open it.
        let relabelled = Array("hearth-sealed:v1:\(try SecretKeyring.Key(Self.keyB).id)".utf8) + sealed.dropFirst(17 + 16)
        #expect(throws: CryptoError(.authenticationFailed, reason: "")) { try keyring.open(relabelled, context: Self.context) }
    }

    @Test("previous keys open but do not seal; a key that is not configured is named as unknown")
    func rotation() throws {
        let old = try Self.keyring(Self.keyA)
        let sealedOld = try old.seal(Self.secret, context: Self.context)
        let rotated = try Self.keyring(Self.keyB, previous: [Self.keyA, Self.keyB, Self.keyA])
        #expect(rotated.keyIDs == [try SecretKeyring.Key(Self.keyB).id, old.current.id], "repeats dropped")
        #expect(try rotated.open(sealedOld, context: Self.context) == Self.secret)
        let sealedNew = try rotated.seal(Self.secret, context: Self.context)
        #expect(SecretKeyring.keyID(ofSealed: sealedNew) == rotated.current.id)
        #expect(throws: CryptoError(.unknownKey, reason: "")) { try old.open(sealedNew, context: Self.context) }
        let newOnly = try Self.keyring(Self.keyB)
        #expect(throws: CryptoError(.unknownKey, reason: "")) { try newOnly.open(sealedOld, context: Self.context) }
    }

    @Test("malformed and future-version values are refused as unsupported, not opened or taken as plain")
    func malformed() throws {
        let keyring = try Self.keyring(Self.keyA)
        let id = keyring.current.id
        let cases = [
            "hearth-sealed:v2:\(id):AAAA", "hearth-sealed:v1:", "hearth-sealed:v1:\(id)",
            "hearth-sealed:v1:\(id.uppercased()):AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "hearth-sealed:v1:\(id):", "hearth-sealed:v1:\(id):AAAA",
            "hearth-sealed:v1:\(id):not base64!", "hearth-sealed:v1:\(id)x" + String(repeating: "A", count: 40),
        ]
        for text in cases {
            #expect(SecretKeyring.isSealed(Array(text.utf8)))
            #expect(throws: CryptoError(.unsupportedFormat, reason: ""), "\(text)") {
                try keyring.open(Array(text.utf8), context: Self.context)
            }
        }
    }
}
