public import HearthCore

/// What the store methods written once over ``SQLCatalogue`` need from a store's reader or writer: one connection
/// inside one transaction, its engine's dialect, and its error handling. `SQLiteStoreReader` and
/// `PostgresStoreReader` implement it; a reader or writer that conforms to ``SQLStoreReading`` or ``SQLStoreWriting``
/// gets the `StoreReader`/`StoreWriter` methods of the families that moved here.
public protocol SQLStoreSession: AnyObject {
    associatedtype Row: StoredRow

    var dialect: SQLDialect { get }
    /// Seals and opens the secret columns.
    var sealer: any SecretSealer { get }
    /// A writer's accounts as its transaction stored them (nil in a reader).
    var snapshots: AccountSnapshots? { get set }
    /// Whether the accounts and refresh sessions read are locked until the commit (a `.rowLocks` PostgreSQL writer).
    var locksRows: Bool { get }

    /// Cleared when the read or write closure returns; using the session afterwards is a programming error.
    var isOpen: Bool { get }
    /// The engine's error as a `StoreError` (any other error passes unchanged).
    func translate(_ error: any Error, operation: String) -> any Error
    /// The rows of `statement`, each decoded by `decode`.
    func query<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (Row) throws -> T) throws -> [T]
    /// The first row of `statement`, decoded; `nil` when there is none.
    func queryFirst<T>(_ statement: SQLStatement, _ binds: SQLBinds, _ decode: (Row) throws -> T) throws -> T?
    /// Runs `statement` and returns how many rows it changed.
    @discardableResult
    func execute(_ statement: SQLStatement, _ binds: SQLBinds) throws -> Int
    /// Runs a statement that may break a constraint, so that breaking one changes nothing and leaves the transaction
    /// usable (PostgreSQL runs it in a savepoint); `violation` then names the `StoreError` code to throw after the
    /// statement was undone (it may query the store), or `nil` to let the engine's error go on.
    @discardableResult
    func execute(
        _ statement: SQLStatement, _ binds: SQLBinds, violation: (SQLConstraintViolation) throws -> StoreError.Code?
    ) throws -> Int
    /// Runs `body` so that it changes nothing if it throws. PostgreSQL's savepoint statements travel with the
    /// statements around them (no round trip of their own); SQLite's run on the spot.
    func savepoint<T>(_ body: () throws -> T) throws -> T
}

extension SQLStoreSession {
    /// Runs one store operation: the engine's errors become `StoreError`s here and never go further.
    @discardableResult
    public func run<T>(_ operation: StaticString, _ body: () throws -> T) throws -> T {
        precondition(isOpen, "a StoreReader or StoreWriter was used after its read/write closure returned")
        do {
            return try body()
        } catch {
            throw translate(error, operation: "\(operation)")
        }
    }

    func query<T>(_ statement: SQLStatement, _ decode: (Row) throws -> T) throws -> [T] {
        try query(statement, [:], decode)
    }

    func queryFirst<T>(_ statement: SQLStatement, _ decode: (Row) throws -> T) throws -> T? {
        try queryFirst(statement, [:], decode)
    }

    @discardableResult
    func execute(_ statement: SQLStatement) throws -> Int { try execute(statement, [:]) }

    /// Whether `statement` finds a row.
    func exists(_ statement: SQLStatement, _ binds: SQLBinds) throws -> Bool {
        try queryFirst(statement, binds) { _ in true } ?? false
    }

    /// The value to bind for a secret kept in a BLOB/BYTEA column.
    func sealed(_ secret: [UInt8]?, _ field: SecretField) throws -> SQLValue {
        SQLValue(try secret.map { try sealer.seal($0, for: field) })
    }

    /// The value to bind for a secret kept in a TEXT column (sealed values are ASCII).
    func sealed(_ secret: String, _ field: SecretField) throws -> SQLValue {
        .text(String(decoding: try sealer.seal(Array(secret.utf8), for: field), as: UTF8.self))
    }
}

/// What each reader and writer of the SQL stores holds besides its engine's own state: the connection of its
/// transaction, and what ``SQLStoreSession`` asks for.
open class SQLStoreSessionBase<Connection> {
    public final let connection: Connection
    public final let dialect: SQLDialect
    /// Seals and opens the secret columns (signing keys, TOTP secrets, provider tokens).
    public final let sealer: any SecretSealer
    /// Cleared when the closure returns; using the reader afterwards is a programming error.
    public final var isOpen = true
    /// A writer's accounts as its transaction stored them (nil in a reader: nothing changes under it).
    public final var snapshots: AccountSnapshots?
    /// A PostgreSQL `.rowLocks` writer's: the accounts and refresh sessions it reads are locked (`FOR UPDATE`)
    /// until the commit.
    public final var locksRows = false

    public init(connection: Connection, dialect: SQLDialect, sealer: any SecretSealer) {
        self.connection = connection
        self.dialect = dialect
        self.sealer = sealer
    }
}

/// A store's reader: the `StoreReader` methods of ``SQLCatalogue``'s families come with it.
public protocol SQLStoreReading: SQLStoreSession, StoreReader {}

/// A store's writer: the `StoreWriter` methods of ``SQLCatalogue``'s families come with it.
public protocol SQLStoreWriting: SQLStoreReading, StoreWriter {}

/// Every statement the SQL stores share, by family (`SQLCatalogue+OOBCodes.swift`, …). Values only ever reach an
/// engine as bound parameters.
public enum SQLCatalogue {
    /// The lookups that must be served by an index (checked by each store's tests against its planner).
    public static var indexedLookups: [(name: String, statement: SQLStatement)] {
        oobCodeLookups + providerTokenRevocationLookups + limitCounterLookups + auditEventLookups
            + projectRecordLookups + mfaLookups + sessionLookups + tenantLookups
            + providerConfigLookups + samlAssertionLookups + projectConfigLookups
    }
}

extension SQLCatalogue {
    /// `a, b, c`.
    static func list(_ columns: some Sequence<String>) -> String { columns.joined(separator: ", ") }
    /// `:a, :b, :c`: the binds named by `columns`.
    static func binds(_ columns: some Sequence<String>) -> String { columns.map { ":\($0)" }.joined(separator: ", ") }
    /// `a = :a, b = :b`.
    static func assignments(_ columns: some Sequence<String>) -> String {
        columns.map { "\($0) = :\($0)" }.joined(separator: ", ")
    }
}
