import Argon2
import HearthCrypto
import HearthProtocol

/// Hearth's ``PasswordHashing``: new passwords become Argon2id PHC strings with the configured ``Argon2Parameters``; every hash and verification runs under the
/// ``HashingGate``.
///
/// Verification accepts Hearth's own Argon2id strings (any parameters within ``Argon2Parameters``' ranges)
/// and whatever the injected ``StoredPasswordHashVerifier``s recognize (imported hashes); a right password
/// against an imported hash, or against Argon2id with other parameters, comes back with the hash to store
/// instead. Anything else — unknown, malformed or too costly — never matches.
public final class Argon2PasswordHasher: PasswordHashing {
    public let parameters: Argon2Parameters
    public let gate: HashingGate
    private let importedVerifiers: [any StoredPasswordHashVerifier]
    /// A hash of a random password with `parameters`, that ``verifyNothing(_:)`` checks against.
    private let dummyHash: String

    /// Bytes of random salt in a new hash.
    static let saltLength = 16
    static let unavailable = WireError(.unavailable, "Password hashing is unavailable right now; try again later.")

    /// - Throws: `UNAVAILABLE` when libargon2 cannot hash with `parameters` (not enough memory).
    public init(
        parameters: Argon2Parameters = .owaspMinimum, gate: HashingGate = HashingGate(), importedVerifiers: [any StoredPasswordHashVerifier] = []
    ) throws {
        self.parameters = parameters
        self.gate = gate
        self.importedVerifiers = importedVerifiers
        dummyHash = try Self.hash(SecureRandom.token(), parameters: parameters)
    }

    public func hashNewPassword(_ password: String) throws -> String {
        try gate.run { try Self.hash(password, parameters: parameters) }
    }

    public func verify(_ password: String, against stored: String) throws -> PasswordCheck {
        if stored.hasPrefix("$argon2id$") { return try verifyArgon2id(password, against: stored) }
        guard let verifier = importedVerifiers.first(where: { $0.recognizes(stored) }) else { return .mismatch }
        return try gate.run {
            guard (try? verifier.verify(password, against: stored)) == true else { return .mismatch }
            return .match(rehash: try Self.hash(password, parameters: parameters))
        }
    }

    public var isBusy: Bool { gate.isFull }

    public func verifyNothing(_ password: String) throws {
        try gate.run { _ = try? Argon2id.verify(password, against: dummyHash) }
    }

    /// Hearth's own hashes; a string out of the accepted ranges is not run (it would cost what it asks).
    private func verifyArgon2id(_ password: String, against stored: String) throws -> PasswordCheck {
        guard let encoded = try? Argon2idEncodedHash(parsing: stored),
              let storedParameters = Argon2Parameters(stored: encoded.cost)
        else { return .mismatch }
        let current = storedParameters == parameters && encoded.salt.count == Self.saltLength
            && encoded.hash.count == Argon2id.hashLength
        return try gate.run {
            guard try Self.matches(password, stored) else { return .mismatch }
            return .match(rehash: current ? nil : try Self.hash(password, parameters: parameters))
        }
    }

    /// libargon2's verdict; a string it cannot read counts as a mismatch, running out of memory as unavailable.
    private static func matches(_ password: String, _ stored: String) throws(WireError) -> Bool {
        do throws(Argon2Error) {
            return try Argon2id.verify(password, against: stored)
        } catch .malformedHash, .parametersOutOfRange {
            return false
        } catch {
            throw unavailable
        }
    }

    private static func hash(_ password: String, parameters: Argon2Parameters) throws(WireError) -> String {
        do {
            return try Argon2id.hash(password, salt: SecureRandom.bytes(count: saltLength), cost: parameters.cost)
        } catch {
            throw unavailable
        }
    }
}
