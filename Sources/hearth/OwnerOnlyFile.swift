import Foundation

/// The contents of a file holding a secret (an encryption key, the SMTP password, the email webhook's secret),
/// refused if it is not a regular file or anyone but its owner may read or write it. `what` names the file in
/// messages (`encryption key file`).
func readOwnerOnlyFile(_ path: String, what: String) throws -> String {
    var info = stat()
    guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path) else {
        throw StartupError("cannot read \(what) \(path)")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        throw StartupError("\(what) \(path) is not a regular file")
    }
    guard info.st_mode & 0o077 == 0 else {
        throw StartupError(
            "\(what) \(path) is accessible to other users (mode \(FileMode(info.st_mode))); "
                + "make it owner-only: chmod 600 \(path)")
    }
    return String(decoding: data, as: UTF8.self)
}
