import HearthCrypto
import Testing

@Suite("AES-256-GCM (NIST GCM spec test cases 13–16)")
struct AES256GCMTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var key: String
        var nonce: String
        var plaintext: String
        var associatedData: String
        var ciphertext: String
        var tag: String
        var testDescription: String { name }
    }

    static let specKey = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let specPlaintext =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let specCiphertext =
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

    /// McGrew & Viega, "The Galois/Counter Mode of Operation", appendix B (the AES-256 cases that NIST SP 800-38D
    /// refers to); checked against Python's `cryptography` as well.
    static let vectors: [Vector] = [
        Vector(
            name: "case 13: empty message", key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
            plaintext: "", associatedData: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(
            name: "case 14: one zero block", key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
            plaintext: String(repeating: "00", count: 16), associatedData: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(
            name: "case 15: four blocks", key: specKey, nonce: "cafebabefacedbaddecaf888", plaintext: specPlaintext,
            associatedData: "", ciphertext: specCiphertext, tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(
            name: "case 16: partial block with associated data", key: specKey, nonce: "cafebabefacedbaddecaf888",
            plaintext: String(specPlaintext.dropLast(8)), associatedData: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            ciphertext: String(specCiphertext.dropLast(8)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test("seal gives the known ciphertext and tag; open gives the plaintext back", arguments: vectors)
    func knownAnswer(vector: Vector) throws {
        let key = try AES256GCM.Key(hex(vector.key))
        let sealed = try AES256GCM.seal(
            hex(vector.plaintext), key: key, nonce: hex(vector.nonce), associatedData: hex(vector.associatedData))
        #expect(hexString(sealed) == vector.ciphertext + vector.tag)
        let opened = try AES256GCM.open(
            hex(vector.ciphertext + vector.tag), key: key, nonce: hex(vector.nonce),
            associatedData: hex(vector.associatedData))
        #expect(hexString(opened) == vector.plaintext)
    }

    static let case16 = vectors[3]

    static func openCase16(
        sealed: [UInt8] = hex(case16.ciphertext + case16.tag), key: [UInt8] = hex(case16.key),
        nonce: [UInt8] = hex(case16.nonce), associatedData: [UInt8] = hex(case16.associatedData)
    ) throws -> [UInt8] {
        try AES256GCM.open(sealed, key: try AES256GCM.Key(key), nonce: nonce, associatedData: associatedData)
    }

    static func flipping(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var changed = bytes
        changed[index] ^= 0x01
        return changed
    }

    @Test("any changed bit of ciphertext, tag, associated data, nonce or key fails authentication")
    func tampering() throws {
        let sealed = hex(Self.case16.ciphertext + Self.case16.tag)
        let failed = CryptoError(.authenticationFailed, reason: "")
        for index in [0, 30, sealed.count - 17, sealed.count - 16, sealed.count - 1] {
            #expect(throws: failed, "byte \(index)") { try Self.openCase16(sealed: Self.flipping(sealed, at: index)) }
        }
        let associatedData = hex(Self.case16.associatedData)
        #expect(throws: failed) { try Self.openCase16(associatedData: Self.flipping(associatedData, at: 19)) }
        #expect(throws: failed) { try Self.openCase16(associatedData: []) }
        #expect(throws: failed) { try Self.openCase16(associatedData: associatedData + [0]) }
        #expect(throws: failed) { try Self.openCase16(nonce: Self.flipping(hex(Self.case16.nonce), at: 11)) }
        #expect(throws: failed) { try Self.openCase16(key: Self.flipping(hex(Self.case16.key), at: 0)) }
        #expect(throws: failed) { try Self.openCase16(sealed: Array(sealed.dropLast())) }
        #expect(throws: failed) { try Self.openCase16(sealed: Array(sealed.dropFirst())) }
        #expect(throws: failed) { try Self.openCase16(sealed: Array(sealed.suffix(15))) }
        #expect(throws: failed) { try Self.openCase16(sealed: []) }
        // And the untouched value still opens, so the failures above are the changes' doing.
        #expect(try Self.openCase16() == hex(Self.case16.plaintext))
    }

    @Test("keys must be 32 bytes and nonces 12; the key never shows in descriptions")
    func arguments() throws {
        for count in [0, 16, 24, 31, 33, 64] {
            #expect(throws: CryptoError(.invalidKey, reason: "")) { try AES256GCM.Key([UInt8](repeating: 1, count: count)) }
        }
        let key = try AES256GCM.Key([UInt8](repeating: 0xAB, count: 32))
        for count in [0, 8, 11, 13, 16] {
            #expect(throws: CryptoError(.invalidArgument, reason: "")) {
                try AES256GCM.seal([1], key: key, nonce: [UInt8](repeating: 0, count: count))
            }
            #expect(throws: CryptoError(.invalidArgument, reason: "")) {
                try AES256GCM.open([UInt8](repeating: 0, count: 17), key: key, nonce: [UInt8](repeating: 0, count: count))
            }
        }
        #expect("\(key)" == "AES256GCM.Key(32 bytes)")
        #expect(String(reflecting: key) == "AES256GCM.Key(32 bytes)")
    }

    @Test("random nonces make every seal of the same message different; each opens only with its own nonce")
    func randomNonces() throws {
        let key = try AES256GCM.Key(SecureRandom.bytes(count: AES256GCM.Key.byteCount))
        let message = Array("the same message".utf8)
        let nonces = (0..<2).map { _ in SecureRandom.bytes(count: AES256GCM.nonceByteCount) }
        let sealed = try nonces.map { try AES256GCM.seal(message, key: key, nonce: $0) }
        #expect(sealed[0] != sealed[1])
        #expect(try AES256GCM.open(sealed[1], key: key, nonce: nonces[1]) == message)
        #expect(throws: CryptoError(.authenticationFailed, reason: "")) {
            try AES256GCM.open(sealed[1], key: key, nonce: nonces[0])
        }
    }
}
