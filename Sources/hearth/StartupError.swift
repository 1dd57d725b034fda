import Foundation
import HearthCore
import HearthSQLite

/// A reason the server cannot run (exit status 1): busy port, unusable data directory or database.
struct StartupError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Opens (creating if needed) the SQLite store in the data directory, never truncating or rewriting
/// a file it cannot use.
func openStore(_ settings: Settings) throws -> SQLiteStore {
    let directory = settings.dataDirectory
    let files = FileManager.default
    var isDirectory: ObjCBool = false
    if files.fileExists(atPath: directory, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { throw StartupError("data directory \(directory) is not a directory") }
    } else {
        do {
            try files.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StartupError("cannot create data directory \(directory): permission denied or read-only file system")
        }
    }
    guard files.isWritableFile(atPath: directory) else {
        throw StartupError("data directory \(directory) is not writable")
    }
    do {
        return try SQLiteStore(path: settings.databasePath)
    } catch let error as StoreError {
        throw StartupError("cannot open database \(settings.databasePath): \(error.detail.isEmpty ? "\(error.code)" : error.detail)")
    }
}
