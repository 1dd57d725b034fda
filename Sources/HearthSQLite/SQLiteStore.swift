import Foundation
public import HearthCore
import HearthSQLShared
import SQLite

/// Hearth's default store: one SQLite file in WAL mode, one writer connection and a few readers.
///
/// `read` runs on a reader connection inside a read transaction, so its body sees one consistent
/// snapshot; `write` runs on the single writer inside `BEGIN IMMEDIATE … COMMIT` and is rolled back
/// if its body throws. Both block the calling thread and may be called from any number of threads
/// at once: readers run in parallel, writers queue.
///
/// Private signing keys, TOTP secrets and provider tokens pass through `sealer` on every write and read (encrypted at rest
/// when it has a key; see `SecretSealer`), and `SecretResealing` checks or rewrites all of them.
///
/// SQLite errors do not leave this type: constraint failures become the matching `StoreError` code
/// (`.duplicateEmail`, …), a file that is not a database or has a newer schema becomes `.corrupt`,
/// everything else `.unavailable` with the operation and SQLite's message (never a stored value).
///
/// ```swift
/// let store = try SQLiteStore(path: "/var/lib/hearth/hearth.sqlite")
/// defer { store.close() }
/// try store.write { try $0.insertAccount(account) }
/// let found = try store.read { try $0.account(email: "Ada@Example.com") }
/// ```
public final class SQLiteStore: HearthStore {
    /// The database file.
    public let path: String
    /// Seals the secret columns on write and opens them on read (see `SecretSealer`).
    public let sealer: any SecretSealer
    let pool: SQLiteConnectionPool
    private let removesFileOnClose: Bool
    public let scope: StoreScope

    /// Opens the database at `path`, creating it (and its schema) if the file does not exist and
    /// migrating an older schema.
    ///
    /// A file that is not a SQLite database, a database with a newer Hearth schema, or a database that
    /// holds tables but is not Hearth's is refused with `.corrupt` and left exactly as it was.
    ///
    /// - Parameters:
    ///   - path: The database file; its directory must exist.
    ///   - readerCount: How many reads can run at the same time.
    ///   - sealer: Seals private signing keys, TOTP secrets and provider tokens; by default they are stored as they
    ///     are.
    /// - Throws: `StoreError` `.corrupt` or `.unavailable`.
    public convenience init(path: String, readerCount: Int = 4, sealer: any SecretSealer = PlaintextSecretSealer()) throws {
        try self.init(path: path, readerCount: readerCount, sealer: sealer, removesFileOnClose: false)
    }

    private init(path: String, readerCount: Int, sealer: any SecretSealer, removesFileOnClose: Bool) throws {
        precondition(readerCount >= 1, "readerCount must be at least 1")
        self.path = path
        self.sealer = sealer
        self.removesFileOnClose = removesFileOnClose
        scope = .project
        do {
            pool = try SQLiteConnectionPool(
                path: path, configuration: .init(readerCount: readerCount), migrator: Schema.migrator)
        } catch {
            throw translateStoreError(error, operation: "open")
        }
    }

    /// A view of `store` (its connections and file) in `scope`.
    private init(_ store: SQLiteStore, scope: StoreScope) {
        path = store.path
        sealer = store.sealer
        pool = store.pool
        removesFileOnClose = store.removesFileOnClose
        self.scope = scope
    }

    /// Every statement reads the scope through the SQL function `hearth_tenant()` (see `SQLDialect.sqlite`), set on
    /// each connection when a transaction starts on it, so the statements and their cached plans are the same in every
    /// scope.
    public func scoped(to scope: StoreScope) -> any HearthStore { SQLiteStore(self, scope: scope) }

    /// A store in a new file in the temporary directory, deleted (with its WAL files) by `close()`.
    /// For tests and throwaway servers.
    public static func temporary(readerCount: Int = 2, sealer: any SecretSealer = PlaintextSecretSealer()) throws
        -> SQLiteStore
    {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-\(UUID().uuidString).sqlite").path
        return try SQLiteStore(path: path, readerCount: readerCount, sealer: sealer, removesFileOnClose: true)
    }

    public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        do {
            return try pool.read { connection in
                try connection.setVariable(SQL.scopeFunction, to: scope.tenantID)
                let reader = SQLiteStoreReader(connection: connection, sealer: sealer)
                defer { reader.isOpen = false }
                return try body(reader)
            }
        } catch {
            throw translateStoreError(error, operation: "read")
        }
    }

    /// One writer connection (`BEGIN IMMEDIATE`), so every write is serializable, whatever `isolation` asks for.
    public func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        do {
            return try pool.write { connection in
                try connection.setVariable(SQL.scopeFunction, to: scope.tenantID)
                let writer = SQLiteStoreWriter(connection: connection, sealer: sealer)
                defer { writer.isOpen = false }
                return try body(writer)
            }
        } catch {
            throw translateStoreError(error, operation: "write")
        }
    }

    /// Waits for the calls in progress, checkpoints the WAL into the database file and closes the
    /// connections. Later calls throw `StoreError` `.closed`. Must not be called inside `read`/`write`.
    public func close() {
        // A failed final checkpoint loses nothing: SQLite replays the WAL file on the next open.
        try? pool.close()
        if removesFileOnClose {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
    }
}

extension SQLiteStore {
    /// Whether another process (a running `hearth serve`, a `sqlite3` shell) has this database open; this process's
    /// own connections do not count.
    public var isOpenInAnotherProcess: Bool {
        SQLite.isOpenInAnotherProcess(databasePath: path)
    }
}

extension SQLiteStore {
    /// SQLite's plan for every lookup in `SQL.indexedLookups`, for tests that check each is indexed.
    func queryPlans() throws -> [(name: String, plan: [String])] {
        try pool.read { connection in
            try connection.setVariable(SQL.scopeFunction, to: scope.tenantID)
            return try SQL.indexedLookups.map { lookup in
                // Parameters stay unbound (NULL): the plan does not depend on their values.
                let statement = try connection.prepare("EXPLAIN QUERY PLAN " + lookup.sql)
                var plan: [String] = []
                while try statement.step() { plan.append(try statement.row.requiredText(3)) }
                return (lookup.name, plan)
            }
        }
    }
}

/// Turns errors from the SQLite layer into `StoreError`s; any other error (a `StoreError`, or one the
/// caller's closure threw) passes through unchanged. Details carry SQLite's message, never values.
func translateStoreError(_ error: any Error, operation: String) -> any Error {
    switch error {
    case is SQLitePoolClosedError:
        return StoreError(.closed, "the store is closed")
    case let error as SQLiteMigrationError:
        return StoreError(.corrupt, "\(operation): \(error)")
    case let error as SQLiteError:
        switch error.code {
        case .corrupt, .notADatabase, .mismatch:
            return StoreError(.corrupt, "\(operation): \(error.message)")
        default:
            return StoreError(.unavailable, "\(operation): \(error.message)")
        }
    default:
        return error
    }
}
