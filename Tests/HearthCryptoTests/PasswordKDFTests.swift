import HearthCrypto
import Testing

/// The primitives behind imported password hashes, against published vectors (each checked again with Python's
/// hashlib/hmac, and the AES one with `openssl enc -aes-256-ctr`, when they were recorded).
@Suite("PBKDF2, scrypt, AES-256-CTR, MD5/SHA-512 and HMAC-MD5/SHA-512 known answers")
struct PasswordKDFTests {
    @Test("PBKDF2-HMAC-SHA1: RFC 6070")
    func pbkdf2SHA1() throws {
        let cases: [(String, String, Int, Int, String)] = [
            ("password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            ("password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            ("password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
            ("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25,
             "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"),
            ("pass\0word", "sa\0lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
        ]
        for (password, salt, iterations, length, expected) in cases {
            let derived = try PBKDF2.derive(
                password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, digest: .sha1,
                byteCount: length)
            #expect(hexString(derived) == expected, "\(password) / \(iterations)")
        }
    }

    @Test("PBKDF2-HMAC-SHA256: RFC 7914 §11")
    func pbkdf2SHA256() throws {
        let one = try PBKDF2.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, digest: .sha256, byteCount: 64)
        #expect(one == hex("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
        let many = try PBKDF2.derive(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80000, digest: .sha256, byteCount: 64)
        #expect(many == hex("4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
    }

    @Test("PBKDF2 refuses zero iterations and an empty output")
    func pbkdf2Refusals() {
        #expect(throws: CryptoError.self) { try PBKDF2.derive(password: [1], salt: [2], iterations: 0, digest: .sha1, byteCount: 20) }
        #expect(throws: CryptoError.self) { try PBKDF2.derive(password: [1], salt: [2], iterations: 1, digest: .sha1, byteCount: 0) }
    }

    @Test("scrypt: RFC 7914 §12")
    func scrypt() throws {
        let empty = try Scrypt.derive(password: [], salt: [], n: 16, r: 1, p: 1, byteCount: 64)
        #expect(empty == hex("77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"))
        let nacl = try Scrypt.derive(password: Array("password".utf8), salt: Array("NaCl".utf8), n: 1024, r: 8, p: 16, byteCount: 64)
        #expect(nacl == hex("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"))
    }

    @Test("scrypt derives with a large block size (OpenSSL's memory count) and matches hashlib")
    func scryptLargeBlockSize() throws {
        // hashlib.scrypt(b"pw", salt=b"salt", n=1024, r=16, p=2, dklen=16).hex()
        let derived = try Scrypt.derive(password: Array("pw".utf8), salt: Array("salt".utf8), n: 1024, r: 16, p: 2, byteCount: 16)
        #expect(hexString(derived) == "e14f84c24bc802407aaf9a58c3249b2a")
    }

    @Test("scrypt refuses a cost that is not a power of two, and memory past its limit")
    func scryptRefusals() {
        #expect(throws: CryptoError.self) { try Scrypt.derive(password: [1], salt: [2], n: 1000, r: 8, p: 1, byteCount: 32) }
        #expect(throws: CryptoError.self) { try Scrypt.derive(password: [1], salt: [2], n: 1 << 20, r: 8, p: 1, byteCount: 32) }
        #expect(throws: CryptoError.self) { try Scrypt.derive(password: [1], salt: [2], n: 1 << 62, r: 1 << 20, p: 1, byteCount: 32) }
        #expect(throws: CryptoError.self) { try Scrypt.derive(password: [1], salt: [2], n: 2, r: Int.max / 3, p: 2, byteCount: 32) }
        #expect(throws: CryptoError.self) { try Scrypt.derive(password: [1], salt: [2], n: 2, r: 1, p: Int.max, byteCount: 32) }
    }

    @Test("AES-256-CTR: NIST SP 800-38A F.5.5")
    func aesCTR() throws {
        let key = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let iv = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        let plaintext = hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let ciphertext = try AES256CTR.apply(plaintext, key: key, iv: iv)
        #expect(ciphertext == hex("601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"))
        #expect(try AES256CTR.apply(ciphertext, key: key, iv: iv) == plaintext)
        #expect(throws: CryptoError.self) { try AES256CTR.apply(plaintext, key: [1, 2], iv: iv) }
    }

    @Test("MD5 (RFC 1321) and SHA-512 (FIPS 180-4) digests")
    func digests() {
        #expect(hexString(DigestAlgorithm.md5.hash([])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(hexString(DigestAlgorithm.md5.hash(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hexString(DigestAlgorithm.sha512.hash(Array("abc".utf8))) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(DigestAlgorithm.sha1.hash(Array("abc".utf8)) == SHA1.hash(Array("abc".utf8)))
        #expect(DigestAlgorithm.sha256.hash(Array("abc".utf8)) == SHA256.hash("abc"))
    }

    @Test("HMAC-MD5 (RFC 2202) and HMAC-SHA512 (RFC 4231)")
    func hmacs() {
        let hiThere = Array("Hi There".utf8)
        let jefe = (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
        #expect(hexString(HMAC.compute(.md5, key: [UInt8](repeating: 0x0b, count: 16), message: hiThere)) == "9294727a3638bb1c13f48ef8158bfc9d")
        #expect(hexString(HMAC.compute(.md5, key: jefe.0, message: jefe.1)) == "750c783e6ab0b503eaa86e310a5db738")
        #expect(hexString(HMAC.compute(.sha512, key: [UInt8](repeating: 0x0b, count: 20), message: hiThere)) == "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854")
        #expect(hexString(HMAC.compute(.sha512, key: jefe.0, message: jefe.1)) == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
    }
}
