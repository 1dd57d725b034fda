import Argon2

/// The Argon2id cost of the password hashes Hearth writes. The default is OWASP's minimum for Argon2id
/// (19 MiB, 2 passes, 1 lane); raise `memoryKiB` first when the machine allows.
public struct Argon2Parameters: Sendable, Equatable, CustomStringConvertible {
    /// 1 MiB to 4 GiB. A stored hash that asks for more is treated as not matching rather than run.
    public static let memoryKiBRange = 1_024...4_194_304
    public static let iterationsRange = 1...64
    public static let parallelismRange = 1...64

    public let memoryKiB: Int
    public let iterations: Int
    public let parallelism: Int

    /// Why parameters were refused; `message` names the setting and its range.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public init(memoryKiB: Int = 19_456, iterations: Int = 2, parallelism: Int = 1) throws(Invalid) {
        for (value, name, range) in [
            (memoryKiB, "memoryKiB", Self.memoryKiBRange), (iterations, "iterations", Self.iterationsRange),
            (parallelism, "parallelism", Self.parallelismRange),
        ] where !range.contains(value) {
            throw Invalid(message: "Argon2 \(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// OWASP's minimum: `m=19456,t=2,p=1`.
    public static let owaspMinimum = try! Argon2Parameters()

    /// The parameters of a stored hash, if they are within the ranges Hearth accepts.
    init?(stored cost: Argon2idCost) {
        guard let parameters = try? Argon2Parameters(
            memoryKiB: Int(cost.memoryKiB), iterations: Int(cost.iterations), parallelism: Int(cost.parallelism))
        else { return nil }
        self = parameters
    }

    var cost: Argon2idCost {
        Argon2idCost(memoryKiB: UInt32(memoryKiB), iterations: UInt32(iterations), parallelism: UInt32(parallelism))
    }

    public var description: String { "m=\(memoryKiB),t=\(iterations),p=\(parallelism)" }
}
