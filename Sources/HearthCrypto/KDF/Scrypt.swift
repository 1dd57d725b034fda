internal import COpenSSL

/// scrypt (RFC 7914), computed by OpenSSL's `EVP_PBE_scrypt`.
///
/// scrypt needs about `128 · n · r` bytes of memory and `n · r · p` units of work; ``memoryLimit`` bounds what one
/// derivation may allocate, so callers bound their inputs before deriving.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/EVP_PBE_scrypt.html>
public enum Scrypt {
    /// The most memory one derivation may use: 256 MiB.
    public static let memoryLimit = 256 << 20

    /// The memory a derivation with these parameters needs, in bytes, as OpenSSL counts it (`128 · r · (n + p + 2)`),
    /// or `nil` when it overflows.
    public static func memoryNeeded(n: Int, r: Int, p: Int) -> Int? {
        guard p < Int.max - 2 else { return nil }
        let (big, overflowBig) = n.multipliedReportingOverflow(by: r)
        let (blocks, overflowBlocks) = r.multipliedReportingOverflow(by: p + 2)
        guard !overflowBig, !overflowBlocks else { return nil }
        let (sum, overflowSum) = big.addingReportingOverflow(blocks)
        let (bytes, overflowBytes) = sum.multipliedReportingOverflow(by: 128)
        return overflowSum || overflowBytes ? nil : bytes
    }

    /// Derives `byteCount` bytes from `password` and `salt` with cost `n` (a power of two above 1), block size `r`
    /// and parallelization `p`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for parameters scrypt refuses, an empty output, or a derivation
    ///   that would need more than ``memoryLimit``; ``OpenSSLError`` when OpenSSL fails.
    public static func derive(password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, byteCount: Int) throws -> [UInt8] {
        guard n > 1, n & (n - 1) == 0, r >= 1, p >= 1, byteCount >= 1 else {
            throw CryptoError(.invalidArgument, reason: "scrypt needs n a power of two above 1, r ≥ 1, p ≥ 1 and an output")
        }
        guard let memory = memoryNeeded(n: n, r: r, p: p), memory <= memoryLimit else {
            throw CryptoError(.invalidArgument, reason: "scrypt parameters need more than \(memoryLimit >> 20) MiB")
        }
        return try derivePasswordKey(password: password, salt: salt, byteCount: byteCount, operation: "EVP_PBE_scrypt") {
            EVP_PBE_scrypt($0, password.count, $1, salt.count, UInt64(n), UInt64(r), UInt64(p), UInt64(memory), $2, byteCount)
        }
    }
}
