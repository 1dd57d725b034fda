import Foundation
import SQLite
import Testing

@Suite("Migrations")
struct MigratorTests {
    struct Boom: Error {}

    func migrator(upTo version: Int) -> SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.register(1, "create a") { try $0.executeScript("CREATE TABLE a (x INTEGER)") }
        if version >= 2 {
            migrator.register(2, "create b") { try $0.executeScript("CREATE TABLE b (y TEXT); INSERT INTO b VALUES ('y')") }
        }
        if version >= 3 {
            migrator.register(3, "alter a") { try $0.executeScript("ALTER TABLE a ADD COLUMN z TEXT") }
        }
        return migrator
    }

    func recordedVersions(_ connection: SQLiteConnection) throws -> [Int] {
        try connection.queryAll("SELECT version FROM schema_migrations ORDER BY version") { try Int($0.requiredInt64(0)) }
    }

    @Test("an empty database gets every migration, once")
    func freshDatabase() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let migrator = migrator(upTo: 2)
        #expect(migrator.latestVersion == 2)
        #expect(try migrator.validatedVersion(of: connection) == 0)
        #expect(try migrator.migrate(connection) == [1, 2])
        #expect(try recordedVersions(connection) == [1, 2])
        #expect(try migrator.migrate(connection) == [])
        #expect(try migrator.validatedVersion(of: connection) == 2)
        #expect(try connection.queryFirst("SELECT y FROM b") { $0.text(0) } == "y")
    }

    @Test("a database at an older version gets only the newer migrations")
    func upgrade() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try migrator(upTo: 1).migrate(connection)
        try connection.execute("INSERT INTO a(x) VALUES (7)")
        #expect(try migrator(upTo: 3).migrate(connection) == [2, 3])
        #expect(try recordedVersions(connection) == [1, 2, 3])
        #expect(try connection.queryFirst("SELECT x, z FROM a") { [$0.value(0), $0.value(1)] } == [.integer(7), .null])
    }

    @Test("a failing migration changes nothing")
    func failingMigration() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try migrator(upTo: 1).migrate(connection)
        var broken = migrator(upTo: 2)
        broken.register(3, "fails halfway") { db throws in
            try db.executeScript("CREATE TABLE c (z)")
            throw Boom()
        }
        #expect(throws: Boom.self) { try broken.migrate(connection) }
        #expect(try recordedVersions(connection) == [1])
        #expect(try connection.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name IN ('b', 'c')") { $0.int(0) } == 0)
    }

    @Test("a newer schema is refused without changing the file")
    func newerSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("future.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try migrator(upTo: 1).migrate(connection)
            try connection.execute("INSERT INTO schema_migrations(version, name) VALUES (?, ?)", [999, "future"])
        }
        let before = try fileBytes(path)

        let connection = try SQLiteConnection(path: path)
        #expect(throws: SQLiteMigrationError(.newerSchema(found: 999, supported: 3))) {
            try migrator(upTo: 3).migrate(connection)
        }
        #expect(throws: SQLiteMigrationError(.newerSchema(found: 999, supported: 3))) {
            try SQLiteConnectionPool(path: path, migrator: migrator(upTo: 3))
        }
        #expect(try fileBytes(path) == before)
        #expect("\(SQLiteMigrationError(.newerSchema(found: 999, supported: 3)))".contains("999"))
    }

    @Test("a newer schema still in a WAL file is refused without checkpointing it into the database")
    func newerSchemaInWAL() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("future-wal.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.text(0) } == "wal")
            try migrator(upTo: 1).migrate(connection)
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            // A newer program records version 999 and exits without checkpointing.
            try connection.execute("PRAGMA wal_autocheckpoint = 0")
            try connection.execute("INSERT INTO schema_migrations(version, name) VALUES (999, 'future')")
            try connection.setCheckpointOnClose(false)
        }
        let database = try fileBytes(path)
        let wal = try fileBytes(path + "-wal")
        #expect(!wal.isEmpty)

        #expect(throws: SQLiteMigrationError(.newerSchema(found: 999, supported: 1))) {
            try SQLiteConnectionPool(path: path, migrator: migrator(upTo: 1))
        }
        #expect(try fileBytes(path) == database)
        #expect(try fileBytes(path + "-wal") == wal)
    }

    @Test("a database that has tables but no migration table is refused without changing the file")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("foreign.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.executeScript("CREATE TABLE theirs (x); INSERT INTO theirs VALUES (1);")
        }
        let before = try fileBytes(path)
        #expect(throws: SQLiteMigrationError(.unknownDatabase)) {
            try SQLiteConnectionPool(path: path, migrator: migrator(upTo: 1))
        }
        #expect(try fileBytes(path) == before)
    }

    @Test("a file of random bytes is refused as not a database without changing it", arguments: [false, true])
    func randomBytes(withMigrator: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("random.sqlite")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))

        expectSQLiteError(.notADatabase) {
            try SQLiteConnectionPool(path: path, migrator: withMigrator ? migrator(upTo: 1) : nil)
        }
        let connection = try SQLiteConnection(path: path)
        expectSQLiteError(.notADatabase) { try connection.execute("PRAGMA journal_mode = WAL") }
        expectSQLiteError(.notADatabase) { try migrator(upTo: 1).migrate(connection) }
        #expect(try fileBytes(path) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a text file is refused as not a database without changing it")
    func textFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notes.txt")
        let bytes = Data(String(repeating: "not a database, just some text\n", count: 200).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        expectSQLiteError(.notADatabase) { try SQLiteConnectionPool(path: path, migrator: migrator(upTo: 1)) }
        #expect(try fileBytes(path) == bytes)
    }
}
