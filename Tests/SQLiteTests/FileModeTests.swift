import Foundation
import SQLite
import Testing

/// The files SQLite creates for a database are the owner's alone, whatever the process's umask.
@Suite("File modes")
struct FileModeTests {
    static func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    /// Runs `body` with the process umask set to `mask`, then restores it. The umask is per process, so only
    /// the usual 022 is set here (other tests may be creating files at the same time).
    static func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let previous = umask(mask)
        defer { umask(previous) }
        return try body()
    }

    @Test("a new database and its -wal and -shm files are created 0600 under a permissive umask")
    func newDatabaseIsOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("modes.sqlite")
        let pool = try Self.withUmask(0o022) {
            try SQLiteConnectionPool(path: path, configuration: .init(readerCount: 2))
        }
        defer { try? pool.close() }
        try pool.write { try $0.execute("CREATE TABLE t (secret BLOB)") }
        try pool.write { try $0.execute("INSERT INTO t VALUES (?)", [.blob([1, 2, 3])]) }
        #expect(try pool.read { try $0.queryFirst("SELECT count(*) FROM t") { $0.int(0) } } == 1)
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: path + suffix), "\(suffix) exists while the pool is open")
            #expect(Self.mode(path + suffix) == 0o600, "mode of \(suffix.isEmpty ? "the database" : suffix)")
        }
    }

    @Test("an existing file keeps its mode: changing it is the application's decision")
    func existingFileUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("existing.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try SQLiteConnection(path: path)
        #expect(Self.mode(path) == 0o640)
    }

    @Test("in-memory databases create no file")
    func inMemory() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x INTEGER)")
        #expect(!FileManager.default.fileExists(atPath: ":memory:"))
    }
}
