/// A failure reported by PostgreSQL or libpq, or detected by this wrapper.
///
/// It carries the SQLSTATE, the primary message and the constraint name, never parameter values: the server's
/// DETAIL line (which repeats key values) is left out, and in data-exception messages (SQLSTATE class 22, such as
/// `invalid input syntax for type bigint: "…"`) every quoted value is replaced by `…`. A connection string's
/// password never appears in it.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/errcodes-appendix.html>
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// SQLSTATE (e.g. "23505"), `nil` for client-side/connection failures without one.
    public let sqlState: String?
    /// Server or libpq message (never parameter values; a connection string's password is never included).
    public let message: String
    /// For constraint violations: the constraint's name (PG_DIAG_CONSTRAINT_NAME).
    public let constraint: String?
    /// The connection is unusable (CONNECTION_BAD, or a SQLSTATE of ``sessionUnusableStates``): drop it and use
    /// another one.
    public let isConnectionFailure: Bool

    public init(sqlState: String? = nil, message: String, constraint: String? = nil, isConnectionFailure: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.isConnectionFailure = isConnectionFailure
    }

    /// A unique constraint was violated (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// The transaction lost a race with another one and may succeed when run again: a serialization failure
    /// (40001) or a deadlock (40P01).
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let constraint { text += " (constraint \(constraint))" }
        return text
    }

    /// Whether a SQLSTATE means the session cannot be used any more, so the connection must be dropped and a new
    /// one opened: connection exceptions (class 08, which PgBouncer also uses for its own failures), the server
    /// shutting the session down (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), and 25006
    /// (read-only transaction: the session is on a server that is, or became, a standby, as after a failover; a new
    /// connection with `target_session_attrs=read-write` finds the primary).
    static func isConnectionFailure(sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || sessionUnusableStates.contains(sqlState)
    }

    /// The SQLSTATEs outside class 08 after which a session is not used again.
    static let sessionUnusableStates: Set<String> = ["57P01", "57P02", "57P03", "25006"]

    /// `message` without the values a data exception (SQLSTATE class 22) quotes: every `"…"` part is replaced by
    /// `"…"`, so `invalid input syntax for type bigint: "secret"` keeps its meaning but loses the value.
    static func withoutQuotedValues(_ message: String, sqlState: String?) -> String {
        guard let sqlState, sqlState.hasPrefix("22") else { return message }
        var result = ""
        var insideQuotes = false
        for character in message {
            if character == "\"" {
                result += insideQuotes ? "…\"" : "\""
                insideQuotes.toggle()
            } else if !insideQuotes {
                result.append(character)
            }
        }
        return result
    }
}
