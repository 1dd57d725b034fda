internal import CSQLite

/// A failure reported by SQLite (or detected by this wrapper while talking to SQLite).
///
/// It carries the *extended* result code, SQLite's own message (`sqlite3_errmsg`) and the SQL text
/// of the statement, never the values bound to it: those may be tokens, emails or password hashes,
/// so they appear neither in `description` nor anywhere else in the error.
///
/// Match codes in `catch` clauses; a primary code matches all of its extended codes:
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO users(email) VALUES (?)", [.text(email)])
/// } catch SQLiteError.ResultCode.constraintUnique {
///     // the email is taken
/// } catch SQLiteError.ResultCode.constraint {
///     // some other constraint failed
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (for example `.constraintUnique`, whose primary code is `.constraint`).
    public let code: ResultCode
    /// SQLite's explanation (`sqlite3_errmsg`), or this wrapper's for errors it detects itself.
    public let message: String
    /// The SQL of the statement that failed, when there was one. Never contains bound values.
    public let sql: String?

    public init(code: ResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Whether the error has `code`; a primary code matches all of its extended codes, so
    /// `error.matches(.constraint)` is true for `.constraintUnique`.
    public func matches(_ code: ResultCode) -> Bool { code ~= self.code }

    public var description: String {
        var text = "SQLite error \(code.rawValue) (\(code.name)): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// An extended SQLite result code. The static constants use SQLite's names in camel case.
    public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code: the low 8 bits of an extended code.
        public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }
        /// Whether this is a primary code (which then matches all of its extended codes).
        public var isPrimary: Bool { rawValue == rawValue & 0xFF }

        public var description: String { "\(rawValue) (\(name))" }

        /// Matches `value` against `pattern`: exactly for an extended pattern, by primary code for a
        /// primary pattern (so `.constraint` matches `.constraintUnique`).
        public static func ~= (pattern: ResultCode, value: ResultCode) -> Bool {
            pattern.isPrimary ? pattern == value.primary : pattern == value
        }

        /// Lets `catch SQLiteError.ResultCode.constraint { … }` match thrown `SQLiteError`s.
        public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return pattern ~= error.code
        }

        // Primary codes.
        public static let ok = ResultCode(rawValue: 0)
        public static let error = ResultCode(rawValue: 1)
        public static let `internal` = ResultCode(rawValue: 2)
        public static let permission = ResultCode(rawValue: 3)
        public static let abort = ResultCode(rawValue: 4)
        public static let busy = ResultCode(rawValue: 5)
        public static let locked = ResultCode(rawValue: 6)
        public static let noMemory = ResultCode(rawValue: 7)
        public static let readOnly = ResultCode(rawValue: 8)
        public static let interrupt = ResultCode(rawValue: 9)
        public static let ioError = ResultCode(rawValue: 10)
        public static let corrupt = ResultCode(rawValue: 11)
        public static let notFound = ResultCode(rawValue: 12)
        public static let full = ResultCode(rawValue: 13)
        public static let cannotOpen = ResultCode(rawValue: 14)
        public static let `protocol` = ResultCode(rawValue: 15)
        public static let schema = ResultCode(rawValue: 17)
        public static let tooBig = ResultCode(rawValue: 18)
        public static let constraint = ResultCode(rawValue: 19)
        public static let mismatch = ResultCode(rawValue: 20)
        public static let misuse = ResultCode(rawValue: 21)
        public static let noLargeFileSupport = ResultCode(rawValue: 22)
        public static let authorization = ResultCode(rawValue: 23)
        public static let range = ResultCode(rawValue: 25)
        public static let notADatabase = ResultCode(rawValue: 26)
        public static let row = ResultCode(rawValue: 100)
        public static let done = ResultCode(rawValue: 101)

        // Extended codes (primary | n << 8).
        public static let busyRecovery = ResultCode(rawValue: 5 | 1 << 8)
        public static let busySnapshot = ResultCode(rawValue: 5 | 2 << 8)
        public static let busyTimeout = ResultCode(rawValue: 5 | 3 << 8)
        public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | 4 << 8)
        public static let constraintCheck = ResultCode(rawValue: 19 | 1 << 8)
        public static let constraintForeignKey = ResultCode(rawValue: 19 | 3 << 8)
        public static let constraintNotNull = ResultCode(rawValue: 19 | 5 << 8)
        public static let constraintPrimaryKey = ResultCode(rawValue: 19 | 6 << 8)
        public static let constraintTrigger = ResultCode(rawValue: 19 | 7 << 8)
        public static let constraintUnique = ResultCode(rawValue: 19 | 8 << 8)
        public static let constraintRowID = ResultCode(rawValue: 19 | 10 << 8)
        public static let constraintDataType = ResultCode(rawValue: 19 | 12 << 8)

        /// SQLite's name for the code (`SQLITE_CONSTRAINT_UNIQUE`), or `SQLITE_<number>` if unknown.
        public var name: String {
            switch self {
            case .constraintCheck: "SQLITE_CONSTRAINT_CHECK"
            case .constraintForeignKey: "SQLITE_CONSTRAINT_FOREIGNKEY"
            case .constraintNotNull: "SQLITE_CONSTRAINT_NOTNULL"
            case .constraintPrimaryKey: "SQLITE_CONSTRAINT_PRIMARYKEY"
            case .constraintTrigger: "SQLITE_CONSTRAINT_TRIGGER"
            case .constraintUnique: "SQLITE_CONSTRAINT_UNIQUE"
            case .constraintRowID: "SQLITE_CONSTRAINT_ROWID"
            case .constraintDataType: "SQLITE_CONSTRAINT_DATATYPE"
            case .busyRecovery: "SQLITE_BUSY_RECOVERY"
            case .busySnapshot: "SQLITE_BUSY_SNAPSHOT"
            case .busyTimeout: "SQLITE_BUSY_TIMEOUT"
            case .readOnlyDatabaseMoved: "SQLITE_READONLY_DBMOVED"
            default: Self.primaryNames[primary.rawValue].map { isPrimary ? $0 : "\($0) (extended \(rawValue))" }
                ?? "SQLITE_\(rawValue)"
            }
        }

        private static let primaryNames: [Int32: String] = [
            0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
            5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
            10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
            14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
            18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
            22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
            27: "SQLITE_NOTICE", 28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
        ]
    }
}

/// The one place where a SQLite return code becomes a Swift error.
///
/// Succeeds when `resultCode` is `success` (`SQLITE_OK` unless told otherwise). Otherwise throws a
/// `SQLiteError` with the code, the connection's current message (read at once, before any other
/// call on `db` can replace it) and the statement's SQL.
@inline(__always)
func sqliteCheck(_ resultCode: Int32, _ db: OpaquePointer?, sql: String? = nil, success: Int32 = SQLITE_OK) throws {
    if resultCode == success { return }
    throw sqliteError(resultCode, db, sql: sql)
}

/// Builds the error for a failed call; the slow path of `sqliteCheck`.
func sqliteError(_ resultCode: Int32, _ db: OpaquePointer?, sql: String?) -> SQLiteError {
    let message: String
    if let db, let text = sqlite3_errmsg(db) {
        message = String(cString: text)
    } else if let text = sqlite3_errstr(resultCode) {
        message = String(cString: text)
    } else {
        message = "unknown error"
    }
    return SQLiteError(code: SQLiteError.ResultCode(rawValue: resultCode), message: message, sql: sql)
}
