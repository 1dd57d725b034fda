internal import Foundation

/// The parts of an Argon2id PHC string, `$argon2id$v=19$m=<KiB>,t=<iterations>,p=<lanes>$<salt>$<hash>`
/// (salt and hash in base64 without padding), read without running Argon2.
public struct Argon2idEncodedHash: Sendable, Equatable {
    /// The Argon2 version; libargon2 writes 19 (0x13).
    public let version: UInt32
    public let cost: Argon2idCost
    public let salt: [UInt8]
    public let hash: [UInt8]

    /// Reads `encoded`; throws ``Argon2Error/malformedHash`` for anything else, including other Argon2 types,
    /// versions other than 19, numbers with signs or leading zeros and salts or hashes too short for libargon2.
    public init(parsing encoded: String) throws(Argon2Error) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id",
              let version = Self.number(fields[2], named: "v"), version == 0x13
        else { throw .malformedHash }
        let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard costs.count == 3,
              let memory = Self.number(costs[0], named: "m"),
              let iterations = Self.number(costs[1], named: "t"),
              let parallelism = Self.number(costs[2], named: "p"),
              let salt = Self.base64(fields[4]), salt.count >= 8,
              let hash = Self.base64(fields[5]), hash.count >= 4
        else { throw .malformedHash }
        self.version = version
        self.cost = Argon2idCost(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
        self.salt = salt
        self.hash = hash
    }

    /// The value of `<name>=<decimal>`: digits only, no leading zero, fits in 32 bits.
    private static func number(_ field: Substring, named name: String) -> UInt32? {
        guard field.hasPrefix(name + "=") else { return nil }
        let digits = field.dropFirst(name.count + 1)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              digits == "0" || !digits.hasPrefix("0")
        else { return nil }
        return UInt32(digits)
    }

    /// Standard base64 without padding, as libargon2 writes it.
    private static func base64(_ field: Substring) -> [UInt8]? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        guard !field.isEmpty, field.count % 4 != 1, field.allSatisfy(alphabet.contains) else { return nil }
        let padded = String(field) + String(repeating: "=", count: (4 - field.count % 4) % 4)
        return Data(base64Encoded: padded).map { [UInt8]($0) }
    }
}
