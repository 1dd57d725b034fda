import Argon2
import Testing

@Suite("Argon2id through libargon2")
struct Argon2idTests {
    /// libargon2's own reference vectors (src/test.c, Argon2id, version 19): "password" with salt "somesalt".
    static let referenceVectors: [(cost: Argon2idCost, password: String, encoded: String)] = [
        (Argon2idCost(memoryKiB: 256, iterations: 2, parallelism: 1), "password",
         "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4"),
        (Argon2idCost(memoryKiB: 256, iterations: 2, parallelism: 2), "password",
         "$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc"),
        (Argon2idCost(memoryKiB: 65_536, iterations: 2, parallelism: 1), "password",
         "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"),
        (Argon2idCost(memoryKiB: 65_536, iterations: 2, parallelism: 1), "differentpassword",
         "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$C4TWUs9rDEvq7w3+J4umqA32aWKB1+DSiRuBfYxFj94"),
    ]
    static let small = Argon2idCost(memoryKiB: 1024, iterations: 1, parallelism: 1)

    @Test("hashes libargon2's reference vectors to the exact PHC strings, and verifies them")
    func referenceVectors() throws {
        for vector in Self.referenceVectors {
            let encoded = try Argon2id.hash(vector.password, salt: Array("somesalt".utf8), cost: vector.cost)
            #expect(encoded == vector.encoded)
            #expect(try Argon2id.verify(vector.password, against: vector.encoded))
            #expect(try !Argon2id.verify(vector.password + "x", against: vector.encoded))
        }
    }

    @Test("a new hash has a 16-byte random salt, a 32-byte hash and the requested cost; salts differ")
    func newHashes() throws {
        let first = try Argon2id.hash("correct horse", cost: Self.small)
        let second = try Argon2id.hash("correct horse", cost: Self.small)
        #expect(first != second)
        let parts = try Argon2idEncodedHash(parsing: first)
        #expect(parts.cost == Self.small)
        #expect(parts.version == 19)
        #expect(parts.salt.count == 16)
        #expect(parts.hash.count == 32)
        #expect(first.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(try Argon2id.verify("correct horse", against: first))
        #expect(try !Argon2id.verify("Correct horse", against: first))
    }

    @Test("passwords are bytes: empty, non-ASCII and embedded NUL passwords hash and verify exactly")
    func passwordBytes() throws {
        for password in ["", "pässwörd 🔑", "a\u{0}b"] {
            let encoded = try Argon2id.hash(password, cost: Self.small)
            #expect(try Argon2id.verify(password, against: encoded))
        }
        let withNUL = try Argon2id.hash("a\u{0}b", cost: Self.small)
        #expect(try !Argon2id.verify("a", against: withNUL))
        #expect(try !Argon2id.verify("a\u{0}c", against: withNUL))
    }

    @Test("reads the parameters back out of a PHC string")
    func parsing() throws {
        let parts = try Argon2idEncodedHash(parsing: Self.referenceVectors[1].encoded)
        #expect(parts.cost == Argon2idCost(memoryKiB: 256, iterations: 2, parallelism: 2))
        #expect(parts.salt == Array("somesalt".utf8))
        #expect(parts.hash.count == 32)
    }

    static let malformed = [
        "", "$", "argon2id", "$argon2id$", "$argon2i$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2d$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=16$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=2$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=+256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=0256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=99999999999,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=-2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ=$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR_uIPnA4rEsF5h7TKyQwu9U1bMCHGi-4",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4$",
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65\u{0}EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$hearth-import-firebase-scrypt$abc",
    ]

    @Test("malformed PHC strings: the parser refuses them; verify never crashes and never says they match",
          arguments: malformed)
    func malformedStrings(encoded: String) {
        #expect(throws: Argon2Error.malformedHash) { try Argon2idEncodedHash(parsing: encoded) }
        #expect((try? Argon2id.verify("password", against: encoded)) != true)
    }

    @Test("costs libargon2 refuses are errors, not crashes")
    func refusedCosts() {
        for cost in [
            Argon2idCost(memoryKiB: 4, iterations: 1, parallelism: 1),
            Argon2idCost(memoryKiB: 1024, iterations: 0, parallelism: 1),
            Argon2idCost(memoryKiB: 1024, iterations: 1, parallelism: 0),
        ] {
            #expect(throws: Argon2Error.parametersOutOfRange) { try Argon2id.hash("password", cost: cost) }
        }
        #expect(throws: Argon2Error.parametersOutOfRange) {
            try Argon2id.hash("password", salt: [1, 2, 3], cost: Self.small)
        }
        #expect(throws: Argon2Error.parametersOutOfRange) {
            try Argon2id.verify("password", against: "$argon2id$v=19$m=4,t=1,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4")
        }
    }

    @Test("error descriptions never contain the password")
    func descriptions() {
        let errors: [Argon2Error] = [.malformedHash, .parametersOutOfRange, .outOfMemory, .threadFailure, .library(code: -30)]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("password1"))
        }
    }
}
