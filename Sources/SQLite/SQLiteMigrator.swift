/// Numbered schema migrations, recorded in a `schema_migrations` table.
///
/// Register migrations 1, 2, 3, … in order; ``migrate(_:)`` applies those the database lacks, each in
/// the same `BEGIN IMMEDIATE` transaction as the row that records it, so a crash never leaves a half
/// applied migration and two processes cannot apply the same one twice.
///
/// The migrator refuses, without changing anything, a database whose recorded version is newer than
/// the newest registered migration (a newer program wrote it), and a database that already holds
/// tables but no `schema_migrations` table (it belongs to some other program).
///
/// ```swift
/// var migrator = SQLiteMigrator()
/// migrator.register(1, "create notes") { db in
///     try db.executeScript("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT")
/// }
/// try migrator.migrate(connection)
/// ```
public struct SQLiteMigrator {
    /// One schema change.
    public struct Migration {
        public let version: Int
        public let name: String
        let apply: (SQLiteConnection) throws -> Void
    }

    public private(set) var migrations: [Migration] = []

    public init() {}

    /// Adds migration `version`, which must be one more than the last registered (starting at 1).
    public mutating func register(
        _ version: Int, _ name: String, _ apply: @escaping (SQLiteConnection) throws -> Void
    ) {
        precondition(version == latestVersion + 1, "migrations must be numbered 1, 2, 3, … in order")
        migrations.append(Migration(version: version, name: name, apply: apply))
    }

    /// The version the database has once every registered migration ran (0 with none).
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The version recorded in the database: 0 for an empty database.
    ///
    /// Only reads. Throws `SQLiteError` `.notADatabase` for a file that is not a SQLite database, and
    /// `SQLiteMigrationError` for a database that is newer than this migrator or belongs to someone else.
    public func validatedVersion(of connection: SQLiteConnection) throws -> Int {
        let hasVersionTable =
            try connection.queryFirst(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(Self.tableName)]
            ) { _ in true } ?? false
        guard hasVersionTable else {
            let objectCount = try connection.queryFirst("SELECT count(*) FROM sqlite_schema") {
                try $0.requiredInt64(0)
            }
            guard objectCount == 0 else { throw SQLiteMigrationError(.unknownDatabase) }
            return 0
        }
        let maximum = try connection.queryFirst("SELECT max(version) FROM schema_migrations") { $0.int(0) }
        let found = (maximum ?? nil) ?? 0
        guard found <= latestVersion else {
            throw SQLiteMigrationError(.newerSchema(found: found, supported: latestVersion))
        }
        return found
    }

    /// Applies every registered migration the database lacks, in one `BEGIN IMMEDIATE` transaction.
    /// Returns the versions it applied.
    ///
    /// - Throws: `SQLiteMigrationError` (nothing is changed), `SQLiteError` from a migration (the
    ///   transaction is rolled back), or any error a migration throws.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [Int] {
        // A read first, outside any write transaction, so a database we must refuse is never locked
        // for writing, let alone changed.
        let current = try validatedVersion(of: connection)
        guard current < latestVersion else { return [] }
        return try connection.transaction(.immediate) {
            // Another process may have migrated between the check and the lock.
            let start = try validatedVersion(of: connection)
            if start == 0 {
                try connection.executeScript(
                    """
                    CREATE TABLE schema_migrations (
                        version INTEGER PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL
                    ) STRICT
                    """)
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > start {
                try migration.apply(connection)
                try connection.execute(
                    "INSERT INTO schema_migrations(version, name) VALUES (?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name)])
                applied.append(migration.version)
            }
            return applied
        }
    }

    static let tableName = "schema_migrations"
}

/// Why ``SQLiteMigrator`` refused a database. The database was left as it was.
public struct SQLiteMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The database records schema version `found`, newer than the `supported` one.
        case newerSchema(found: Int, supported: Int)
        /// The database has tables but no `schema_migrations` table.
        case unknownDatabase
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .newerSchema(let found, let supported):
            "the database schema is version \(found), newer than the newest this program knows (\(supported))"
        case .unknownDatabase:
            "the database already holds tables but no schema_migrations table; it is not ours"
        }
    }
}
