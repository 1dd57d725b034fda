import HearthCore
import HearthProtocol
import Testing

/// An imported family for the tests: `$hearth-import-test$<password>`; anything after a second `$` is malformed.
struct PlainTestImportVerifier: StoredPasswordHashVerifier {
    struct Malformed: Error {}
    func recognizes(_ stored: String) -> Bool { stored.hasPrefix("$hearth-import-test$") }
    func verify(_ password: String, against stored: String) throws -> Bool {
        let value = stored.dropFirst("$hearth-import-test$".count)
        guard !value.contains("$") else { throw Malformed() }
        return value == password
    }
}

@Suite("Argon2id password hasher")
struct Argon2PasswordHasherTests {
    static let fast = try! Argon2Parameters(memoryKiB: 1_024, iterations: 1, parallelism: 1)
    static let slower = try! Argon2Parameters(memoryKiB: 1_024, iterations: 2, parallelism: 1)
    static let busy = WireError(.tooManyAttemptsTryLater, "Too many password checks at once; try again later.")

    private func hasher(
        _ parameters: Argon2Parameters = fast, gate: HashingGate = HashingGate(concurrency: 2, queueLimit: 4)
    ) throws -> Argon2PasswordHasher {
        try Argon2PasswordHasher(parameters: parameters, gate: gate, importedVerifiers: [PlainTestImportVerifier()])
    }

    @Test("a new password becomes an Argon2id PHC string with the configured parameters, and verifies")
    func hashAndVerify() throws {
        let hasher = try hasher()
        let stored = try hasher.hashNewPassword("correct horse")
        #expect(stored.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(!stored.contains("correct horse"))
        // 16 random bytes of salt and 32 of hash: 22 and 43 base64 characters.
        let fields = stored.split(separator: "$")
        #expect(fields.count == 5 && fields[3].count == 22 && fields[4].count == 43)
        #expect(try hasher.verify("correct horse", against: stored) == .match(rehash: nil))
        #expect(try hasher.verify("correct horsE", against: stored) == .mismatch)
        #expect(try hasher.hashNewPassword("correct horse") != stored)
    }

    @Test("the policy is checked before any hashing, even when the gate is full")
    func policyFirst() throws {
        let gate = HashingGate(concurrency: 1, queueLimit: 0, maximumWait: 0)
        let strict = try PasswordPolicy(enforcementState: .enforce, minLength: 8, requireNumeric: true)
        let hasher = try hasher(gate: gate)
        let holder = PermitHolder(gate)
        defer { holder.release() }
        #expect(throws: WireError(.weakPassword, "Password should be at least 6 characters")) {
            try hasher.hashNewPassword("abc", under: strict)
        }
        #expect(throws: WireError(
            .passwordDoesNotMeetRequirements,
            "Missing password requirements: [Password must contain at least 8 characters, Password must contain a numeric character]"
        )) { try hasher.hashNewPassword("abcdefg", under: strict) }
        #expect(throws: Self.busy) { try hasher.hashNewPassword("abcdefg1", under: strict) }
    }

    @Test("a right password against other Argon2id parameters comes back with a hash in the configured ones")
    func rehashOnParameterChange() throws {
        let old = try hasher(Self.fast).hashNewPassword("correct horse")
        let upgraded = try hasher(Self.slower)
        guard case .match(let rehash?) = try upgraded.verify("correct horse", against: old) else {
            Issue.record("expected a match with a rehash")
            return
        }
        #expect(rehash.hasPrefix("$argon2id$v=19$m=1024,t=2,p=1$"))
        #expect(try upgraded.verify("correct horse", against: rehash) == .match(rehash: nil))
        #expect(try upgraded.verify("wrong horse", against: old) == .mismatch)
    }

    @Test("libargon2's reference hash (m=65536,t=2,p=1) verifies and is rehashed to the configured parameters")
    func foreignArgon2id() throws {
        let reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        let check = try hasher().verify("password", against: reference)
        guard case .match(let rehash?) = check else {
            Issue.record("expected a match with a rehash, got \(check)")
            return
        }
        #expect(rehash.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
    }

    @Test("imported hashes go to the verifier that recognizes them; a match is rehashed to Argon2id")
    func importedHashes() throws {
        let hasher = try hasher()
        guard case .match(let rehash?) = try hasher.verify("s3cret!", against: "$hearth-import-test$s3cret!") else {
            Issue.record("expected a match with a rehash")
            return
        }
        #expect(rehash.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(try hasher.verify("s3cret!", against: rehash) == .match(rehash: nil))
        #expect(try hasher.verify("s3cret?", against: "$hearth-import-test$s3cret!") == .mismatch)
        #expect(try hasher.verify("a", against: "$hearth-import-test$a$b") == .mismatch)
        #expect(try hasher.verify("s3cret!", against: "$hearth-import-other$s3cret!") == .mismatch)
        let withoutVerifiers = try Argon2PasswordHasher(parameters: Self.fast, gate: HashingGate())
        #expect(try withoutVerifiers.verify("s3cret!", against: "$hearth-import-test$s3cret!") == .mismatch)
    }

    static let unusable = [
        "", "correct horse", "$argon2id$", "$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$",
        "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
        // Below and above the accepted ranges: never run (4 GiB + 1 KiB would cost what it asks).
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=4194305,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=65536,t=4294967295,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=65536,t=2,p=1000$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
    ]

    @Test("unknown, malformed and out-of-range stored strings never match and never throw", arguments: unusable)
    func unusableStoredHashes(stored: String) throws {
        #expect(try hasher().verify("password", against: stored) == .mismatch)
    }

    @Test("verifyNothing spends one verification; every hashing path is refused when the gate is full")
    func gateCoversEveryPath() throws {
        let gate = HashingGate(concurrency: 1, queueLimit: 0, maximumWait: 0)
        let hasher = try hasher(gate: gate)
        let stored = try hasher.hashNewPassword("correct horse")
        try hasher.verifyNothing("correct horse")

        let holder = PermitHolder(gate)
        defer { holder.release() }
        #expect(throws: Self.busy) { try hasher.hashNewPassword("correct horse") }
        #expect(throws: Self.busy) { try hasher.verify("correct horse", against: stored) }
        #expect(throws: Self.busy) { try hasher.verify("s3cret!", against: "$hearth-import-test$s3cret!") }
        #expect(throws: Self.busy) { try hasher.verifyNothing("correct horse") }
    }

    @Test("parameters: OWASP's minimum by default, ranges enforced with a message naming the setting")
    func parameters() {
        #expect(Argon2Parameters.owaspMinimum.description == "m=19456,t=2,p=1")
        #expect(throws: InvalidPasswordSetting.self) { try Argon2Parameters(memoryKiB: 512) }
        do {
            _ = try Argon2Parameters(memoryKiB: 512)
        } catch {
            #expect(error.message == "Argon2 memoryKiB must be between 1024 and 4194304, not 512")
        }
        #expect(throws: InvalidPasswordSetting.self) { try Argon2Parameters(iterations: 0) }
        #expect(throws: InvalidPasswordSetting.self) { try Argon2Parameters(parallelism: 65) }
    }
}
