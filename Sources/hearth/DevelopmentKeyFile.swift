import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `--dev` private key kept in the data directory (the dev Apple's client key, the dev SAML IdP's key): read when
/// the file exists, else made and written owner-only (0600) from the moment it exists, whatever the umask and
/// whatever the directory's mode.
enum DevelopmentKeyFile {
    /// The key in `path` (parsed by `parse`), or a new one from `make`, written there. A file that does not parse is
    /// a startup error telling the operator to delete it (`what` names the key).
    static func readOrMake<Key>(
        _ path: String, what: String, parse: (String) throws -> Key, make: () throws -> (Key, pem: String)
    ) throws -> Key {
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            do {
                return try parse(pem)
            } catch {
                throw StartupError("\(path) is not \(what): delete it to have a new one made")
            }
        }
        let (key, pem) = try make()
        guard write(Array(pem.utf8), to: path) else { throw StartupError("cannot write \(what) \(path)") }
        return key
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `bytes` to it.
    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // umask can only remove bits; set 0600 exactly in case it removed the owner's.
        guard fchmod(descriptor, mode_t(0o600)) == 0 else { return false }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
