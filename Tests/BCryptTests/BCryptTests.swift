import BCrypt
import Testing

/// bcrypt hashes published with Openwall's crypt_blowfish (its wrapper.c test vectors). `$2b$` and `$2a$` agree for
/// passwords without 8-bit bytes, so the `$2b$` forms of the ASCII vectors are the same strings with `2b`.
@Suite("bcrypt verification (libxcrypt crypt_rn)")
struct BCryptTests {
    static let vectors: [(hash: String, password: [UInt8])] = [
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", Array("U*U".utf8)),
        ("$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", Array("U*U".utf8)),
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK", Array("U*U*".utf8)),
        ("$2b$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a", Array("U*U*U".utf8)),
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy", []),
        ("$2b$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e", [0xff, 0xff, 0xa3]),
        ("$2y$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e", [0xff, 0xff, 0xa3]),
        ("$2a$05$/OK.fbVrR/bpIqNJ5ianF.nqd1wy.pTMdcvrRWxyiGL2eMz.2a85.", [0xff, 0xff, 0xa3]),
    ]

    @Test("published vectors verify, and a changed password does not")
    func vectors() {
        for (hash, password) in Self.vectors {
            #expect(BCryptHash.verify(password, against: hash), "\(hash)")
            #expect(!BCryptHash.verify(password + [0x21], against: hash), "\(hash)")
            #expect(BCryptHash.cost(of: hash) == 5)
        }
    }

    @Test("only the first 72 bytes count, as in every bcrypt")
    func truncation() {
        let hash = "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        let long = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored"
        #expect(BCryptHash.verify(Array(long.utf8), against: hash))
        #expect(BCryptHash.verify(Array(long.utf8.prefix(72)), against: hash))
        #expect(!BCryptHash.verify(Array(long.utf8.prefix(71)), against: hash))
    }

    @Test("a password with a NUL byte never matches (crypt would cut it short)")
    func nulByte() {
        #expect(!BCryptHash.verify(Array("U*U".utf8) + [0, 0x41], against: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
    }

    @Test("anything but a bcrypt hash is refused without calling crypt")
    func malformed() {
        let refused = [
            "", "$2a$05$", "$2x$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e",
            "$2a$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$32$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW!",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe=",
            "$6$saltsalt$abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcd",
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
            "*0", "U*U",
        ]
        for hash in refused {
            #expect(BCryptHash.cost(of: hash) == nil, "\(hash)")
            #expect(!BCryptHash.verify(Array("U*U".utf8), against: hash), "\(hash)")
        }
    }
}
