internal import CSQLite

/// One SQLite database connection: owns a `sqlite3` handle, closed (`sqlite3_close_v2`) when the
/// connection is released.
///
/// The connection is opened with `SQLITE_OPEN_NOMUTEX` (SQLite's multi-thread mode): SQLite does not
/// lock it, so it must be used by one thread at a time. It is therefore not `Sendable`; share a
/// database between threads through ``SQLiteConnectionPool``.
///
/// Every value goes into SQL through a bound `?` parameter. Statements run through `execute` and
/// `query` are prepared once and kept in a per-connection cache keyed by their SQL text, so use
/// them with fixed SQL.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "app.sqlite")
/// try connection.transaction {
///     try connection.execute("INSERT INTO notes(body) VALUES (?)", [.text(body)])
/// }
/// let count = try connection.queryFirst("SELECT count(*) FROM notes") { try $0.requiredInt64(0) }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>,
/// <https://www.sqlite.org/threadsafe.html>
public final class SQLiteConnection {
    /// How to open the database file.
    public enum OpenMode: Sendable {
        case readOnly
        case readWrite
        /// Read and write, creating an empty database if the file does not exist.
        case readWriteCreate
    }

    /// What `BEGIN` takes. Writers should use `.immediate`, which takes the write lock at once
    /// instead of failing with `SQLITE_BUSY` when a read transaction later tries to write.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public enum TransactionKind: Sendable {
        case deferred
        case immediate
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED"
            case .immediate: "BEGIN IMMEDIATE"
            case .exclusive: "BEGIN EXCLUSIVE"
            }
        }
    }

    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String
    private var statementCache: [String: SQLiteStatement] = [:]
    /// The values of the functions `setVariable` defined, by name.
    var variables: [String: SQLiteVariable] = [:]

    /// Opens (or, with `.readWriteCreate`, creates) the database at `path`. A new database file is created
    /// readable and writable by its owner only (0600), and SQLite gives its `-wal` and `-shm` files the same mode.
    ///
    /// Opening does not read the file: a file that is not a database is detected by the first
    /// statement, which fails with `.notADatabase` and leaves the file untouched.
    /// Extended result codes are on; double-quoted string literals are off, so a misspelt column name
    /// in double quotes is an error instead of a string; defensive mode stops SQL from corrupting the
    /// file on purpose (for example through `PRAGMA writable_schema`).
    ///
    /// - Throws: `SQLiteError` (`.cannotOpen`, …), or `.misuse` if the SQLite library was built
    ///   without thread support.
    public init(path: String, mode: OpenMode = .readWriteCreate) throws {
        guard sqlite3_threadsafe() != 0 else {
            throw SQLiteError(code: .misuse, message: "the SQLite library was built without thread support")
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            createOwnerOnlyFileIfMissing(path)
        }
        var db: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &db, flags, nil)
        guard resultCode == SQLITE_OK, let db else {
            let error = sqliteError(resultCode, db, sql: nil)
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        self.handle = db
        self.path = path
        // Configuration only fails for unknown options, which would be our bug; check anyway.
        try sqliteCheck(hearth_sqlite_db_config_flag(db, SQLITE_DBCONFIG_DQS_DML, 0), db)
        try sqliteCheck(hearth_sqlite_db_config_flag(db, SQLITE_DBCONFIG_DQS_DDL, 0), db)
        try sqliteCheck(hearth_sqlite_db_config_flag(db, SQLITE_DBCONFIG_DEFENSIVE, 1), db)
    }

    deinit {
        // Finalize our statements first so sqlite3_close_v2 can close at once instead of leaving a
        // zombie connection behind until the last statement goes away.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another connection's lock before failing with `.busy`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
    public func setBusyTimeout(milliseconds: Int) throws {
        try sqliteCheck(sqlite3_busy_timeout(handle, Int32(clamping: milliseconds)), handle)
    }

    /// Whether closing the connection may checkpoint the WAL into the database file (SQLite's default
    /// when it is the last connection). Turn it off to leave a file exactly as it was found, for
    /// example after refusing to open it.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_dbconfig_defensive.html>
    public func setCheckpointOnClose(_ enabled: Bool) throws {
        try sqliteCheck(hearth_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1), handle)
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The library's version, for example `3.40.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: Statements

    /// Prepares a statement that the caller owns; it is not cached.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql, persistent: false)
    }

    /// Lends the cached statement for `sql` (preparing and caching it the first time), reset and
    /// with no bindings, and resets it again when `body` returns.
    ///
    /// If the cached statement is already lent out (the same SQL used again inside `body`), a fresh
    /// uncached statement is used instead.
    public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement: SQLiteStatement
        if let cached = statementCache[sql] {
            if cached.isLent {
                let fresh = try prepare(sql)
                defer { fresh.reset() }
                return try body(fresh)
            }
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: self, sql: sql, persistent: true)
            statementCache[sql] = statement
        }
        statement.isLent = true
        defer {
            statement.reset()
            statement.isLent = false
        }
        return try body(statement)
    }

    /// The number of statements in the cache.
    public var cachedStatementCount: Int { statementCache.count }

    /// Finalizes every cached statement.
    public func clearStatementCache() {
        statementCache = statementCache.filter { $0.value.isLent }
    }

    // MARK: Running SQL

    /// Runs one statement with `values` bound to its parameters and returns the number of rows it
    /// inserted, updated or deleted (0 for other statements). Rows it returns are discarded.
    @discardableResult
    public func execute(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        try withStatement(sql) { statement in
            try statement.bind(values)
            while try statement.step() {}
            return statement.isReadOnly ? 0 : Int(sqlite3_changes64(handle))
        }
    }

    /// Calls `row` for each row the statement returns.
    public func query(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteRow) throws -> Void) throws {
        try withStatement(sql) { statement in
            try statement.bind(values)
            while try statement.step() {
                try row(statement.row)
            }
        }
    }

    /// Decodes every row the statement returns.
    public func queryAll<T>(_ sql: String, _ values: [SQLiteValue] = [], _ decode: (SQLiteRow) throws -> T) throws
        -> [T]
    {
        var results: [T] = []
        try query(sql, values) { results.append(try decode($0)) }
        return results
    }

    /// Decodes the first row the statement returns, or returns `nil` if it returns none.
    public func queryFirst<T>(_ sql: String, _ values: [SQLiteValue] = [], _ decode: (SQLiteRow) throws -> T) throws
        -> T?
    {
        try withStatement(sql) { statement in
            try statement.bind(values)
            return try statement.step() ? decode(statement.row) : nil
        }
    }

    /// Runs a script of several statements that take no parameters (schema changes, migrations).
    /// Statements are not cached. Throws `.misuse` if a statement has parameters.
    public func executeScript(_ sql: String) throws {
        try sql.withCString { start in
            var cursor = start
            while cursor.pointee != 0 {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let resultCode = sqlite3_prepare_v2(handle, cursor, -1, &statementHandle, &tail)
                guard resultCode == SQLITE_OK, let end = tail else {
                    sqlite3_finalize(statementHandle)
                    throw sqliteError(resultCode, handle, sql: String(cString: cursor))
                }
                let statementSQL = String(
                    decoding: UnsafeRawBufferPointer(start: cursor, count: cursor.distance(to: end)), as: UTF8.self)
                guard end != cursor else { break }
                cursor = end
                guard let statementHandle else { continue }  // only whitespace or a comment
                defer { sqlite3_finalize(statementHandle) }
                guard sqlite3_bind_parameter_count(statementHandle) == 0 else {
                    throw SQLiteError(code: .misuse, message: "a script statement has parameters", sql: statementSQL)
                }
                var stepCode = sqlite3_step(statementHandle)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statementHandle) }
                try sqliteCheck(stepCode, handle, sql: statementSQL, success: SQLITE_DONE)
            }
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits if it returns, rolls back if it (or the commit) throws.
    ///
    /// Transactions do not nest; use ``savepoint(_:)`` inside one.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute(kind.beginSQL)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackIfNeeded("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` inside a savepoint: if it throws, everything it changed is undone and the enclosing
    /// transaction goes on as before. Outside a transaction this behaves like a deferred transaction.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_savepoint.html>
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT sqlite_wrapper_savepoint")
        do {
            let result = try body()
            try execute("RELEASE sqlite_wrapper_savepoint")
            return result
        } catch {
            rollbackIfNeeded("ROLLBACK TO sqlite_wrapper_savepoint")
            if isInTransaction { _ = try? execute("RELEASE sqlite_wrapper_savepoint") }
            throw error
        }
    }

    /// Some errors (a full disk, I/O errors) make SQLite roll back by itself; rolling back again would
    /// only fail with "no transaction is active".
    private func rollbackIfNeeded(_ sql: String) {
        guard isInTransaction else { return }
        _ = try? execute(sql)
    }
}

// A connection may only be used by one thread at a time (it is opened with SQLITE_OPEN_NOMUTEX, so
// SQLite does not lock it); share it between threads only through SQLiteConnectionPool, which hands
// each connection to one thread at a time.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
