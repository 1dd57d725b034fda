import Foundation
import HearthCore
@testable import HearthSQLite
import SQLite
import Testing

/// What only the SQLite store does: its file, its schema and its indexes.
@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test("a file that is not a database is refused as corrupt and left untouched")
    func refusesNonDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/random.sqlite"
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect(throws: StoreError(.corrupt)) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a database with a newer schema is refused as corrupt and left untouched")
    func refusesNewerSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/hearth.sqlite"
        try SQLiteStore(path: path).close()
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("INSERT INTO schema_migrations(version, name) VALUES (999, 'from the future')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        do {
            _ = try SQLiteStore(path: path)
            Issue.record("opening a newer schema succeeded")
        } catch let error as StoreError {
            #expect(error.code == .corrupt)
            #expect(error.detail.contains("999"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database that belongs to another program is refused and left untouched")
    func refusesForeignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/other.sqlite"
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
            try connection.execute("INSERT INTO photos(data) VALUES (?)", [.blob([1, 2, 3])])
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError(.corrupt)) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a missing directory is unavailable")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StoreError(.unavailable)) { try SQLiteStore(path: directory.path + "/no/such/dir/h.sqlite") }
    }

    @Test("the file is created with WAL mode and the schema at the latest version")
    func createsFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/new.sqlite"
        let store = try SQLiteStore(path: path, readerCount: 1)
        #expect(FileManager.default.fileExists(atPath: path))
        store.close()
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.queryFirst("PRAGMA journal_mode") { $0.text(0) } == "wal")
        #expect(try connection.queryFirst("SELECT max(version) FROM schema_migrations") { $0.int(0) } == 1)
        let tables = try connection.queryAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            try $0.requiredText(0)
        }
        #expect(
            tables == [
                "accounts", "dev_accounts", "dev_grants", "identities", "refresh_tokens", "schema_migrations",
                "signing_keys",
            ])
    }

    @Test("every lookup is served by an index")
    func lookupsUseIndexes() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let plans = try store.queryPlans()
        #expect(plans.count == SQL.indexedLookups.count)
        for (name, plan) in plans {
            #expect(!plan.isEmpty, "\(name)")
            #expect(plan.contains { $0.hasPrefix("SEARCH") }, "\(name): \(plan)")
            for step in plan where step.hasPrefix("SCAN") {
                #expect(step == "SCAN CONSTANT ROW", "\(name): \(step)")
            }
        }
    }

    @Test("a temporary store removes its files when closed")
    func temporaryStore() throws {
        let store = try SQLiteStore.temporary()
        try store.write { try $0.insertAccount(fullAccount()) }
        #expect(FileManager.default.fileExists(atPath: store.path))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test("store errors carry no stored values")
    func errorsAreRedacted() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let secret = "s3cret-person@example.com"
        try store.write { try $0.insertAccount(bareAccount("a").with(email: secret)) }
        do {
            try store.write { try $0.insertAccount(bareAccount("b").with(email: secret)) }
            Issue.record("no error")
        } catch {
            #expect(!"\(error)".contains("s3cret"))
            #expect(!String(reflecting: error).contains("s3cret"))
        }
    }
}
