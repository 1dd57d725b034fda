internal import COpenSSL

/// A failure reported by OpenSSL's libcrypto.
///
/// It carries the name of the operation that failed and every entry that was on OpenSSL's per-thread error
/// queue at the time, formatted with `ERR_error_string_n` (for example
/// `error:1E08010C:DECODER routines::unsupported`). The queue is cleared before each wrapped call and drained when
/// the error is built, so a stale entry from an earlier call is never blamed on a later one.
///
/// The description never contains key material or the data being processed.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/ERR_get_error.html>
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// What HearthCrypto was doing, e.g. `"EVP_PKEY_fromdata"`.
    public let operation: String
    /// The drained error-queue entries, oldest first. May be empty when OpenSSL reported failure without detail.
    public let entries: [String]

    public var description: String {
        if entries.isEmpty {
            return "OpenSSL: \(operation) failed"
        }
        return "OpenSSL: \(operation) failed: \(entries.joined(separator: "; "))"
    }

    /// Builds an error for `operation`, draining (and so clearing) the calling thread's OpenSSL error queue.
    ///
    /// This is the one place where OpenSSL's error queue becomes a Swift error.
    static func drainingQueue(operation: String) -> OpenSSLError {
        var entries: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            // 256 bytes is the size OpenSSL's own ERR_error_string uses.
            let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> String in
                ERR_error_string_n(code, buffer.baseAddress, buffer.count)
                return String(cString: buffer.baseAddress!)
            }
            entries.append(text)
        }
        return OpenSSLError(operation: operation, entries: entries)
    }

    /// Empties the calling thread's OpenSSL error queue. Call before a wrapped operation whose failure is reported
    /// with ``drainingQueue(operation:)``.
    static func clearQueue() {
        ERR_clear_error()
    }
}
