import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

/// Known answers for every algorithm `accounts:batchCreate` imports, through the whole path: the request's options
/// and the row's base64 → the stored `$hearth-import-v1$` string → a password check.
///
/// Sources: the SCRYPT vectors are the README of github.com/firebase/scrypt and firebase-admin-node's integration
/// test (test/integration/auth.spec.ts, run against production); STANDARD_SCRYPT and PBKDF2 are RFC 7914 §11–12 and
/// RFC 6070; bcrypt is Openwall's crypt_blowfish vector; the SHA1 one is the production import of
/// blog.salrashid.dev/articles/2020/firebase_import. The HMAC, SHA and MD5 hashes were computed independently with
/// Python 3.11's hashlib/hmac, e.g. `base64.b64encode(hmac.new(b"secret", b"password" + b"NaCl", "sha256").digest())`
/// and, for MD5 with 2 rounds, `x = md5(b"NaCl" + b"password").digest()`, twice `x = md5(x + b"password").digest()`,
/// then `base64.b64encode(x.hex().encode())`.
@Suite("Imported password hashes: known answers, the stored format, bounds")
struct ImportedPasswordHashTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var options: PasswordHashOptions
        var password: String
        var salt: String?
        var hash: String
        var testDescription: String { name }
    }

    static let firebaseKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    static let naCl = "TmFDbA=="  // "NaCl"
    static let secret = "c2VjcmV0"  // "secret"

    static let vectors: [Vector] = [
        Vector(
            name: "SCRYPT (firebase/scrypt README)",
            options: .init(hashAlgorithm: "SCRYPT", signerKey: firebaseKey, saltSeparator: "Bw==", rounds: 8, memoryCost: 14),
            password: "user1password", salt: "42xEC+ixf3L2lw==",
            hash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
        Vector(
            name: "SCRYPT (firebase-admin-node, URL-safe base64)",
            options: .init(hashAlgorithm: "SCRYPT", signerKey: firebaseKey.replacingOccurrences(of: "/", with: "_"), saltSeparator: "Bw", rounds: 8, memoryCost: 14),
            password: "password", salt: "TmFDbA",
            hash: "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T_rcaGieN04q_ZPJ08WhJEHGjj9lz_2TT-_86N5VjVoc5DdBhBiw=="),
        // rounds is scrypt's r (not a fixed 8): computed with `hashlib.scrypt(b"pw-4-rounds", salt=b"salty\x01",
        // n=1024, r=4, p=1, dklen=32)` and `openssl enc -aes-256-ctr -K <that> -iv 0…0` over the signer key.
        Vector(
            name: "SCRYPT (rounds 4, memory cost 10, a 40-byte key)",
            options: .init(hashAlgorithm: "SCRYPT", signerKey: "aGVhcnRoLXRlc3Qtc2lnbmVyLWtleS1vZi00MC1ieXRlcy1sb25nIQ==", saltSeparator: "AQ==", rounds: 4, memoryCost: 10),
            password: "pw-4-rounds", salt: "c2FsdHk=", hash: "EYIum9vrLUI4uBqOQa27jU6nzrWKLBHARVWmDsK8YIaavN1Bda8+OA=="),
        Vector(
            name: "STANDARD_SCRYPT (RFC 7914 §12)",
            options: .init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1024, parallelization: 16, blockSize: 8, dkLen: 64),
            password: "password", salt: naCl,
            hash: "/bq+HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG/xCSedmDDaxyevuUqD7m2DYMvfoswGQA=="),
        Vector(
            name: "BCRYPT (Openwall)", options: .init(hashAlgorithm: "BCRYPT"), password: "U*U", salt: nil,
            hash: "JDJiJDA1JENDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQy5FNVlQTzlrbXl1Ukd5aDBYb3VRWWI0WU1KS3Z5T2VX"),
        Vector(
            name: "PBKDF2_SHA256 (RFC 7914 §11)", options: .init(hashAlgorithm: "PBKDF2_SHA256", rounds: 80000),
            password: "Password", salt: naCl,
            hash: "TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ=="),
        Vector(
            name: "PBKDF_SHA1 (RFC 6070)", options: .init(hashAlgorithm: "PBKDF_SHA1", rounds: 4096),
            password: "password", salt: "c2FsdA==", hash: "SwB5AbdlSJq+rUnZJvch0GWkKcE="),
        Vector(
            name: "HMAC_SHA256 (password first, the default)", options: .init(hashAlgorithm: "HMAC_SHA256", signerKey: secret),
            password: "password", salt: naCl, hash: "C5WKh+Qa5RkMlq+h5DX5XKsBOsQt/DEKEaUBAMQqrlI="),
        Vector(
            name: "HMAC_SHA256 (SALT_AND_PASSWORD)",
            options: .init(hashAlgorithm: "HMAC_SHA256", signerKey: secret, passwordHashOrder: "SALT_AND_PASSWORD"),
            password: "password", salt: naCl, hash: "ExOA8YX6DO2P838cxsMMdHTddVwTeqjm1H9BMFO7qWE="),
        Vector(
            name: "HMAC_SHA512", options: .init(hashAlgorithm: "HMAC_SHA512", signerKey: secret), password: "password", salt: naCl,
            hash: "yoFsygT+IMma1lMv+IqBvfHM1DCminat6m9ku6Re5nl8QSy9Z3BwPG9FnejSRcu99tK4xSVVkY6I9euOf8nmQA=="),
        Vector(
            name: "HMAC_SHA1", options: .init(hashAlgorithm: "HMAC_SHA1", signerKey: secret), password: "password", salt: naCl,
            hash: "tSjltw8SZxad1AY6k8wDYCwUeyI="),
        Vector(
            name: "HMAC_MD5", options: .init(hashAlgorithm: "HMAC_MD5", signerKey: secret), password: "password", salt: naCl,
            hash: "4tZGVrzeu9LZ9eWZ03FrLg=="),
        Vector(
            name: "SHA256, 1 round (salt first, the default)", options: .init(hashAlgorithm: "SHA256", rounds: 1),
            password: "password", salt: naCl, hash: "sgq3SqJUn34ToOiGy0RxzC5w/NLOgHXA7mSDq7phMvM="),
        Vector(
            name: "SHA512, 3 rounds, PASSWORD_AND_SALT",
            options: .init(hashAlgorithm: "SHA512", rounds: 3, passwordHashOrder: "PASSWORD_AND_SALT"), password: "password", salt: naCl,
            hash: "lWtGHkN6zoiVw/bkcU6fo3WJR8eG/JVPB1aLLJK0ljGmCr5axMLIBJnHw+rEdEw4y2l9aarI9reFnmAqCo6+2w=="),
        Vector(
            name: "SHA1, 2 rounds", options: .init(hashAlgorithm: "SHA1", rounds: 2), password: "password", salt: naCl,
            hash: "13lrvJcl8TcDuAiaFNui2i4rgBo="),
        Vector(
            name: "SHA1, 1 round, PASSWORD_AND_SALT (salrashid's production import)",
            options: .init(hashAlgorithm: "SHA1", rounds: 1, passwordHashOrder: "PASSWORD_AND_SALT"), password: "Password1",
            salt: "WGl3aWloUT0=", hash: "kfjS+dtoePcY0vEKx1w5ol2ZJ88="),
        Vector(
            name: "MD5, 0 rounds (hex, as Firebase compares it)", options: .init(hashAlgorithm: "MD5", rounds: 0),
            password: "password", salt: naCl, hash: "NjJkMTlmN2U3ZGRjYjU5NDY3Mjg3NzZkMjVlNDEwZWQ="),
        Vector(
            name: "MD5, 2 rounds (hex)", options: .init(hashAlgorithm: "MD5", rounds: 2), password: "password", salt: naCl,
            hash: "NzIyZTI2OGFiMGIxM2JkNTEzYTI2Yzk3YmMzOWU2MGI="),
        Vector(
            name: "MD5, 2 rounds (raw digest)", options: .init(hashAlgorithm: "MD5", rounds: 2), password: "password", salt: naCl,
            hash: "ci4mirCxO9UTomyXvDnmCw=="),
    ]

    private func stored(_ vector: Vector) throws -> String {
        try ImportedPasswordHash.storedHash(
            passwordHash: vector.hash, salt: vector.salt, scheme: try ImportedHashScheme(options: vector.options))
    }

    @Test("the right password matches, a wrong one does not", arguments: vectors)
    func knownAnswer(_ vector: Vector) throws {
        let stored = try stored(vector)
        let verifier = ImportedPasswordHashVerifier()
        #expect(stored.hasPrefix("$hearth-import-v1$alg=\(vector.options.hashAlgorithm!)"))
        #expect(verifier.recognizes(stored))
        #expect(try verifier.verify(vector.password, against: stored))
        #expect(try !verifier.verify(vector.password + "x", against: stored))
        #expect(try !verifier.verify(String(vector.password.dropLast()), against: stored))
        #expect(try !verifier.verify("", against: stored))
    }

    @Test("the stored string round-trips and says what it is", arguments: vectors)
    func roundTrip(_ vector: Vector) throws {
        let stored = try stored(vector)
        let parsed = try ImportedPasswordHash(stored: stored)
        #expect(parsed.stored == stored)
        #expect(try ImportedPasswordHash(scheme: parsed.scheme, salt: parsed.salt, hash: parsed.hash) == parsed)
        // Hearth's own export gives it back as base64 with no algorithm, and the import takes it unchanged.
        let exported = Array(stored.utf8).base64
        #expect(try ImportedPasswordHash.storedHash(passwordHash: exported, salt: nil, scheme: nil) == stored)
    }

    @Test("the documented example")
    func example() throws {
        let hash = try ImportedPasswordHash(
            scheme: .hmac(.sha256, key: Array("secret".utf8), order: .passwordAndSalt), salt: Array("NaCl".utf8),
            hash: [UInt8](repeating: 7, count: 32))
        #expect(hash.stored == "$hearth-import-v1$alg=HMAC_SHA256,order=PASSWORD_AND_SALT,key=c2VjcmV0$TmFDbA$BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc")
    }

    @Test("malformed, non-canonical or out-of-bounds stored strings throw instead of verifying")
    func malformed() throws {
        let good = try stored(Self.vectors[7])
        let verifier = ImportedPasswordHashVerifier()
        let bad = [
            "", "$hearth-import-v1$", "$hearth-import-v2$alg=MD5,rounds=0$$YWJj", "$hearth-import-v1$alg=MD5,rounds=0$$",
            good + "$", good.replacingOccurrences(of: "order=PASSWORD_AND_SALT,", with: ""),
            good.replacingOccurrences(of: "alg=HMAC_SHA256,order=PASSWORD_AND_SALT", with: "order=PASSWORD_AND_SALT,alg=HMAC_SHA256"),
            good.replacingOccurrences(of: "PASSWORD_AND_SALT", with: "SALTED"),
            good.replacingOccurrences(of: "alg=HMAC_SHA256", with: "alg=HMAC_SHA384"),
            good.replacingOccurrences(of: "key=c2VjcmV0", with: "key=c2VjcmV0="),
            good.replacingOccurrences(of: "key=c2VjcmV0", with: "key="),
            good.replacingOccurrences(of: "key=c2VjcmV0", with: "key=c2VjcmV0,key=c2VjcmV0"),
            "$hearth-import-v1$alg=SHA256,order=SALT_AND_PASSWORD,rounds=01$$" + String(repeating: "A", count: 43),
            "$hearth-import-v1$alg=SHA256,order=SALT_AND_PASSWORD,rounds=+1$$" + String(repeating: "A", count: 43),
            "$hearth-import-v1$alg=SHA256,order=SALT_AND_PASSWORD,rounds=8193$$" + String(repeating: "A", count: 43),
            "$hearth-import-v1$alg=SHA256,order=SALT_AND_PASSWORD,rounds=99999999999999999999$$" + String(repeating: "A", count: 43),
            // Costs that would take seconds or gigabytes.
            "$hearth-import-v1$alg=SCRYPT,rounds=8,mem=30,key=AAAA,sep=$$AAAA",
            "$hearth-import-v1$alg=STANDARD_SCRYPT,n=1048576,r=8,p=1,dklen=3$$AAAA",
            "$hearth-import-v1$alg=STANDARD_SCRYPT,n=16384,r=8,p=64,dklen=3$$AAAA",
            "$hearth-import-v1$alg=PBKDF2_SHA256,rounds=500000$$AAAA",
            "$hearth-import-v1$alg=BCRYPT$$" + Base64URL.encodeText("$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
            "$hearth-import-v1$alg=BCRYPT$$" + Base64URL.encodeText("$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ]
        for text in bad {
            #expect(throws: ImportedPasswordHash.Refusal.self, "\(text)") { try verifier.verify("password", against: text) }
        }
        #expect(!verifier.recognizes("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"))
    }

    @Test("hash options outside Firebase's ranges or Hearth's caps are refused with Firebase's codes")
    func optionErrors() {
        func code(_ options: PasswordHashOptions) -> ErrorCode? {
            do {
                _ = try ImportedHashScheme(options: options)
                return nil
            } catch { return error.code }
        }
        #expect(code(.init(hashAlgorithm: "ARGON2")) == .invalidHashAlgorithm)
        #expect(code(.init(hashAlgorithm: "sha256", rounds: 1)) == .invalidHashAlgorithm)
        #expect(code(.init(hashAlgorithm: "SHA256", rounds: 8193)) == .invalidHashRounds)
        #expect(code(.init(hashAlgorithm: "MD5", rounds: -1)) == .invalidHashRounds)
        #expect(code(.init(hashAlgorithm: "PBKDF2_SHA256", rounds: 120_001)) == .invalidHashRounds)
        #expect(code(.init(hashAlgorithm: "SCRYPT", signerKey: Self.secret, rounds: 9, memoryCost: 14)) == .invalidHashRounds)
        #expect(code(.init(hashAlgorithm: "SCRYPT", signerKey: Self.secret, rounds: 8, memoryCost: 15)) == .invalidHashMemoryCost)
        #expect(code(.init(hashAlgorithm: "SCRYPT", rounds: 8, memoryCost: 14)) == .invalidHashKey)
        #expect(code(.init(hashAlgorithm: "SCRYPT", signerKey: "not base64!", rounds: 8, memoryCost: 14)) == .invalidHashKey)
        #expect(code(.init(hashAlgorithm: "SCRYPT", signerKey: Self.secret, saltSeparator: "%%", rounds: 8, memoryCost: 14)) == .invalidHashSaltSeparator)
        #expect(code(.init(hashAlgorithm: "HMAC_SHA256")) == .invalidHashKey)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1000, parallelization: 1, blockSize: 8, dkLen: 64)) == .invalidHashMemoryCost)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1 << 20, parallelization: 1, blockSize: 8, dkLen: 64)) == .invalidHashMemoryCost)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 16384, parallelization: 1000, blockSize: 8, dkLen: 64)) == .invalidHashMemoryCost)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1024, parallelization: 0, blockSize: 8, dkLen: 64)) == .invalidHashParallelization)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1024, parallelization: 1, blockSize: 0, dkLen: 64)) == .invalidHashBlockSize)
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1024, parallelization: 1, blockSize: 8)) == .invalidHashDerivedKeyLength)
        // The Go SDK sends standard scrypt's N as memoryCost.
        #expect(code(.init(hashAlgorithm: "STANDARD_SCRYPT", memoryCost: 1024, parallelization: 1, blockSize: 8, dkLen: 64)) == nil)
        #expect(code(.init(hashAlgorithm: "BCRYPT")) == nil)
    }

    @Test("rows whose hash cannot be right are refused, naming what is wrong")
    func rowRefusals() throws {
        func refusal(_ hash: String, salt: String? = nil, _ options: PasswordHashOptions?) -> String? {
            do {
                _ = try ImportedPasswordHash.storedHash(
                    passwordHash: hash, salt: salt, scheme: try options.map { try ImportedHashScheme(options: $0) })
                return nil
            } catch let refusal as ImportedPasswordHash.Refusal {
                return refusal.message
            } catch {
                return "\(error)"
            }
        }
        let sha256 = PasswordHashOptions(hashAlgorithm: "SHA256", rounds: 1)
        #expect(refusal("not base64!", sha256) == "passwordHash must be base64")
        #expect(refusal("c2VjcmV0", salt: "%%", sha256) == "salt must be base64")
        #expect(refusal("c2VjcmV0", sha256) == "passwordHash is not as long as a SHA256 digest")
        #expect(refusal("", sha256) != nil)
        #expect(refusal("c2VjcmV0", nil) == "hashAlgorithm is required to import a password hash")
        #expect(refusal(Base64URL.encodeText("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"), salt: "c2FsdA", nil) != nil)
        #expect(refusal(Base64URL.encodeText("$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"), nil) != nil)
        #expect(refusal(Base64URL.encodeText("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"), nil) == nil)
        let bcrypt = PasswordHashOptions(hashAlgorithm: "BCRYPT")
        #expect(refusal(Base64URL.encodeText("$2b$14$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"), bcrypt) == "bcrypt cost 14 is over Hearth's cap of 13")
        #expect(refusal(Base64URL.encodeText("$2b$13$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"), bcrypt) == nil)
        #expect(refusal(Base64URL.encodeText("$2b$05$CCCCCCCCCCCCCCCCCCCCC"), bcrypt) != nil)
        #expect(refusal(Base64URL.encodeText("$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"), salt: "c2FsdA", bcrypt) != nil)
        let standard = PasswordHashOptions(hashAlgorithm: "STANDARD_SCRYPT", cpuMemCost: 1024, parallelization: 1, blockSize: 8, dkLen: 64)
        #expect(refusal("c2VjcmV0", standard) == "a STANDARD_SCRYPT passwordHash is dkLen bytes long")
        let pbkdf2 = PasswordHashOptions(hashAlgorithm: "PBKDF2_SHA256", rounds: 1000)
        #expect(refusal(Array(repeating: UInt8(1), count: 65).base64, pbkdf2) != nil)
    }
}

extension Array where Element == UInt8 {
    /// Standard base64 with padding, as Firebase's exports write bytes.
    var base64: String {
        let url = Base64URL.encode(self)
        let standard = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }
}

extension Base64URL {
    static func encodeText(_ text: String) -> String { encode(Array(text.utf8)) }
}
