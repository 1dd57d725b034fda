import Foundation
public import HearthCore
import HearthSQLShared
import Postgres
import Synchronization

/// A store in a PostgreSQL database, shared by any number of Hearth processes.
///
/// `read` runs its body in a `REPEATABLE READ READ ONLY` transaction (one snapshot); `write` runs it in a
/// `SERIALIZABLE` transaction, so every rule a body checks (one account per email, an attempt counter, the SMS
/// throttle) holds across processes. When PostgreSQL cannot serialize a write (another one got there first, or a
/// deadlock) or its connection was lost before the commit, the transaction is rolled back and the body runs again,
/// a bounded number of times with a short random backoff; the store contract says bodies may run more than once.
///
/// Secrets pass through `sealer` on every write and read, as in `SQLiteStore`. PostgreSQL errors do not leave this
/// type: unique violations become the matching `StoreError` code, a lost or refused connection `.unavailable` (with
/// libpq's message, never the connection URL), stored data that cannot be understood `.corrupt`.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://hearth@db.internal/hearth?sslmode=verify-full")
/// defer { store.close() }
/// try store.write { try $0.insertAccount(account) }
/// ```
public final class PostgresStore: HearthStore, SecretResealing {
    /// Seals the secret columns on write and opens them on read (see `SecretSealer`).
    public let sealer: any SecretSealer
    let pool: PostgresConnectionPool
    /// How many connections `pool` holds.
    let poolSize: Int
    let retry: WriteRetryPolicy
    public let scope: StoreScope

    /// Connects to the database at `url` (a libpq connection URI or keyword string; TLS settings come from it) and
    /// brings its schema to the latest version, creating it in an empty database.
    ///
    /// A database with a newer Hearth schema, or whose schema holds tables but no `hearth_schema`, is refused with
    /// `.corrupt` and left unchanged. Several processes may open a fresh database at once: one migrates it.
    ///
    /// - Parameters:
    ///   - url: Where the database is; it must use the UTF8 encoding.
    ///   - poolSize: How many connections the store keeps (at most that many reads and writes run at once).
    ///   - sealer: Seals private signing keys, TOTP secrets and provider tokens; by default they are stored as is.
    ///   - onWriteRetry: Called each time a write body is run again after losing a race (for metrics).
    /// - Throws: `StoreError` `.unavailable` (no connection) or `.corrupt`.
    public convenience init(
        url: String, poolSize: Int = 8, sealer: any SecretSealer = PlaintextSecretSealer(),
        onWriteRetry: @escaping @Sendable () -> Void = {}
    ) throws {
        try self.init(url: url, poolSize: poolSize, sealer: sealer, retry: WriteRetryPolicy(onRetry: onWriteRetry))
    }

    /// Connections lent out, threads waiting for one, and the pool's size, right now (for metrics).
    public var connectionUsage: (inUse: Int, waiting: Int, size: Int) { pool.usage }

    /// Exchanges with the database so far, over every connection (for metrics): a transaction's BEGIN and its
    /// savepoints travel with its statements, so a read of one statement is one round trip.
    public var roundTrips: Int { pool.roundTrips.value }

    init(url: String, poolSize: Int, sealer: any SecretSealer, retry: WriteRetryPolicy) throws {
        precondition(poolSize >= 1, "poolSize must be at least 1")
        self.sealer = sealer
        self.poolSize = poolSize
        self.retry = retry
        scope = .project
        do {
            pool = try PostgresConnectionPool(url: url, size: poolSize)
        } catch {
            throw translatePostgresError(error, operation: "connect")
        }
        do {
            try pool.withConnection { connection in
                let encoding = try connection.query("SHOW server_encoding").first?.requiredText(0)
                guard encoding == "UTF8" else {
                    throw StoreError(
                        .unavailable, "the database uses the \(encoding ?? "?") encoding; Hearth needs UTF8")
                }
                try PostgresSchema.migrate(connection)
            }
        } catch {
            pool.close()
            throw translatePostgresError(error, operation: "open")
        }
    }

    /// A view of `store` (its pool) in `scope`.
    private init(_ store: PostgresStore, scope: StoreScope) {
        sealer = store.sealer
        pool = store.pool
        poolSize = store.poolSize
        retry = store.retry
        self.scope = scope
    }

    /// Every statement reads the scope from the setting `hearth.tenant` (see `SQLDialect.postgres.scope`), which a
    /// transaction in a tenant sets for itself alone; the statements and their prepared plans are the same in every
    /// scope, and setting it costs no round trip of its own.
    public func scoped(to scope: StoreScope) -> any HearthStore { PostgresStore(self, scope: scope) }

    /// Makes the transaction just begun on `connection` act in `scope` (the project needs nothing: the setting is
    /// unset, or `''` after a tenant's transaction ended). The setting travels with the first statement.
    private func enterScope(_ connection: PostgresConnection) throws {
        guard !scope.isProject else { return }
        try connection.sendWithNextStatement(PostgresSQL.enterScope, [.text(scope.tenantID)])
    }

    public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try withFreshConnection(operation: "read") { connection in
            connection.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let reader = PostgresStoreReader(connection: connection, sealer: sealer)
            defer { reader.isOpen = false }
            do {
                try enterScope(connection)
                let value = try body(reader)
                if let lost = reader.failure { throw lost }
                // Nothing was written, so nothing waits for the commit: one statement, one round trip.
                connection.commitWithoutWaiting()
                return value
            } catch {
                try? connection.rollback()
                if let lost = reader.failure, lost.isConnectionFailure { throw lost }
                throw error
            }
        }
    }

    /// A `.serializable` write is a `SERIALIZABLE` transaction; a `.rowLocks` write is `READ COMMITTED`, and its
    /// writer reads accounts and refresh sessions `FOR UPDATE`. Either is run again when PostgreSQL cannot
    /// serialize it (or it deadlocked), up to `retry.maxAttempts` times.
    public func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        var attempt = 1
        while true {
            switch try withFreshConnection(operation: "write", { try attemptWrite($0, isolation, body) }) {
            case .committed(let value):
                return value
            case .retry(let failure):
                guard attempt < retry.maxAttempts else {
                    throw StoreError(
                        .unavailable,
                        "write: gave up after \(attempt) attempts that lost races with other writes: \(failure.message)")
                }
                retry.onRetry()
                retry.wait(afterAttempt: attempt)
                attempt += 1
            }
        }
    }

    /// How one run of a write body ended.
    private enum WriteAttempt<T> {
        case committed(T)
        /// Rolled back; running the body again may succeed.
        case retry(PostgresError)
    }

    /// Runs `body` once on `connection` in a transaction isolated as `isolation` says, and commits it; a body that
    /// throws is rolled back and its error rethrown. A serialization failure or deadlock (in the body, even one it
    /// caught, or at the commit) asks for a retry; a connection lost before the commit is rethrown for
    /// `withFreshConnection` to retry.
    private func attemptWrite<T>(
        _ connection: PostgresConnection, _ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T
    ) throws -> WriteAttempt<T> {
        switch isolation {
        case .serializable: connection.begin("BEGIN ISOLATION LEVEL SERIALIZABLE")
        case .rowLocks: connection.begin("BEGIN ISOLATION LEVEL READ COMMITTED")
        }
        let writer = PostgresStoreWriter(connection: connection, sealer: sealer, locksRows: isolation == .rowLocks)
        defer { writer.isOpen = false }
        let value: T
        do {
            try enterScope(connection)
            value = try body(writer)
        } catch {
            try? connection.rollback()
            if let failure = writer.failure {
                if failure.isSerializationFailure { return .retry(failure) }
                throw failure
            }
            throw error
        }
        if let failure = writer.failure {
            // The body caught the error of a statement that broke the transaction and went on.
            try? connection.rollback()
            if failure.isSerializationFailure { return .retry(failure) }
            throw failure
        }
        do {
            try connection.commit()
        } catch let error as PostgresError where error.isSerializationFailure {
            try? connection.rollback()
            return .retry(error)
        } catch let error as PostgresError where error.isConnectionFailure {
            throw StoreError(
                .unavailable, "write: the connection was lost during COMMIT; the write may or may not have been saved")
        }
        return .committed(value)
    }

    /// Runs `body` with a pooled connection. When the connection turns out to be lost (the server restarted, an
    /// administrator ended the session, a failover left it on a read-only server) before anything was committed,
    /// `body` runs again on another one, so stale pooled connections cost no failed calls; after as many tries as
    /// the pool has connections plus one, the failure is `.unavailable`. A new connection that cannot be opened is
    /// `.unavailable` at once: during an outage every call fails after one attempt to connect (bounded by the URL's
    /// `connect_timeout` per host), not after one per pooled connection. Other PostgreSQL errors are translated to
    /// `StoreError`s.
    func withFreshConnection<T>(operation: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        var tries = 0
        while true {
            tries += 1
            var connected = false
            do {
                return try pool.withConnection { connection in
                    connected = true
                    return try body(connection)
                }
            } catch let error as PostgresError where error.isConnectionFailure && connected && tries <= poolSize {
                continue
            } catch {
                throw translatePostgresError(error, operation: operation)
            }
        }
    }

    /// Closes every connection. Later calls throw `StoreError` `.closed`. Must not be called inside `read`/`write`.
    public func close() {
        pool.close()
    }
}

/// How often and how patiently `PostgresStore.write` runs a body again after a serialization failure.
struct WriteRetryPolicy: Sendable {
    /// Runs of the body at most, the first included. Generous: under heavy contention on one row, every commit
    /// fails all the others that were waiting for it, so a body may lose many rounds before it wins one.
    var maxAttempts = 64
    /// The longest wait between two runs, in microseconds.
    var maxBackoffMicroseconds: UInt32 = 50_000
    /// Told of each run after the first.
    var onRetry: @Sendable () -> Void = {}

    /// Sleeps a random time up to a bound that doubles with each failed attempt (from 1 ms), so that the losers of
    /// one round do not all collide again in the next.
    func wait(afterAttempt attempt: Int) {
        let bound = min(UInt32(1_000) << UInt32(min(attempt - 1, 16)), maxBackoffMicroseconds)
        usleep(UInt32.random(in: bound / 2...bound))
    }
}
