import Dispatch
import Synchronization

/// One database file shared by many threads: one writer connection and a few reader connections in
/// WAL mode, so reads run in parallel with each other and with the single writer.
///
/// Access is closure-scoped and blocking: ``read(_:)`` lends a reader connection inside a read
/// transaction (one consistent snapshot for the whole closure), ``write(_:)`` lends the writer
/// inside `BEGIN IMMEDIATE … COMMIT`, rolled back if the closure throws. Callers wait for a free
/// connection. A connection never leaves its closure.
///
/// Every connection gets `busy_timeout`, `foreign_keys = ON` and `synchronous = NORMAL` (safe with
/// WAL: a power cut may lose the last commits but never corrupts the file); readers also get
/// `query_only = ON`.
///
/// Opening never rewrites a file it must refuse: the file is first only read, so a file that is not
/// a SQLite database fails with `SQLiteError` `.notADatabase`, and a database the migrator refuses
/// fails with `SQLiteMigrationError`, before WAL mode is switched on or anything is migrated.
///
/// ```swift
/// let pool = try SQLiteConnectionPool(path: "app.sqlite", migrator: migrator)
/// try pool.write { db in try db.execute("INSERT INTO notes(body) VALUES (?)", [.text("hi")]) }
/// let count = try pool.read { db in try db.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } }
/// try pool.close()
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/wal.html>
public final class SQLiteConnectionPool: Sendable {
    public struct Configuration: Sendable {
        /// How many reader connections to open (at least 1).
        public var readerCount: Int
        /// How long a statement waits for a lock held by another process before failing with `.busy`.
        public var busyTimeoutMilliseconds: Int

        public init(readerCount: Int = 4, busyTimeoutMilliseconds: Int = 5_000) {
            self.readerCount = readerCount
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        }
    }

    /// The database file.
    public let path: String
    public let configuration: Configuration

    private let writer: ConnectionBox
    private let writerPermit = DispatchSemaphore(value: 1)
    private let idleReaders: Mutex<[ConnectionBox]>
    private let readerPermits: DispatchSemaphore
    private let closedFlag = Atomic<Bool>(false)

    /// Opens (creating if missing) the database at `path`, checks it, switches it to WAL mode, runs
    /// `migrator` and opens the reader connections.
    ///
    /// - Throws: `SQLiteError` (for example `.notADatabase`, `.cannotOpen`) or `SQLiteMigrationError`.
    public init(path: String, configuration: Configuration = Configuration(), migrator: SQLiteMigrator? = nil) throws {
        precondition(configuration.readerCount >= 1, "a pool needs at least one reader")
        self.path = path
        self.configuration = configuration

        let writerConnection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try writerConnection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        // Read-only checks before anything that writes (WAL mode rewrites the header).
        do {
            if let migrator {
                _ = try migrator.validatedVersion(of: writerConnection)
            } else {
                _ = try writerConnection.queryFirst("SELECT count(*) FROM sqlite_schema") { $0.int(0) }
            }
        } catch {
            // Closing would otherwise checkpoint a WAL left by another program into its database.
            try? writerConnection.setCheckpointOnClose(false)
            throw error
        }
        let journalMode = try writerConnection.queryFirst("PRAGMA journal_mode = WAL") { $0.text(0) } ?? nil
        guard journalMode?.lowercased() == "wal" else {
            throw SQLiteError(
                code: .cannotOpen,
                message: "the database cannot use WAL mode (journal mode is \(journalMode ?? "unknown"))")
        }
        try Self.configure(writerConnection, configuration)
        try migrator?.migrate(writerConnection)

        var readers: [ConnectionBox] = []
        for _ in 0..<configuration.readerCount {
            let reader = try SQLiteConnection(path: path, mode: .readWrite)
            try Self.configure(reader, configuration)
            try reader.execute("PRAGMA query_only = ON")
            readers.append(ConnectionBox(reader))
        }
        self.writer = ConnectionBox(writerConnection)
        self.idleReaders = Mutex(readers)
        self.readerPermits = DispatchSemaphore(value: configuration.readerCount)
    }

    private static func configure(_ connection: SQLiteConnection, _ configuration: Configuration) throws {
        try connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("PRAGMA synchronous = NORMAL")
    }

    /// Runs `body` on a reader connection inside a read transaction: every query in `body` sees the
    /// same snapshot of the database. Waits while every reader is busy.
    ///
    /// - Throws: `SQLitePoolClosedError` after ``close()``, `SQLiteError`, or what `body` throws.
    @discardableResult
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        readerPermits.wait()
        defer { readerPermits.signal() }
        guard !closedFlag.load(ordering: .acquiring) else { throw SQLitePoolClosedError() }
        let box = idleReaders.withLock { $0.removeLast() }
        defer { idleReaders.withLock { $0.append(box) } }
        let connection = box.connection!  // set to nil only by close(), which waits for every permit
        return try connection.transaction(.deferred) { try body(connection) }
    }

    /// Runs `body` on the writer connection inside `BEGIN IMMEDIATE … COMMIT`; rolls back if `body`
    /// throws. Writers run one at a time, in the order they arrive.
    ///
    /// - Throws: `SQLitePoolClosedError` after ``close()``, `SQLiteError`, or what `body` throws.
    @discardableResult
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writerPermit.wait()
        defer { writerPermit.signal() }
        guard !closedFlag.load(ordering: .acquiring) else { throw SQLitePoolClosedError() }
        let connection = writer.connection!  // set to nil only by close(), which waits for the permit
        return try connection.transaction(.immediate) { try body(connection) }
    }

    /// Rebuilds the database file without free space (`VACUUM`), then checkpoints the WAL into it and truncates
    /// the WAL, so content that was deleted or overwritten is no longer in either file. Waits for the writer
    /// like ``write(_:)``; readers may go on, but a reader still reading an old snapshot keeps the WAL from
    /// being truncated.
    ///
    /// - Throws: `SQLitePoolClosedError` after ``close()``, or `SQLiteError`.
    public func vacuum() throws {
        writerPermit.wait()
        defer { writerPermit.signal() }
        guard !closedFlag.load(ordering: .acquiring) else { throw SQLitePoolClosedError() }
        let connection = writer.connection!  // set to nil only by close(), which waits for the permit
        try connection.execute("VACUUM")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Waits for the calls in progress, checkpoints the WAL into the database file and closes every
    /// connection. Later calls throw `SQLitePoolClosedError`; closing again does nothing.
    ///
    /// Must not be called from inside ``read(_:)`` or ``write(_:)`` (it would wait for itself).
    ///
    /// - Throws: `SQLiteError` if the final checkpoint fails (the connections are closed anyway, and
    ///   SQLite replays the WAL on the next open).
    public func close() throws {
        guard closedFlag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        writerPermit.wait()
        for _ in 0..<configuration.readerCount { readerPermits.wait() }
        defer {
            // Wake anyone still waiting; they see the pool closed and give the permit back.
            writerPermit.signal()
            for _ in 0..<configuration.readerCount { readerPermits.signal() }
        }
        idleReaders.withLock { boxes in
            for box in boxes { box.connection = nil }
        }
        defer { writer.connection = nil }
        try writer.connection?.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }
}

/// Thrown by ``SQLiteConnectionPool`` calls made after the pool was closed.
public struct SQLitePoolClosedError: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the SQLite connection pool is closed" }
}

/// Holds a connection while it sits in the pool.
///
/// `@unchecked Sendable` because the pool moves connections between threads: a box is only touched by
/// the one thread that holds its permit (the writer permit, or a reader permit plus having taken the
/// box out of `idleReaders` under its lock), so its connection is never used by two threads at once.
private final class ConnectionBox: @unchecked Sendable {
    var connection: SQLiteConnection?
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
