import HearthCore
@testable import HearthPostgres
import HearthProtocol
@testable import Postgres
import Testing

/// `translatePostgresError`: what each PostgreSQL failure becomes, and that none of them reaches a client as a 500.
@Suite("PostgreSQL errors as store errors")
struct PostgresErrorTranslationTests {
    /// Failures of the database, its connection or a pooler in front of it: each is `.unavailable`, a 503.
    static let failures: [(String, PostgresError)] = [
        ("connection refused (no SQLSTATE)", PostgresError(message: "connection to the server failed: Connection refused", isConnectionFailure: true)),
        ("connection lost mid-statement", PostgresError(message: "server closed the connection unexpectedly", isConnectionFailure: true)),
        ("57P01 admin shutdown", PostgresError(sqlState: "57P01", message: "terminating connection due to administrator command", isConnectionFailure: true)),
        ("57P02 crash shutdown", PostgresError(sqlState: "57P02", message: "terminating connection because of crash of another server process", isConnectionFailure: true)),
        ("57P03 cannot connect now", PostgresError(sqlState: "57P03", message: "the database system is starting up", isConnectionFailure: true)),
        ("08006 connection failure", PostgresError(sqlState: "08006", message: "connection failure", isConnectionFailure: true)),
        ("08P01 PgBouncer's own error", PostgresError(sqlState: "08P01", message: "server conn crashed?", isConnectionFailure: true)),
        ("25006 read-only after a failover", PostgresError(sqlState: "25006", message: "cannot execute INSERT in a read-only transaction", isConnectionFailure: true)),
        ("53300 too many connections", PostgresError(sqlState: "53300", message: "sorry, too many clients already", isConnectionFailure: true)),
        ("53100 disk full", PostgresError(sqlState: "53100", message: "could not extend file")),
        ("57014 statement timeout", PostgresError(sqlState: "57014", message: "canceling statement due to statement timeout")),
        ("40001 serialization failure", PostgresError(sqlState: "40001", message: "could not serialize access")),
        ("42P01 a table missing", PostgresError(sqlState: "42P01", message: "relation does not exist")),
        ("26000 a named statement missing", PostgresError(sqlState: "26000", message: "prepared statement \"s1\" does not exist")),
        ("23505 on an unknown constraint", PostgresError(sqlState: "23505", message: "duplicate key value", constraint: "something_else_key")),
    ]

    @Test("failures of the database, its connection or a pooler are .unavailable, answered 503, never 500",
          arguments: failures)
    func failureIsUnavailable(name: String, error: PostgresError) throws {
        let translated = try #require(translatePostgresError(error, operation: "write") as? StoreError)
        #expect(translated.code == .unavailable, "\(name)")
        #expect(translated.detail.hasPrefix("write: "))
        let wire = WireFailure(translated)
        #expect(wire.wire.code == .unavailable, "\(name)")
        #expect(wire.wire.httpStatus == 503)
        #expect(wire.fault != nil)
    }

    @Test("the SQLSTATEs after which a session is dropped are connection failures; others are not")
    func sessionUnusableStates() {
        for state in ["08000", "08003", "08006", "08P01", "57P01", "57P02", "57P03", "25006"] {
            #expect(PostgresError.isConnectionFailure(sqlState: state), "\(state)")
        }
        for state in ["23505", "40001", "42P01", "53300", "57014", "22P02", nil] {
            #expect(!PostgresError.isConnectionFailure(sqlState: state), "\(state ?? "nil")")
        }
    }

    @Test("a closed pool is .closed, a known unique constraint its own code, a foreign key .notFound")
    func otherRows() throws {
        #expect((translatePostgresError(PostgresPoolClosedError(), operation: "read") as? StoreError)?.code == .closed)
        let duplicate = PostgresError(sqlState: "23505", message: "duplicate key value", constraint: "accounts_email_key")
        #expect((translatePostgresError(duplicate, operation: "write") as? StoreError)?.code == .duplicateEmail)
        let foreignKey = PostgresError(sqlState: "23503", message: "violates foreign key constraint")
        #expect((translatePostgresError(foreignKey, operation: "write") as? StoreError)?.code == .notFound)
        let own = StoreError(.duplicateToken)
        #expect(translatePostgresError(own, operation: "write") as? StoreError == own)
    }
}
