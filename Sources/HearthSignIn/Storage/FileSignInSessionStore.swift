public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``SignInSessionStore`` in one JSON file, readable by the owner only.
///
/// The file is written with mode `0600` under a directory created with mode `0700`, through a temporary file in the
/// same directory that is `fsync`ed and then `rename`d over the old one, so a reader sees the old session or the new
/// one, never a torn or world-readable file.
///
/// ```swift
/// let store = FileSignInSessionStore.default()   // ~/.config/hearth/google-signin.json
/// let signIn = GoogleSignIn(configuration: configuration, sessionStore: store)
/// ```
public final class FileSignInSessionStore: SignInSessionStore {
    /// The session file.
    public let fileURL: URL

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// `$XDG_CONFIG_HOME/hearth/google-signin.json`, or `~/.config/hearth/google-signin.json` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG Base Directory spec says).
    public static func `default`() -> FileSignInSessionStore {
        FileSignInSessionStore(fileURL: defaultFileURL(environment: ProcessInfo.processInfo.environment))
    }

    static func defaultFileURL(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("hearth", isDirectory: true).appendingPathComponent("google-signin.json")
    }

    public func load() throws -> Data? {
        do {
            return try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return nil }
            throw SignInError(.keychain, "cannot read the session file \(fileURL.path)")
        }
    }

    public func save(_ data: Data) throws {
        let directory = fileURL.deletingLastPathComponent()
        try Self.makeDirectory(directory.path)
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(RandomToken.make(byteCount: 9)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else { throw Self.failure("cannot create", temporary) }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            // umask can only remove bits; set 0600 exactly in case it removed the owner's.
            guard fchmod(descriptor, mode_t(0o600)) == 0 else { return false }
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return fsync(descriptor) == 0
        }
        guard ok else {
            let error = Self.failure("cannot write", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, fileURL.path) == 0 else {
            let error = Self.failure("cannot replace", fileURL.path)
            unlink(temporary)
            throw error
        }
        // Make the rename itself durable; best effort, some file systems refuse fsync on directories.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    public func remove() throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else { throw Self.failure("cannot delete", fileURL.path) }
    }

    /// Creates `path` and missing parents with mode 0700; existing directories are left as they are.
    private static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SignInError(.keychain, "\(path) exists and is not a directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, mode_t(0o700)) == 0 || errno == EEXIST else { throw failure("cannot create directory", path) }
    }

    private static func failure(_ action: String, _ path: String) -> SignInError {
        SignInError(.keychain, "\(action) \(path): \(String(cString: strerror(errno)))")
    }
}
