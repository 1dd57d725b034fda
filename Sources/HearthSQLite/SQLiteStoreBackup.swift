import Foundation
import SQLite

/// A consistent copy of a Hearth SQLite database, made while servers keep using it (`hearth db backup`).
///
/// The copy is written to a new owner-only (0600) file beside the destination, checked (`PRAGMA integrity_check`,
/// and the same Hearth schema version as the database), and only then linked into place, so the destination
/// either does not exist or holds a whole, checked backup. It is a single file in rollback-journal mode (no
/// `-wal` file belongs to it): restoring it means copying it to `hearth.sqlite` in a data directory.
public enum SQLiteStoreBackup {
    /// What a backup copied.
    public struct Summary: Sendable {
        /// The Hearth schema version of the database and of the copy.
        public let schemaVersion: Int
        /// The size of the backup file in bytes.
        public let bytes: Int
    }

    /// Copies the Hearth database at `databasePath` into a new file at `destinationPath`; never overwrites a file
    /// and never writes to the database (it is opened read-only). See the type's documentation.
    ///
    /// - Throws: `SQLiteBackupError` naming what failed; nothing is left at `destinationPath` then.
    public static func write(databasePath: String, to destinationPath: String) throws -> Summary {
        guard !FileManager.default.fileExists(atPath: destinationPath) else {
            throw SQLiteBackupError("\(destinationPath) already exists; a backup never replaces a file")
        }
        let source: SQLiteConnection
        let schemaVersion: Int
        do {
            source = try SQLiteConnection(path: databasePath, mode: .readOnly)
            try source.setBusyTimeout(milliseconds: 5_000)
            schemaVersion = try Schema.migrator.validatedVersion(of: source)
        } catch {
            throw SQLiteBackupError("cannot read the database \(databasePath): \(Self.reason(error))")
        }
        guard schemaVersion > 0 else { throw SQLiteBackupError("\(databasePath) holds no Hearth data (an empty database)") }

        let temporaryPath = Self.temporaryPath(beside: destinationPath)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
        }
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else {
            throw SQLiteBackupError("cannot create \(temporaryPath): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        do {
            try Self.copy(source, into: temporaryPath, schemaVersion: schemaVersion)
        } catch let error as SQLiteBackupError {
            throw error
        } catch {
            throw SQLiteBackupError("the backup failed: \(Self.reason(error))")
        }
        try Self.syncFile(temporaryPath)
        // link(2) fails if the destination appeared meanwhile, where rename(2) would replace it.
        guard link(temporaryPath, destinationPath) == 0 else {
            throw SQLiteBackupError("cannot create \(destinationPath): \(String(cString: strerror(errno)))")
        }
        // The new name is durable once the directory is flushed; a failure here leaves a whole backup in place.
        try? Self.syncFile(URL(fileURLWithPath: destinationPath).deletingLastPathComponent().path)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destinationPath))?[.size] as? Int ?? 0
        return Summary(schemaVersion: schemaVersion, bytes: bytes)
    }

    /// Copies `source` into the empty file at `path`, makes the copy a single rollback-journal file, and checks it.
    private static func copy(_ source: SQLiteConnection, into path: String, schemaVersion: Int) throws {
        let copy = try SQLiteConnection(path: path, mode: .readWrite)
        try source.backup(into: copy)
        _ = try copy.queryFirst("PRAGMA journal_mode = DELETE") { $0.text(0) }
        let integrity = try copy.queryAll("PRAGMA integrity_check") { $0.text(0) ?? "" }
        guard integrity == ["ok"] else {
            throw SQLiteBackupError("the copy failed its integrity check: \(integrity.prefix(3).joined(separator: "; "))")
        }
        let copiedVersion = try Schema.migrator.validatedVersion(of: copy)
        guard copiedVersion == schemaVersion else {
            throw SQLiteBackupError("the copy has schema version \(copiedVersion), the database \(schemaVersion)")
        }
    }

    /// `dir/.name.tmp-<random>`: beside the destination, so linking it into place stays on one file system.
    private static func temporaryPath(beside destinationPath: String) -> String {
        let url = URL(fileURLWithPath: destinationPath)
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(UUID().uuidString)").path
    }

    /// Flushes a file (or a directory's entries) to disk.
    private static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SQLiteBackupError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SQLiteBackupError("cannot flush \(path): \(String(cString: strerror(errno)))") }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? "\(error)"
    }
}

/// Why ``SQLiteStoreBackup`` made no backup.
public struct SQLiteBackupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
