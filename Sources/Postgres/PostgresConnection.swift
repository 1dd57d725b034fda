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
/// Transactions go through ``begin(_:)``, ``commit()``, ``commitWithoutWaiting()`` and ``rollback()``, which save
/// round trips with libpq's pipeline mode: the `BEGIN` is sent with the transaction's first statement, and simple
/// statements queued with ``sendWithNextStatement(_:)`` (savepoints) ride along with the next one. Each exchange with
/// the server counts in `roundTrips` when one is given.
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

    /// Statements whose results are not needed (the transaction's BEGIN, savepoints, settings), with their parameters,
    /// to send before the next statement, in its round trip.
    private var queued: [(sql: String, parameters: [PostgresValue])] = []
    /// Whether `queued` starts with the BEGIN of a transaction that the server has not seen yet.
    private var beginIsQueued = false
    /// How many results of a pipeline sent by ``commitWithoutWaiting()`` are still to be read (0: none in flight).
    private var commandsInFlight = 0
    /// Counts each exchange with the server, when given.
    private let roundTrips: PostgresRoundTripCounter?

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
    /// statements are prepared. `roundTrips`, when given, counts every exchange with the server.
    ///
    /// - Throws: `PostgresError` with `isConnectionFailure` if the string cannot be parsed or the server cannot be
    ///   reached or refuses the session. The message never contains the password, nor what libpq quotes from the
    ///   string (hosts, ports, names; see `PostgresConnectionString.maskedFailure`).
    public init(url connectionString: String, roundTrips: PostgresRoundTripCounter? = nil) throws {
        self.roundTrips = roundTrips
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
        commandsInFlight = 0
        queued = []
        beginIsQueued = false
        if preparedStatements != nil { preparedStatements = [:] }
    }

    /// Whether the connection is still usable (PQstatus == CONNECTION_OK and no transaction left open by an error).
    /// A commit sent by ``commitWithoutWaiting()`` counts as done: its answer is read before the next command.
    public var isHealthy: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, !sessionUnusable else { return false }
        if commandsInFlight > 0 { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_IDLE || status == PQTRANS_INTRANS
    }

    /// Whether a transaction is open (also one an error left open, which only accepts `ROLLBACK`).
    var isInTransaction: Bool {
        guard let handle, commandsInFlight == 0 else { return false }
        if beginIsQueued { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Reads, without waiting, what the server sent while the connection sat idle, so a session the server has
    /// ended (terminated, shut down for a restart) shows as not healthy before a statement is sent on it. An error
    /// the server sent while idle goes to ``onNotice`` and, when it is FATAL, makes the connection unhealthy.
    /// Cannot notice a network that broke silently.
    func readInputSentWhileIdle() {
        guard let handle else { return }
        readCommandsInFlight(handle)
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
        try sendQueued(handle)
        roundTrips?.count()
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

    // MARK: Transactions

    /// Opens a transaction with `statement` (`BEGIN ISOLATION LEVEL …`). Nothing is sent yet: the BEGIN goes to the
    /// server with the transaction's first statement, in its round trip, and a transaction in which nothing ran
    /// costs none.
    public func begin(_ statement: String) {
        precondition(!isInTransaction, "a transaction is already open on this connection")
        queued = [(statement, [])]
        beginIsQueued = true
    }

    /// Queues `statement` (one whose result is not needed: `SAVEPOINT`, `RELEASE SAVEPOINT`, `ROLLBACK TO SAVEPOINT`,
    /// `SELECT set_config(…)`), run unnamed with `parameters`, to go before the next statement, in its round trip; an
    /// error it causes is thrown by that statement (or by ``commit()``).
    ///
    /// - Throws: `PostgresError` for parameters that cannot be sent (as ``query(_:_:)``), before anything is queued.
    public func sendWithNextStatement(_ statement: String, _ parameters: [PostgresValue] = []) throws {
        _ = try PostgresParameters(parameters)
        queued.append((statement, parameters))
    }

    /// Commits the open transaction (with what is queued) and waits for the answer; a transaction in which nothing
    /// ran is just forgotten.
    ///
    /// - Throws: `PostgresError` (a serialization failure found at the commit, a lost connection).
    public func commit() throws {
        if takeUnsentTransaction() { return }
        let handle = try openHandle()
        _ = try pipeline(handle, queuedCommands() + [.simple("COMMIT")]) { _, _ in () }
    }

    /// Commits a read-only transaction without waiting for the answer, which is read before the next command on
    /// this connection (a failure then makes it unhealthy, so the pool replaces it). For transactions whose
    /// commit cannot fail in a way the caller needs to know: the data it read is already in hand.
    public func commitWithoutWaiting() {
        if takeUnsentTransaction() { return }
        guard let handle, PQenterPipelineMode(handle) == 1 else {
            sessionUnusable = true
            return
        }
        let commands = queuedCommands() + [.simple("COMMIT")]
        roundTrips?.count()
        let none = PostgresParameters()
        guard commands.allSatisfy({ send($0, none, handle) }), PQpipelineSync(handle) == 1 else {
            sessionUnusable = true
            return
        }
        commandsInFlight = commands.count
    }

    /// Rolls back the open transaction, if one is open (also one an error left open).
    public func rollback() throws {
        if takeUnsentTransaction() { return }
        queued = []
        guard isInTransaction else { return }
        try execute("ROLLBACK")
    }

    /// Forgets a transaction that was begun but never sent, and says whether there was one.
    private func takeUnsentTransaction() -> Bool {
        guard beginIsQueued else { return false }
        queued = []
        beginIsQueued = false
        return true
    }

    // MARK: libpq calls

    private func openHandle() throws -> OpaquePointer {
        guard let handle else {
            throw PostgresError(message: "the connection is closed", isConnectionFailure: true)
        }
        readCommandsInFlight(handle)
        return handle
    }

    /// One command of a pipeline.
    private enum Command {
        /// A statement whose result holds nothing wanted, sent unnamed with its own parameters.
        case simple(String, [PostgresValue] = [])
        case prepare(name: String, sql: String)
        /// A statement with the pipeline's parameters, prepared as `name`, or unnamed (`name` nil).
        case statement(sql: String, name: String?)
    }

    private func queuedCommands() -> [Command] {
        defer {
            queued = []
            beginIsQueued = false
        }
        return queued.map { .simple($0.sql, $0.parameters) }
    }

    /// Sends what is queued on its own (before `PQexec`, which cannot join a pipeline).
    private func sendQueued(_ handle: OpaquePointer) throws {
        guard !queued.isEmpty else { return }
        _ = try pipeline(handle, queuedCommands()) { _, _ in () }
    }

    private func run<T>(_ sql: String, _ parameters: [PostgresValue], _ read: (OpaquePointer) -> T) throws -> T {
        let handle = try openHandle()
        let values = try PostgresParameters(parameters)
        var commands = queuedCommands()
        var newName: String?
        var name: String?
        if let preparedStatements {
            if let known = preparedStatements[sql] {
                name = known
            } else {
                newName = "s\(preparedStatements.count + 1)"
                name = newName
                commands.append(.prepare(name: newName!, sql: sql))
            }
        }
        commands.append(.statement(sql: sql, name: name))
        let value = try pipeline(handle, commands, values) { index, result in
            if case .prepare(let prepared, _) = commands[index] {
                preparedStatements?[sql] = prepared
            }
            return index == commands.count - 1 ? read(result) : nil
        }
        guard let value else {
            throw PostgresError(message: "the statement returned no result")
        }
        return value
    }

    /// Sends `commands` in one round trip (libpq's pipeline mode) and reads their results in order: `read` sees each
    /// successful one with its index; the value returned is the last non-nil one `read` gave. The first error
    /// (after which the server skips the rest) is thrown once every result is read. `values` are the parameters of
    /// the `.statement` command.
    private func pipeline<T>(
        _ handle: OpaquePointer, _ commands: [Command], _ values: borrowing PostgresParameters = PostgresParameters(),
        _ read: (Int, OpaquePointer) -> T?
    ) throws -> T? {
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError(handle) }
        roundTrips?.count()
        guard commands.allSatisfy({ send($0, values, handle) }), PQpipelineSync(handle) == 1 else {
            sessionUnusable = true
            throw connectionError(handle)
        }
        var value: T?
        var firstError: PostgresError?
        for index in commands.indices {
            do {
                if let readValue = try consume(try nextResult(handle), handle, { read(index, $0) }) {
                    value = readValue
                }
            } catch let error as PostgresError {
                // A session the server still talks to (after 25006, say) is read to the end of the pipeline.
                if PQstatus(handle) == CONNECTION_BAD { throw firstError ?? error }
                firstError = firstError ?? error
            }
        }
        try endPipeline(handle)
        if let firstError { throw firstError }
        return value
    }

    /// Queues one command on the connection's pipeline; false when libpq refused it.
    private func send(_ command: Command, _ values: borrowing PostgresParameters, _ handle: OpaquePointer) -> Bool {
        switch command {
        case .simple(let sql, let parameters):
            // Checked when queued; libpq copies the values into its buffer before returning.
            guard let own = try? PostgresParameters(parameters) else { return false }
            return own.values.withUnsafeBufferPointer { pointers in
                own.lengths.withUnsafeBufferPointer { lengths in
                    own.formats.withUnsafeBufferPointer { formats in
                        PQsendQueryParams(
                            handle, sql, own.count, nil, pointers.baseAddress, lengths.baseAddress, formats.baseAddress, 0)
                            == 1
                    }
                }
            }
        case .prepare(let name, let sql):
            return PQsendPrepare(handle, name, sql, 0, nil) == 1
        case .statement(let sql, let name):
            return values.values.withUnsafeBufferPointer { pointers in
                values.lengths.withUnsafeBufferPointer { lengths in
                    values.formats.withUnsafeBufferPointer { formats in
                        if let name {
                            PQsendQueryPrepared(
                                handle, name, values.count, pointers.baseAddress, lengths.baseAddress,
                                formats.baseAddress, 0) == 1
                        } else {
                            PQsendQueryParams(
                                handle, sql, values.count, nil, pointers.baseAddress, lengths.baseAddress,
                                formats.baseAddress, 0) == 1
                        }
                    }
                }
            }
        }
    }

    /// The result of the next command of a pipeline (the NULL that ends it read too); a command the server skipped
    /// after an earlier error comes back as a `PGRES_PIPELINE_ABORTED` result, which `consume` reports as no value.
    private func nextResult(_ handle: OpaquePointer) throws -> OpaquePointer {
        guard let result = PQgetResult(handle) else {
            sessionUnusable = true
            throw connectionError(handle)
        }
        if let unexpected = PQgetResult(handle) {
            PQclear(unexpected)
            PQclear(result)
            sessionUnusable = true
            throw PostgresError(message: "a pipelined command returned more than one result")
        }
        return result
    }

    /// Reads the pipeline's sync point and leaves pipeline mode.
    private func endPipeline(_ handle: OpaquePointer) throws {
        guard let sync = PQgetResult(handle) else {
            sessionUnusable = true
            throw connectionError(handle)
        }
        let status = PQresultStatus(sync)
        PQclear(sync)
        guard status == PGRES_PIPELINE_SYNC, PQexitPipelineMode(handle) == 1 else {
            sessionUnusable = true
            throw PostgresError(message: "a pipeline ended out of step with the server", isConnectionFailure: true)
        }
    }

    /// Reads the answers to a ``commitWithoutWaiting()``, if any are still due; any failure among them makes the
    /// connection unhealthy.
    private func readCommandsInFlight(_ handle: OpaquePointer) {
        guard commandsInFlight > 0 else { return }
        let count = commandsInFlight
        commandsInFlight = 0
        do {
            for _ in 0..<count { try consume(try nextResult(handle), handle) { _ in } }
            try endPipeline(handle)
        } catch {
            sessionUnusable = true
        }
    }

    /// Reads a successful result with `read` and frees it, or throws the error it holds.
    @discardableResult
    private func consume<T>(_ result: OpaquePointer?, _ handle: OpaquePointer, _ read: (OpaquePointer) -> T) throws -> T {
        guard let result else { throw connectionError(handle) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return read(result)
        case PGRES_PIPELINE_ABORTED:
            // Skipped after an earlier command of its pipeline failed; that failure is what gets reported.
            throw PostgresError(message: "skipped after an earlier statement of its round trip failed")
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
