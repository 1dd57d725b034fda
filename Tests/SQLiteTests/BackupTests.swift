import Foundation
import SQLite
import Testing

@Suite("Online backup")
struct BackupTests {
    /// A WAL database with `rows` rows of 1 KB each (about one page a row), written by its own connection.
    static func source(_ directory: TemporaryDirectory, rows: Int) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.file("source.sqlite"))
        _ = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.text(0) }
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL) STRICT")
        try connection.transaction {
            for id in 0..<rows {
                try connection.execute("INSERT INTO t VALUES (?, ?)", [.integer(Int64(id)), .blob([UInt8](repeating: 7, count: 1000))])
            }
        }
        return connection
    }

    /// A 20-row source, and the destination `path` opened with busy timeout 0, so a lock on it fails a step at once.
    static func twentyRowsAndAnImpatientCopy(_ directory: TemporaryDirectory) throws
        -> (source: SQLiteConnection, destination: SQLiteConnection, path: String)
    {
        let path = directory.file("copy.sqlite")
        let destination = try SQLiteConnection(path: path)
        try destination.setBusyTimeout(milliseconds: 0)
        return (try source(directory, rows: 20), destination, path)
    }

    static func count(_ connection: SQLiteConnection) throws -> Int? {
        try connection.queryFirst("SELECT count(*) FROM t") { try $0.requiredInt64(0) }.map(Int.init)
    }

    @Test("copies every row in steps of a few pages, reporting what is left after each")
    func copiesInSteps() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.source(directory, rows: 100)
        let destination = try SQLiteConnection(path: directory.file("copy.sqlite"))
        var reports: [(remaining: Int, total: Int)] = []
        try source.backup(into: destination, pacing: .init(pagesPerStep: 2)) { reports.append(($0, $1)) }
        #expect(try Self.count(destination) == 100)
        #expect(try destination.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
        let total = try #require(reports.last?.total)
        #expect(total > 20)
        #expect(reports.count == (total + 1) / 2, "one report per step of 2 pages")
        #expect(reports.last?.remaining == 0)
        #expect(!source.isInTransaction, "the read transaction ends with the copy")
    }

    @Test("a writer on another connection commits at once while the copy runs, and the copy is the snapshot it started from")
    func writersAreNotBlockedAndTheCopyIsOneSnapshot() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.source(directory, rows: 200)
        let writer = try SQLiteConnection(path: directory.file("source.sqlite"))
        try writer.setBusyTimeout(milliseconds: 0)
        let destination = try SQLiteConnection(path: directory.file("copy.sqlite"))
        var writesDuringCopy = 0
        try source.backup(into: destination, pacing: .init(pagesPerStep: 4)) { remaining, _ in
            guard remaining > 0 else { return }
            // Without waiting (busy timeout 0): a lock held by the copy would fail this with SQLITE_BUSY.
            try? writer.execute("INSERT INTO t VALUES (?, ?)", [.integer(Int64(1000 + writesDuringCopy)), .blob([1])])
            writesDuringCopy += 1
        }
        #expect(writesDuringCopy > 10)
        #expect(try Self.count(writer) == 200 + writesDuringCopy, "every write during the copy committed")
        #expect(try Self.count(destination) == 200, "the copy holds the rows of its start, none written later")
        #expect(try destination.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }

    @Test("a step that finds the destination locked is tried again until the lock goes")
    func retriesWhileLocked() throws {
        let directory = try TemporaryDirectory()
        let (source, destination, path) = try Self.twentyRowsAndAnImpatientCopy(directory)
        let locked = DispatchSemaphore(value: 0)
        let lockTaken = Collected<Bool>()
        Thread {
            guard let locker = try? SQLiteConnection(path: path), (try? locker.execute("BEGIN EXCLUSIVE")) != nil else {
                locked.signal()
                return
            }
            lockTaken.add(true)
            locked.signal()
            Thread.sleep(forTimeInterval: 0.3)
            try? locker.execute("COMMIT")
        }.start()
        locked.wait()
        #expect(lockTaken.all == [true], "the destination was locked when the copy began")
        try source.backup(into: destination, pacing: .init(busyRetries: 1_000, busyPauseMilliseconds: 5))
        #expect(try Self.count(destination) == 20)
    }

    @Test("a lock that outlasts the retries fails the copy with SQLITE_BUSY, and the source is left as it was")
    func givesUpOnALockThatStays() throws {
        let directory = try TemporaryDirectory()
        let (source, destination, path) = try Self.twentyRowsAndAnImpatientCopy(directory)
        let locker = try SQLiteConnection(path: path)
        try locker.execute("BEGIN EXCLUSIVE")
        defer { try? locker.execute("COMMIT") }
        expectSQLiteError(.busy) {
            try source.backup(into: destination, pacing: .init(busyRetries: 3, busyPauseMilliseconds: 1))
        }
        #expect(!source.isInTransaction)
        #expect(try Self.count(source) == 20)
    }
}
