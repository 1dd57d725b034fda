internal import COpenSSL

/// Comparison of secrets that takes the same time wherever the first difference is.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/CRYPTO_memcmp.html>
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared with `CRYPTO_memcmp`.
    ///
    /// Inputs of different lengths are unequal; the comparison returns early in that case, so the *length* of a
    /// secret may leak through timing but its content does not. Compare fixed-length values (such as hashes or
    /// MACs) to avoid even that.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
