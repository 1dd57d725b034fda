import HearthCore
import HearthSQLShared
import Postgres

/// The `StoreReader` handed to `PostgresStore.read` (and, as `PostgresStoreWriter`, to `write`): queries on one
/// connection inside one transaction. Valid only inside the closure that received it.
class PostgresStoreReader: SQLStoreSessionBase<PostgresConnection>, SQLStoreReading {
    /// The first error that broke the transaction (a lost race, a lost connection, or any failed statement outside
    /// a savepoint): the store retries or fails the whole call by it, even if the body caught the error.
    final var failure: PostgresError?
    /// How many savepoints are open: a statement that fails inside one does not break the transaction.
    final var savepointDepth = 0

    init(connection: PostgresConnection, sealer: any SecretSealer) {
        super.init(connection: connection, dialect: .postgres, sealer: sealer)
    }

    /// PostgreSQL errors become `StoreError`s here and never go further (the store learns of them through `failure`).
    final func translate(_ error: any Error, operation: String) -> any Error {
        translatePostgresError(error, operation: operation)
    }

    /// The rows of `statement`, each decoded by `decode`; a value that cannot be decoded is `.corrupt`. An error that
    /// breaks the transaction is noted in `failure`.
    final func query<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (PostgresRow) throws -> T) throws
        -> [T]
    {
        try noting { try connection.query(statement.postgres.sql, Self.values(statement, binds)) }
            .map { row in try decoding { try decode(row) } }
    }

    final func queryFirst<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (PostgresRow) throws -> T)
        throws -> T?
    {
        try noting { try connection.query(statement.postgres.sql, Self.values(statement, binds)) }
            .first.map { row in try decoding { try decode(row) } }
    }

    /// Runs `statement` and returns how many rows it changed, noting an error that breaks the transaction.
    final func execute(_ statement: SQLStatement, _ binds: SQLBinds) throws -> Int {
        try noting { try connection.update(statement.postgres.sql, Self.values(statement, binds)) }
    }

    private func noting<T>(_ statement: () throws -> T) throws -> T {
        if let failure { throw failure }
        do {
            return try statement()
        } catch let error as PostgresError {
            if savepointDepth == 0 || error.isSerializationFailure || error.isConnectionFailure {
                failure = failure ?? error
            }
            throw error
        }
    }

    /// In a savepoint: a statement that fails outside one breaks the whole transaction.
    final func execute(
        _ statement: SQLStatement, _ binds: SQLBinds, violation: (SQLConstraintViolation) throws -> StoreError.Code?
    ) throws -> Int {
        do {
            return try savepoint { try execute(statement, binds) }
        } catch let error as PostgresError {
            guard let broken = error.violation, let code = try violation(broken) else { throw error }
            throw StoreError(code)
        }
    }

    /// Runs `body` in a savepoint: if it throws, what it did is undone and the transaction goes on. The savepoint
    /// statements travel with the statements around them (`sendWithNextStatement`): no round trip of their own.
    final func savepoint<T>(_ body: () throws -> T) throws -> T {
        try connection.sendWithNextStatement("SAVEPOINT hearth_operation")
        savepointDepth += 1
        do {
            let value = try body()
            savepointDepth -= 1
            try connection.sendWithNextStatement("RELEASE SAVEPOINT hearth_operation")
            return value
        } catch {
            savepointDepth -= 1
            if failure == nil {
                try connection.sendWithNextStatement("ROLLBACK TO SAVEPOINT hearth_operation")
                try connection.sendWithNextStatement("RELEASE SAVEPOINT hearth_operation")
            }
            throw error
        }
    }

    private static func values(_ statement: SQLStatement, _ binds: SQLBinds) -> [PostgresValue] {
        statement.postgres.values(binds).map {
            $0.converted(
                null: .null, text: { .text($0) }, integer: { .int64($0) }, bool: { .bool($0) }, bytes: { .bytes($0) })
        }
    }

    // MARK: Sessions (refresh-token rotation)

    /// This store never issued refresh tokens without a session id.
    final func refreshSession(legacyTokenHash: String) throws -> RefreshSession? {
        try run("refreshSession(legacyTokenHash:)") { nil }
    }
}

/// Runs a decoder over stored values: a value the wrapper cannot read (NULL where there must be one, text that is no
/// number) is data this store cannot understand, `.corrupt`; other errors (`StoreError`s of the sealer) pass.
func decoding<T>(_ decode: () throws -> T) throws -> T {
    do {
        return try decode()
    } catch let error as PostgresError {
        throw StoreError(.corrupt, "a stored value cannot be read: \(error.message)")
    }
}
