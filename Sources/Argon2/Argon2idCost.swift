/// The cost of one Argon2id hash as libargon2 takes it (RFC 9106 §3.1): memory in KiB (`m`), passes over
/// memory (`t`) and lanes, each filled by its own thread (`p`).
public struct Argon2idCost: Sendable, Hashable {
    public var memoryKiB: UInt32
    public var iterations: UInt32
    public var parallelism: UInt32

    public init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }
}
