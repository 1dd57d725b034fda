import HearthCore
import HearthSQLShared
import SQLite

/// The `StoreReader` handed to `SQLiteStore.read`: queries on one connection inside one read
/// transaction. Valid only inside the closure that received it.
class SQLiteStoreReader: SQLStoreSessionBase<SQLiteConnection>, SQLStoreReading {
    init(connection: SQLiteConnection, sealer: any SecretSealer) {
        super.init(connection: connection, dialect: .sqlite, sealer: sealer)
    }

    /// SQLite errors become `StoreError`s here and never go further.
    final func translate(_ error: any Error, operation: String) -> any Error {
        translateStoreError(error, operation: operation)
    }

    final func query<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (SQLiteRow) throws -> T) throws -> [T] {
        try connection.queryAll(statement.sqlite.sql, Self.values(statement, binds), decode)
    }

    final func queryFirst<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (SQLiteRow) throws -> T) throws
        -> T?
    {
        try connection.queryFirst(statement.sqlite.sql, Self.values(statement, binds), decode)
    }

    final func execute(_ statement: SQLStatement, _ binds: SQLBinds) throws -> Int {
        try connection.execute(statement.sqlite.sql, Self.values(statement, binds))
    }

    /// A failed SQLite statement changes nothing on its own: no savepoint needed.
    final func execute(
        _ statement: SQLStatement, _ binds: SQLBinds, violation: (SQLConstraintViolation) throws -> StoreError.Code?
    ) throws -> Int {
        do {
            return try execute(statement, binds)
        } catch let error as SQLiteError where error.matches(.constraint) {
            let broken: SQLConstraintViolation =
                switch error.code {
                case .constraintPrimaryKey: .primaryKey
                case .constraintUnique: .unique
                case .constraintForeignKey: .foreignKey
                default: .other
                }
            guard let code = try violation(broken) else { throw error }
            throw StoreError(code)
        }
    }

    final func savepoint<T>(_ body: () throws -> T) throws -> T { try connection.savepoint(body) }

    private static func values(_ statement: SQLStatement, _ binds: SQLBinds) -> [SQLiteValue] {
        statement.sqlite.values(binds).map {
            $0.converted(
                null: .null, text: { .text($0) }, integer: { .integer($0) }, bool: { .integer($0 ? 1 : 0) },
                bytes: { .blob($0) })
        }
    }
}


/// The `StoreWriter` handed to `SQLiteStore.write`: runs on the writer connection inside the
/// closure's `BEGIN IMMEDIATE` transaction. Each method is atomic on its own: one that fails changes
/// nothing (multi-statement methods run in a savepoint), so a body may catch a `StoreError` and go on.
final class SQLiteStoreWriter: SQLiteStoreReader, SQLStoreWriting {
    override init(connection: SQLiteConnection, sealer: any SecretSealer) {
        super.init(connection: connection, sealer: sealer)
        snapshots = AccountSnapshots()
    }
}

/// Every statement the store runs. Values only ever reach SQLite as bound `?` parameters.
enum SQL {
    /// The SQL function that answers the transaction's scope (`StoreScope.tenantID`, `''` for the project): every
    /// statement on scoped records matches `tenant_id = hearth_tenant()`.
    static let scopeFunction = "hearth_tenant"
    /// The lookups SQLite runs for `ON DELETE CASCADE` when an account is deleted (they do not show in
    /// the plan of the DELETE itself), so the tests can check each is indexed.
    static let cascadeLookups: [(name: String, sql: String)] = [
        "identities", "mfa_enrollments", "mfa_pending_sign_ins",
    ].map { table in ("cascade to \(table)", "SELECT 1 FROM \(table) WHERE tenant_id = hearth_tenant() AND local_id = ?") }

    /// Every lookup that must be served by an index (checked by the tests with EXPLAIN QUERY PLAN).
    static let indexedLookups: [(name: String, sql: String)] = [
        ("refreshSessionByLegacyToken", refreshSessionByLegacyToken), ("legacyRefreshTokenPage", legacyRefreshTokenPage),
        ("purgeLegacyRefreshTokens", purgeLegacyRefreshTokens),
    ] + cascadeLookups
        + SQLCatalogue.indexedLookups.map { ($0.name, $0.statement.sqlite.sql) }
}
