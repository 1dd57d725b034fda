import Foundation

/// Keeps the data directory and the database files in it to their owner (docs/CONFIGURATION.md, "Secrets at
/// rest"), since the database holds private signing keys and TOTP secrets:
///
/// - a missing directory is created 0700;
/// - a directory that others may write to is refused (files in it may not be Hearth's);
/// - a directory that others may read or enter, and a database file (`hearth.sqlite`, `-wal`, `-shm`,
///   `-journal`) that others may read or write, loses those permission bits when this user owns it (which is
///   logged), and is refused when another user owns it.
enum DataDirectory {
    /// Applies the rules above to `directory` and the database at `databasePath`.
    /// - Parameters:
    ///   - restrictsDirectory: whether an existing directory that others may read or enter is made owner-only; false
    ///     for the directory of a database named by `--database` (`/var/lib`, the current folder), which may hold
    ///     other things: only the rules on creating it and on others writing to it apply there.
    ///   - log: told of every mode it changed, as an `event=` line.
    static func prepare(_ directory: String, databasePath: String, restrictsDirectory: Bool = true, log: (String) -> Void) throws {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StartupError("cannot create data directory \(directory): permission denied or read-only file system")
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw StartupError("data directory \(directory) is not a directory") }
        guard info.st_mode & 0o022 == 0 else {
            throw StartupError(
                "data directory \(directory) is writable by other users (mode \(FileMode(info.st_mode))), so files in "
                    + "it may not be Hearth's: check its contents, then make it owner-only (chmod 700 \(directory))")
        }
        if restrictsDirectory { try restrictToOwner(directory, info, what: "data directory", command: "chmod 700", log: log) }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = databasePath + suffix
            guard stat(path, &info) == 0 else { continue }
            try restrictToOwner(path, info, what: "database file", command: "chmod 600", log: log)
        }
    }

    /// Takes the group and other permission bits off `path` when it has any: when this user owns it, else refuses.
    private static func restrictToOwner(_ path: String, _ info: stat, what: String, command: String, log: (String) -> Void) throws {
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return }
        let owner = geteuid()
        guard info.st_uid == owner else {
            throw StartupError(
                "\(what) \(path) is accessible to other users (mode \(FileMode(mode))) and belongs to uid \(info.st_uid), "
                    + "not to this user (uid \(owner)): make it owner-only (\(command) \(path)) or run hearth as its owner")
        }
        let restricted = mode & ~0o077
        guard chmod(path, restricted) == 0 else {
            throw StartupError("cannot make \(what) \(path) owner-only (mode \(FileMode(mode))): \(String(cString: strerror(errno)))")
        }
        log("event=permissions_tightened path=\(path) was=\(FileMode(mode)) now=\(FileMode(restricted))")
    }
}

/// A permission mode as `ls` and `chmod` write it in octal: `0755`.
struct FileMode: CustomStringConvertible {
    let bits: mode_t
    init(_ mode: mode_t) { bits = mode & 0o7777 }

    var description: String {
        let octal = String(bits, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }
}
