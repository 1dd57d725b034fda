/// The request-level hash parameters of `accounts:batchCreate` (firebase-admin's `UserImportHash.to_dict()`,
/// `firebase auth:import`'s flags), as sent: HearthCore checks them against the algorithm. Byte values are base64
/// text like the rows' `passwordHash`.
public struct PasswordHashOptions: Sendable, Equatable {
    public static let hashOrders = ["UNSPECIFIED_ORDER", "SALT_AND_PASSWORD", "PASSWORD_AND_SALT"]

    public var hashAlgorithm: String?
    public var signerKey: String?
    public var saltSeparator: String?
    public var rounds: Int64?
    /// Firebase scrypt's memory cost (log2 of N); older admin SDKs send standard scrypt's N here too.
    public var memoryCost: Int64?
    /// Standard scrypt's N.
    public var cpuMemCost: Int64?
    public var parallelization: Int64?
    public var blockSize: Int64?
    public var dkLen: Int64?
    /// `SALT_AND_PASSWORD`, `PASSWORD_AND_SALT` or `UNSPECIFIED_ORDER` (the algorithm's default).
    public var passwordHashOrder: String?

    public init(
        hashAlgorithm: String? = nil, signerKey: String? = nil, saltSeparator: String? = nil, rounds: Int64? = nil,
        memoryCost: Int64? = nil, cpuMemCost: Int64? = nil, parallelization: Int64? = nil, blockSize: Int64? = nil,
        dkLen: Int64? = nil, passwordHashOrder: String? = nil
    ) {
        self.hashAlgorithm = hashAlgorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.cpuMemCost = cpuMemCost
        self.parallelization = parallelization
        self.blockSize = blockSize
        self.dkLen = dkLen
        self.passwordHashOrder = passwordHashOrder
    }

    public init(fields: RequestFields) throws(WireError) {
        hashAlgorithm = try fields.string("hashAlgorithm")
        signerKey = try fields.string("signerKey")
        saltSeparator = try fields.string("saltSeparator")
        rounds = try fields.int64("rounds")
        memoryCost = try fields.int64("memoryCost")
        cpuMemCost = try fields.int64("cpuMemCost")
        parallelization = try fields.int64("parallelization")
        blockSize = try fields.int64("blockSize")
        dkLen = try fields.int64("dkLen")
        passwordHashOrder = try fields.enumName("passwordHashOrder", names: Self.hashOrders)
    }
}
