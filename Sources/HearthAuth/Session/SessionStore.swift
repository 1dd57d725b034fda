public import Foundation
import Synchronization

/// Where the signed-in user's session is kept between launches (FirebaseAuth: the keychain).
///
/// The data is a secret (it holds the refresh token): implementations must keep it private to the
/// user. Calls are synchronous and short. HearthAuth ships `FileSessionStore` and
/// `InMemorySessionStore`; on Apple platforms a keychain-backed store is a few lines (untested here):
///
/// ```swift
/// import Security
///
/// final class KeychainSessionStore: SessionStore {
///     private func query(_ key: String) -> [String: Any] {
///         [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "hearth.auth",
///          kSecAttrAccount as String: key]
///     }
///     func load(key: String) throws -> Data? {
///         var result: AnyObject?
///         var search = query(key)
///         search[kSecReturnData as String] = true
///         let status = SecItemCopyMatching(search as CFDictionary, &result)
///         if status == errSecItemNotFound { return nil }
///         guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
///         return result as? Data
///     }
///     func save(_ data: Data, key: String) throws {
///         try remove(key: key)
///         var item = query(key)
///         item[kSecValueData as String] = data
///         item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
///         let status = SecItemAdd(item as CFDictionary, nil)
///         guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
///     }
///     func remove(key: String) throws {
///         let status = SecItemDelete(query(key) as CFDictionary)
///         guard status == errSecSuccess || status == errSecItemNotFound else {
///             throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
///         }
///     }
/// }
/// ```
public protocol SessionStore: Sendable {
    func load(key: String) throws -> Data?
    func save(_ data: Data, key: String) throws
    func remove(key: String) throws
}

/// A `SessionStore` that forgets everything when the process ends; for tests and for apps that must
/// not persist sessions.
public final class InMemorySessionStore: SessionStore {
    private let items = Mutex<[String: Data]>([:])

    public init() {}

    public func load(key: String) throws -> Data? { items.withLock { $0[key] } }
    public func save(_ data: Data, key: String) throws { items.withLock { $0[key] = data } }
    public func remove(key: String) throws { _ = items.withLock { $0.removeValue(forKey: key) } }
}

/// A `SessionStore` with one file per key in a private directory.
///
/// The directory is created with mode 0700 and each file is written with mode 0600, atomically
/// (a temporary file in the same directory, then `rename`), so a reader never sees half a session.
/// Keys become file names by percent-escaping everything outside `A–Z a–z 0–9 - _ .` (and a
/// leading `.`), so distinct keys never share a file and no key can leave the directory.
///
/// The default directory is `$XDG_CONFIG_HOME/hearth`, or `~/.config/hearth`. On Apple platforms
/// the keychain is the better home for a session (see `SessionStore` for a sketch).
public final class FileSessionStore: SessionStore {
    /// The directory holding the session files.
    public let directory: URL

    /// - Parameter directory: where to keep the files; created (mode 0700) if missing.
    /// - Throws: the file system's error if the directory cannot be created.
    public init(directory: URL? = nil) throws {
        let directory = directory ?? Self.defaultDirectory()
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if !manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: nil)
            // Set explicitly: the mode given at creation is filtered by the umask.
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } else if !isDirectory.boolValue {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: directory.path])
        }
        self.directory = directory
    }

    static func defaultDirectory() -> URL {
        if let config = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("hearth", isDirectory: true)
        }
        // NSHomeDirectory(), unlike homeDirectoryForCurrentUser, exists on every Apple platform too.
        return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true)
            .appendingPathComponent("hearth", isDirectory: true)
    }

    /// The file that holds `key`.
    public func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(forKey: key), isDirectory: false)
    }

    static func fileName(forKey key: String) -> String {
        if key.isEmpty { return "%" }
        var name = ""
        for (index, byte) in key.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ".") where index > 0:
                name.append(".")
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                name += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return name
    }

    public func load(key: String) throws -> Data? {
        let url = fileURL(forKey: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func save(_ data: Data, key: String) throws {
        let target = fileURL(forKey: key)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp", isDirectory: false)
        let manager = FileManager.default
        // Created empty with mode 0600 before any secret is written to it.
        guard manager.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            // rename(2) replaces the target atomically.
            guard rename(temporary.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
            }
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
    }

    public func remove(key: String) throws {
        let url = fileURL(forKey: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
