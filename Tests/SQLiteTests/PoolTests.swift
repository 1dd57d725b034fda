import Dispatch
import Foundation
import SQLite
import Synchronization
import Testing

@Suite("Connection pool")
struct PoolTests {
    struct Abort: Error {}

    static func schema() -> SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.register(1, "pairs") { db throws in
            try db.executeScript(
                """
                CREATE TABLE pair (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
                INSERT INTO pair VALUES ('a', 0), ('b', 0);
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE);
                """)
        }
        return migrator
    }

    func makePool(_ directory: TemporaryDirectory, readers: Int = 3) throws -> SQLiteConnectionPool {
        try SQLiteConnectionPool(
            path: directory.file("pool.sqlite"), configuration: .init(readerCount: readers), migrator: Self.schema())
    }

    @Test("connections are configured: WAL, foreign keys, synchronous NORMAL, busy timeout, read-only readers")
    func configuration() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory)
        defer { try? pool.close() }
        for pragma in ["journal_mode", "foreign_keys", "synchronous", "busy_timeout"] {
            let written = try pool.write { try $0.queryFirst("PRAGMA \(pragma)") { $0.value(0) } }
            let read = try pool.read { try $0.queryFirst("PRAGMA \(pragma)") { $0.value(0) } }
            #expect(written == read, "\(pragma)")
        }
        #expect(try pool.write { try $0.queryFirst("PRAGMA journal_mode") { $0.text(0) } } == "wal")
        #expect(try pool.write { try $0.queryFirst("PRAGMA foreign_keys") { $0.int(0) } } == 1)
        #expect(try pool.write { try $0.queryFirst("PRAGMA synchronous") { $0.int(0) } } == 1)
        #expect(try pool.write { try $0.queryFirst("PRAGMA busy_timeout") { $0.int(0) } } == 5_000)
        #expect(try pool.read { try $0.queryFirst("PRAGMA query_only") { $0.int(0) } } == 1)
        expectSQLiteError(.readOnly) { try pool.read { try $0.execute("UPDATE pair SET value = 1") } }
    }

    @Test("writes commit, are seen by readers, and roll back when their body throws")
    func writeAndRead() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory)
        defer { try? pool.close() }
        try pool.write { try $0.execute("UPDATE pair SET value = 5 WHERE name = 'a'") }
        #expect(throws: Abort.self) {
            try pool.write { db throws in
                try db.execute("UPDATE pair SET value = 6 WHERE name = 'a'")
                #expect(try db.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } == 6)
                throw Abort()
            }
        }
        #expect(try pool.read { try $0.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } } == 5)
        // Foreign keys cascade on the writer.
        try pool.write { db throws in
            try db.execute("INSERT INTO parent(id) VALUES (1)")
            try db.execute("INSERT INTO child(parent_id) VALUES (1), (1)")
            expectSQLiteError(.constraintForeignKey) { try db.execute("INSERT INTO child(parent_id) VALUES (2)") }
            try db.execute("DELETE FROM parent")
        }
        #expect(try pool.read { try $0.queryFirst("SELECT count(*) FROM child") { $0.int(0) } } == 0)
    }

    @Test("readers see consistent snapshots while a writer runs, and no update is lost")
    func concurrentReadersAndWriters() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory, readers: 3)
        defer { try? pool.close() }
        let writerThreads = 4
        let writesPerThread = 100
        let torn = Collected<String>()
        let failures = Collected<String>()
        let writersDone = Atomic<Int>(0)
        onThreads(writerThreads + 4) { index in
            do {
                if index < writerThreads {
                    for _ in 0..<writesPerThread {
                        // Two statements in one transaction: a reader must never see one without the other.
                        try pool.write { db throws in
                            let a = try db.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } ?? nil
                            try db.execute("UPDATE pair SET value = ? WHERE name = 'a'", [.integer(Int64(a! + 1))])
                            try db.execute("UPDATE pair SET value = value + 1 WHERE name = 'b'")
                        }
                    }
                    writersDone.add(1, ordering: .releasing)
                } else {
                    repeat {
                        let (a, b) = try pool.read { db throws in
                            let a = try db.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } ?? nil
                            let b = try db.queryFirst("SELECT value FROM pair WHERE name = 'b'") { $0.int(0) } ?? nil
                            return (a, b)
                        }
                        if a != b { torn.add("a=\(a ?? -1) b=\(b ?? -1)") }
                    } while writersDone.load(ordering: .acquiring) < writerThreads
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all == [])
        #expect(torn.all == [])
        let total = writerThreads * writesPerThread
        #expect(try pool.read { try $0.queryAll("SELECT value FROM pair ORDER BY name") { $0.int(0) } } == [total, total])
    }

    @Test("close waits for calls in progress, checkpoints, and later calls fail")
    func close() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pool.sqlite")
        let pool = try makePool(directory)
        let inWrite = DispatchSemaphore(value: 0)
        let writeFinished = Atomic<Bool>(false)
        let closeSawWriteFinished = Atomic<Bool>(false)
        let writerThread = Thread {
            try? pool.write { db throws in
                inWrite.signal()
                // Give close() every chance to run early: a correct close waits regardless.
                for _ in 0..<200 { try db.execute("UPDATE pair SET value = value + 1") }
                writeFinished.store(true, ordering: .releasing)
            }
        }
        let closed = DispatchSemaphore(value: 0)
        writerThread.start()
        inWrite.wait()
        Thread {
            try? pool.close()
            closeSawWriteFinished.store(writeFinished.load(ordering: .acquiring), ordering: .releasing)
            closed.signal()
        }.start()
        closed.wait()
        let waitedForWrite = closeSawWriteFinished.load(ordering: .acquiring)
        #expect(waitedForWrite)
        #expect(pool.isClosed)
        #expect(throws: SQLitePoolClosedError.self) { try pool.read { _ in () } }
        #expect(throws: SQLitePoolClosedError.self) { try pool.write { _ in () } }
        try pool.close()

        // The committed write is in the main file; the WAL is gone.
        #expect((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 == 0)
        let reopened = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try reopened.queryAll("SELECT value FROM pair") { $0.int(0) } == [200, 200])
    }

    @Test("many threads share few connections")
    func moreThreadsThanConnections() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory, readers: 1)
        defer { try? pool.close() }
        let failures = Collected<String>()
        onThreads(12) { index in
            do {
                for _ in 0..<25 {
                    if index.isMultiple(of: 3) {
                        try pool.write { try $0.execute("UPDATE pair SET value = value + 1 WHERE name = 'a'") }
                    } else {
                        _ = try pool.read { try $0.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } }
                    }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all == [])
        #expect(try pool.read { try $0.queryFirst("SELECT value FROM pair WHERE name = 'a'") { $0.int(0) } } == 100)
    }

    @Test("reopening an existing database keeps its data and migrates nothing again")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        do {
            let pool = try makePool(directory)
            try pool.write { try $0.execute("UPDATE pair SET value = 42") }
            try pool.close()
        }
        let pool = try makePool(directory)
        defer { try? pool.close() }
        #expect(try pool.read { try $0.queryAll("SELECT value FROM pair") { $0.int(0) } } == [42, 42])
        #expect(try pool.read { try $0.queryFirst("SELECT count(*) FROM schema_migrations") { $0.int(0) } } == 1)
    }
}

@Suite("Connection pool: vacuum")
struct PoolVacuumTests {
    static func fileBytes(_ path: String) -> [UInt8] {
        ["", "-wal"].flatMap { suffix in
            (try? Data(contentsOf: URL(fileURLWithPath: path + suffix))).map(Array.init) ?? []
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("vacuum leaves no trace of overwritten and deleted values in the database file or the WAL")
    func vacuumRemovesOldContent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("vacuum.sqlite")
        let pool = try SQLiteConnectionPool(path: path, configuration: .init(readerCount: 1))
        defer { try? pool.close() }
        let marker = Array("OLD-SECRET-MARKER".utf8)
        try pool.write { db throws in
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value BLOB)")
            try db.execute("INSERT INTO t VALUES (1, ?), (2, ?)", [.blob(marker + [1]), .blob(marker + [2])])
        }
        try pool.write { db throws in
            try db.execute("UPDATE t SET value = ? WHERE id = 1", [.blob(Array(repeating: 0x55, count: 40))])
            try db.execute("DELETE FROM t WHERE id = 2")
        }
        #expect(Self.contains(Self.fileBytes(path), marker), "without a vacuum the old values are still on disk")
        try pool.vacuum()
        #expect(!Self.contains(Self.fileBytes(path), marker))
        #expect(try pool.read { try $0.queryFirst("SELECT count(*) FROM t") { $0.int(0) } } == 1)
        #expect(try pool.write { try $0.queryFirst("SELECT length(value) FROM t") { $0.int(0) } } == 40)
    }
}
