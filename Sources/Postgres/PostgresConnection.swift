internal import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One PostgreSQL session: owns a libpq `PGconn`, closed (`PQfinish`) by ``close()`` or when released.
///
/// Everything is synchronous and blocking, and a connection must be used by one thread at a time, so it is not
/// `Sendable`; share a database between threads through ``PostgresConnectionPool``.
///
/// Values go into SQL only as bound `$n` parameters. ``query(_:_:)`` and ``update(_:_:)`` run each SQL text as a
/// named prepared statement (`s1`, `s2`, …), prepared the first time it is used on this connection and reused after
/// that (so PostgreSQL plans it once), so use them with fixed SQL. (Running `DEALLOCATE` or `DISCARD ALL` through
/// ``execute(_:)`` would leave that cache stale; don't.) Behind a pooler in transaction mode (PgBouncer's
/// `pool_mode = transaction`), consecutive transactions may run on different server sessions, where a named
/// statement prepared on one does not exist, or another statement has its name, on the next: there the URL says
/// `pool_mode=transaction` (see ``PostgresConnectionString/poolMode(_:)``) and every statement goes unnamed
/// (`PQexecParams`: parsed, planned, bound and run in one round trip, nothing left on the session). Results come back
/// in text form and are copied into ``PostgresRow``s.
///
/// Transactions are plain SQL: `try connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")`, then `COMMIT` or
/// `ROLLBACK`.
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgres://hearth@127.0.0.1:5432/hearth")
/// try connection.update("INSERT INTO notes(id, body) VALUES ($1, $2)", [.int64(1), .text("hi")])
/// let bodies = try connection.query("SELECT body FROM notes WHERE id = $1", [.int64(1)]).map { try $0.requiredText(0) }
/// ```
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/libpq.html>
public final class PostgresConnection {
    private var handle: OpaquePointer?
    /// Named prepared statements by SQL text; nil when statements go unnamed (`pool_mode=transaction`).
    private var preparedStatements: [String: String]?

    /// Server notices (warnings) go here instead of stderr; default: dropped.
    public var onNotice: ((String) -> Void)?
    /// The server sent a FATAL or PANIC error between commands (it ended the session, for example on
    /// `pg_terminate_backend` or a shutdown) and will close the connection, if it has not already; or a statement
    /// failed with a SQLSTATE after which the session is not used again (`PostgresError.isConnectionFailure`).
    private var sessionUnusable = false

    /// Connects with a libpq connection URI or keyword string (`postgres://user:pw@host:port/db?sslmode=require`);
    /// TLS settings (sslmode, sslrootcert, …) come from it. Sets client_encoding UTF8, and a 10-second
    /// `connect_timeout` unless the string sets one. A URI may also say `pool_mode=transaction` (Hearth's, not
    /// libpq's: it is taken out before libpq sees the URI): a pooler in transaction mode is in between, so no named
    /// statements are prepared.
    ///
    /// - Throws: `PostgresError` with `isConnectionFailure` if the string cannot be parsed or the server cannot be
    ///   reached or refuses the session. The message never contains the password, nor what libpq quotes from the
    ///   string (hosts, ports, names; see `PostgresConnectionString.maskedFailure`).
    public init(url connectionString: String) throws {
        let (url, poolMode) = try PostgresConnectionString.poolMode(connectionString)
        preparedStatements = poolMode == .transaction ? nil : [:]
        let password = try passwordInConnectionString(url)
        // Keywords are applied in order and `dbname` is expanded in place: the string may override
        // connect_timeout but not client_encoding.
        let keywords = ["connect_timeout", "dbname", "client_encoding"]
        let values = ["10", url, "UTF8"]
        let connection = withCStringArray(keywords) { keywords in
            withCStringArray(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw PostgresError(message: "libpq could not allocate a connection", isConnectionFailure: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PostgresConnectionString.maskedFailure(libpqMessage(PQerrorMessage(connection)), password: password)
            PQfinish(connection)
            throw PostgresError(message: message, isConnectionFailure: true)
        }
        handle = connection
        PQsetNoticeReceiver(connection, { context, notice in
            guard let context, let notice else { return }
            let connection = Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue()
            connection.receive(notice)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Ends the session. Later calls throw a connection failure; closing again does nothing.
    public func close() {
        guard let handle else { return }
        PQfinish(handle)
        self.handle = nil
        if preparedStatements != nil { preparedStatements = [:] }
    }

    /// Whether the connection is still usable (PQstatus == CONNECTION_OK and no transaction left open by an error).
    public var isHealthy: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, !sessionUnusable else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_IDLE || status == PQTRANS_INTRANS
    }

    /// Whether a transaction is open (also one an error left open, which only accepts `ROLLBACK`).
    var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Reads, without waiting, what the server sent while the connection sat idle, so a session the server has
    /// ended (terminated, shut down for a restart) shows as not healthy before a statement is sent on it. An error
    /// the server sent while idle goes to ``onNotice`` and, when it is FATAL, makes the connection unhealthy.
    /// Cannot notice a network that broke silently.
    func readInputSentWhileIdle() {
        guard let handle else { return }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        // Each round reads what has arrived; the round after the server's last message sees the end of the stream.
        var rounds = 0
        while rounds < 8, PQstatus(handle) == CONNECTION_OK, poll(&descriptor, 1, 0) > 0 {
            guard PQconsumeInput(handle) == 1 else { return }
            _ = PQisBusy(handle)  // parses what was read: notices, parameter changes, an error sent while idle
            rounds += 1
        }
    }

    /// A notice, or an error the server sent while no command ran (libpq passes those on as notices).
    private func receive(_ notice: OpaquePointer) {
        let severity = PQresultErrorField(notice, hearth_pq_diag_severity_nonlocalized).map { String(cString: $0) }
        if severity == "FATAL" || severity == "PANIC" { sessionUnusable = true }
        onNotice?(libpqMessage(PQresultErrorMessage(notice)))
    }

    /// Runs SQL without parameters (may hold several statements; for migrations, BEGIN/COMMIT, SET…).
    public func execute(_ sql: String) throws {
        let handle = try openHandle()
        try consume(PQexec(handle, sql), handle) { _ in }
    }

    /// Runs one statement with `$1…$n` parameters as a prepared statement, prepared once per connection and cached
    /// by its SQL text (PQprepare + PQexecPrepared), or unnamed (PQexecParams) behind a pooler in transaction mode.
    /// Returns every row.
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> [PostgresRow] {
        try run(sql, parameters) { result in
            let columnCount = PQnfields(result)
            return (0..<PQntuples(result)).map { row in
                PostgresRow(
                    values: (0..<columnCount).map { column in
                        guard PQgetisnull(result, row, column) == 0 else { return nil }
                        let length = Int(PQgetlength(result, row, column))
                        return PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: length) {
                            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                        }
                    })
            }
        }
    }

    /// As `query`, returning the number of rows the command affected (PQcmdTuples).
    @discardableResult
    public func update(_ sql: String, _ parameters: [PostgresValue] = []) throws -> Int {
        try run(sql, parameters) { result in
            Int(String(cString: PQcmdTuples(result))) ?? 0
        }
    }

    // MARK: libpq calls

    private func openHandle() throws -> OpaquePointer {
        guard let handle else {
            throw PostgresError(message: "the connection is closed", isConnectionFailure: true)
        }
        return handle
    }

    private func run<T>(_ sql: String, _ parameters: [PostgresValue], _ read: (OpaquePointer) -> T) throws -> T {
        let handle = try openHandle()
        let values = try PostgresParameters(parameters)
        let name = try preparedStatementName(sql, handle)
        let result = values.values.withUnsafeBufferPointer { pointers in
            values.lengths.withUnsafeBufferPointer { lengths in
                values.formats.withUnsafeBufferPointer { formats in
                    if let name {
                        PQexecPrepared(
                            handle, name, values.count, pointers.baseAddress, lengths.baseAddress, formats.baseAddress, 0)
                    } else {
                        PQexecParams(
                            handle, sql, values.count, nil, pointers.baseAddress, lengths.baseAddress,
                            formats.baseAddress, 0)
                    }
                }
            }
        }
        return try consume(result, handle, read)
    }

    /// The name of the statement prepared for `sql` on this connection, preparing it the first time; nil when
    /// statements go unnamed.
    private func preparedStatementName(_ sql: String, _ handle: OpaquePointer) throws -> String? {
        guard let preparedStatements else { return nil }
        if let name = preparedStatements[sql] { return name }
        let name = "s\(preparedStatements.count + 1)"
        try consume(PQprepare(handle, name, sql, 0, nil), handle) { _ in }
        self.preparedStatements?[sql] = name
        return name
    }

    /// Reads a successful result with `read` and frees it, or throws the error it holds.
    private func consume<T>(_ result: OpaquePointer?, _ handle: OpaquePointer, _ read: (OpaquePointer) -> T) throws -> T {
        guard let result else { throw connectionError(handle) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return read(result)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR, PGRES_BAD_RESPONSE:
            throw resultError(result, handle)
        case let status:
            // COPY and other sub-protocols: the session is left in them, so it is no longer healthy.
            throw PostgresError(
                message: "the statement started \(String(cString: PQresStatus(status))), which this wrapper does not support")
        }
    }

    private func resultError(_ result: OpaquePointer, _ handle: OpaquePointer) -> PostgresError {
        let sqlState = PQresultErrorField(result, hearth_pq_diag_sqlstate).map { String(cString: $0) }
        let primary = PQresultErrorField(result, hearth_pq_diag_message_primary).map { String(cString: $0) }
        let message = primary ?? libpqMessage(PQresultErrorMessage(result))
        let isConnectionFailure = PQstatus(handle) == CONNECTION_BAD || PostgresError.isConnectionFailure(sqlState: sqlState)
        if isConnectionFailure { sessionUnusable = true }
        return PostgresError(
            sqlState: sqlState,
            message: PostgresError.withoutQuotedValues(message, sqlState: sqlState),
            constraint: PQresultErrorField(result, hearth_pq_diag_constraint_name).map { String(cString: $0) },
            isConnectionFailure: isConnectionFailure)
    }

    private func connectionError(_ handle: OpaquePointer) -> PostgresError {
        let isConnectionFailure = PQstatus(handle) == CONNECTION_BAD
        if isConnectionFailure { sessionUnusable = true }
        return PostgresError(message: libpqMessage(PQerrorMessage(handle)), isConnectionFailure: isConnectionFailure)
    }
}

/// A libpq message without its trailing newline; empty for none.
private func libpqMessage(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "" }
    var text = String(cString: message)
    while text.last?.isNewline == true { text.removeLast() }
    return text
}

/// Calls `body` with a NULL-terminated C array of C strings, valid during the call.
private func withCStringArray<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) } + [nil])
}

// A connection may only be used by one thread at a time; share it between threads only through
// PostgresConnectionPool, which hands each connection to one thread at a time.
@available(*, unavailable)
extension PostgresConnection: Sendable {}
