import Foundation
import HearthCommandLine
import HearthCore

extension Settings {
    /// How passwords are hashed and which ones are accepted (docs/CONFIGURATION.md, "Passwords"): the
    /// config file's `"passwords"` object and the `HEARTH_ARGON2_*` and `HEARTH_PASSWORD_HASHING_*` variables.
    struct Passwords {
        var argon2 = Argon2Parameters.owaspMinimum
        /// Hashes at once; nil: one per active processor.
        var hashingConcurrency: Int?
        /// Callers that may wait for a hashing slot; nil: as many as the concurrency (within the HTTP threads' half).
        var hashingQueue: Int?
        var policy = PasswordPolicy.firebaseDefault
        /// Whether the file gives `passwords.policy` (the config API then cannot change the project's).
        var policyDeclared = false

        static let concurrencyRange = 1...256
        static let queueRange = 0...10_000

        /// The hasher with the gate these settings describe. For a server (`httpThreads` given), password work may
        /// hold at most half its HTTP threads, so that refreshes, lookups and key documents always find one: the
        /// defaults (one hash per processor, as many waiting) are cut to fit, and configured values that do not
        /// fit are refused.
        func hasher(importedVerifiers: [any StoredPasswordHashVerifier] = [], httpThreads: Int? = nil) throws
            -> Argon2PasswordHasher
        {
            try Argon2PasswordHasher(
                parameters: argon2, gate: try gate(httpThreads: httpThreads),
                importedVerifiers: importedVerifiers)
        }

        private func gate(httpThreads: Int?) throws -> HashingGate {
            guard let httpThreads else { return HashingGate(concurrency: hashingConcurrency, queueLimit: hashingQueue) }
            let budget = max(1, httpThreads / 2)
            let concurrency = hashingConcurrency ?? min(ProcessInfo.processInfo.activeProcessorCount, budget)
            let queue = hashingQueue ?? max(0, min(concurrency, budget - concurrency))
            guard concurrency + queue <= budget else {
                throw UsageError(
                    "passwords: hashingConcurrency + hashingQueue (\(concurrency + queue)) must be at most half the HTTP threads (\(budget) of \(httpThreads)), so that password hashing cannot hold the threads token refreshes need")
            }
            return HashingGate(concurrency: concurrency, queueLimit: queue)
        }
    }

    /// The config file's `"passwords"` object.
    struct PasswordsFile: Decodable {
        struct Argon2: Decodable {
            var memoryKiB: Int?
            var iterations: Int?
            var parallelism: Int?
        }
        struct Policy: Decodable {
            var enforcementState: String?
            var minLength: Int?
            var maxLength: Int?
            var requireLowercase: Bool?
            var requireUppercase: Bool?
            var requireNumeric: Bool?
            var requireNonAlphanumeric: Bool?
        }
        var argon2: Argon2?
        var hashingConcurrency: Int?
        var hashingQueue: Int?
        var policy: Policy?

        /// Known keys of `passwords` and of its nested objects.
        static let keys: [String: Set<String>] = [
            "passwords": ["argon2", "hashingConcurrency", "hashingQueue", "policy"],
            "passwords.argon2": ["memoryKiB", "iterations", "parallelism"],
            "passwords.policy": [
                "enforcementState", "minLength", "maxLength", "requireLowercase", "requireUppercase", "requireNumeric",
                "requireNonAlphanumeric",
            ],
        ]
    }
}

extension Settings.Passwords {
    /// Applies the config file's `"passwords"` object (`fileObject` is its raw JSON, for unknown keys).
    mutating func apply(file: Settings.PasswordsFile, fileObject: Any?, path: String) throws {
        try Self.refuseUnknownKeys(fileObject, path: path)
        if let argon2 = file.argon2 {
            try set(argon2.memoryKiB, iterations: argon2.iterations, parallelism: argon2.parallelism, source: "config passwords.argon2")
        }
        if let count = file.hashingConcurrency {
            hashingConcurrency = try Self.checked(count, in: Self.concurrencyRange, source: "config passwords.hashingConcurrency")
        }
        if let count = file.hashingQueue {
            hashingQueue = try Self.checked(count, in: Self.queueRange, source: "config passwords.hashingQueue")
        }
        if let policy = file.policy {
            self.policy = try Self.policy(policy)
            policyDeclared = true
        }
    }

    /// Applies the `HEARTH_ARGON2_*` and `HEARTH_PASSWORD_HASHING_CONCURRENCY` variables that are set.
    mutating func apply(environment: [String: String]) throws {
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw UsageError("\(name) must be a whole number, not '\(text)'") }
            return value
        }
        try set(try number("HEARTH_ARGON2_MEMORY_KIB"), source: "HEARTH_ARGON2_MEMORY_KIB")
        try set(iterations: try number("HEARTH_ARGON2_ITERATIONS"), source: "HEARTH_ARGON2_ITERATIONS")
        try set(parallelism: try number("HEARTH_ARGON2_PARALLELISM"), source: "HEARTH_ARGON2_PARALLELISM")
        if let count = try number("HEARTH_PASSWORD_HASHING_CONCURRENCY") {
            hashingConcurrency = try Self.checked(count, in: Self.concurrencyRange, source: "HEARTH_PASSWORD_HASHING_CONCURRENCY")
        }
    }

    /// Replaces the Argon2 values given, keeping the others.
    private mutating func set(
        _ memoryKiB: Int? = nil, iterations: Int? = nil, parallelism: Int? = nil, source: String
    ) throws {
        guard memoryKiB != nil || iterations != nil || parallelism != nil else { return }
        do {
            argon2 = try Argon2Parameters(
                memoryKiB: memoryKiB ?? argon2.memoryKiB, iterations: iterations ?? argon2.iterations,
                parallelism: parallelism ?? argon2.parallelism)
        } catch {
            throw UsageError("\(source): \(error.message)")
        }
    }

    private static func checked(_ value: Int, in range: ClosedRange<Int>, source: String) throws -> Int {
        guard range.contains(value) else {
            throw UsageError("\(source) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    private static func policy(_ file: Settings.PasswordsFile.Policy) throws -> PasswordPolicy {
        let state = file.enforcementState ?? PasswordPolicy.EnforcementState.enforce.rawValue
        guard let enforcementState = PasswordPolicy.EnforcementState(rawValue: state) else {
            throw UsageError("config passwords.policy.enforcementState must be ENFORCE or OFF, not '\(state)'")
        }
        do {
            return try PasswordPolicy(
                enforcementState: enforcementState, minLength: file.minLength ?? PasswordPolicy.minimumLength,
                maxLength: file.maxLength ?? PasswordPolicy.maximumLength, requireLowercase: file.requireLowercase ?? false,
                requireUppercase: file.requireUppercase ?? false, requireNumeric: file.requireNumeric ?? false,
                requireNonAlphanumeric: file.requireNonAlphanumeric ?? false)
        } catch {
            throw UsageError("config \(error.message)")
        }
    }

    /// Refuses keys of `passwords`, `passwords.argon2` and `passwords.policy` that are not known.
    private static func refuseUnknownKeys(_ object: Any?, path: String) throws {
        let sections: [(name: String, fields: Any?)] = [
            ("passwords", object), ("passwords.argon2", (object as? [String: Any])?["argon2"]),
            ("passwords.policy", (object as? [String: Any])?["policy"]),
        ]
        for section in sections {
            let given = (section.fields as? [String: Any])?.keys.sorted() ?? []
            let known = Settings.PasswordsFile.keys[section.name] ?? []
            if let unknown = given.first(where: { !known.contains($0) }) {
                throw UsageError("config file \(path): unknown setting '\(section.name).\(unknown)'")
            }
        }
    }
}
