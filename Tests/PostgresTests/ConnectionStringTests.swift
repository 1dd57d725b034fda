@testable import Postgres
import Testing

/// `PostgresConnectionString`: what logs and errors may show of a connection string and of libpq's failures.
@Suite("Connection strings shown masked")
struct ConnectionStringTests {
    /// The pieces every secret below is made of; none may appear in what is shown.
    static let fragments = ["Zq7x", "Wv9k"]

    @Test("URIs and keyword/value strings: nothing of the password is shown, what is not secret stays",
          arguments: [
              // Unencoded special characters in the password (libpq misreads `/` and `@`; `#`, `?` and `:` it reads).
              ("postgres://hearth:Zq7x/Wv9k@db.internal:5432/hearth", "postgres://hearth:***@db.internal:5432/hearth"),
              ("postgres://hearth:Zq7x#Wv9k@db.internal/hearth", "postgres://hearth:***@db.internal/hearth"),
              ("postgres://hearth:Zq7x?Wv9k@db/hearth?sslmode=require", "postgres://hearth:***@db/hearth?sslmode=require"),
              ("postgres://hearth:Zq7x@Wv9k@db/hearth", "postgres://hearth:***@db/hearth"),
              ("postgres://hearth:Zq7x:Wv9k@db/hearth", "postgres://hearth:***@db/hearth"),
              ("postgres://hearth:Zq7x/?#@:Wv9k@db/hearth", "postgres://hearth:***@db/hearth"),
              // Percent-encoded, as it should be.
              ("postgres://hearth:Zq7x%2FWv9k%40@db/hearth", "postgres://hearth:***@db/hearth"),
              ("postgres://my%40user:Zq7xWv9k@db/hearth", "postgres://my%40user:***@db/hearth"),
              // Several hosts, the other scheme, upper case.
              ("postgres://hearth:Zq7x/Wv9k@h1:5432,h2:5433/hearth", "postgres://hearth:***@h1:5432,h2:5433/hearth"),
              ("postgres://hearth:Zq7xWv9k@h1:5432,h2:5433/hearth?target_session_attrs=read-write",
               "postgres://hearth:***@h1:5432,h2:5433/hearth?target_session_attrs=read-write"),
              ("postgres://h1,h2,h3/hearth?target_session_attrs=read-write&password=Zq7x",
               "postgres://h1,h2,h3/hearth?target_session_attrs=read-write&password=***"),
              ("postgresql://hearth:Zq7x/Wv9k@db/hearth", "postgresql://hearth:***@db/hearth"),
              ("POSTGRES://hearth:Zq7x@Wv9k@db/hearth", "POSTGRES://hearth:***@db/hearth"),
              // A user part that is not a plain name is hidden whole.
              ("postgres://Zq7x/Wv9k@db/hearth", "postgres://***@db/hearth"),
              ("postgres://hear th:Zq7x@Wv9k@db/hearth", "postgres://***@db/hearth"),
              // No password: nothing hidden.
              ("postgres://hearth@db/hearth?sslmode=verify-full", "postgres://hearth@db/hearth?sslmode=verify-full"),
              ("postgres://db.internal/hearth", "postgres://db.internal/hearth"),
              // The password as a parameter: hidden to the end, whatever follows or is in it.
              ("postgres://hearth@db/hearth?sslmode=require&password=Zq7x/Wv9k&application_name=x",
               "postgres://hearth@db/hearth?sslmode=require&password=***"),
              ("postgres://db/hearth?password=Zq7x&Wv9k", "postgres://db/hearth?password=***"),
              ("postgres://db/hearth?pass%77ord=Zq7x/Wv9k", "postgres://db/hearth?pass%77ord=***"),
              ("postgres://db/hearth?sslpassword=Zq7x#Wv9k", "postgres://db/hearth?sslpassword=***"),
              ("postgres://db/hearth?password=Zq7x@Wv9k", "postgres://***"),
              ("postgres://hearth:Zq7x?password=Wv9k@db/hearth", "postgres://hearth:***"),
              ("postgres://hearth:Zq7x@db/hearth?password=Wv9k", "postgres://hearth:***@db/hearth?password=***"),
              // libpq's keyword/value form.
              ("host=db port=5432 password=Zq7x/Wv9k dbname=hearth", "host=db port=5432 password=*** dbname=hearth"),
              ("host=db password = 'Zq7x Wv9k' user=hearth", "host=db password = *** user=hearth"),
              ("host=db password='Zq7x\\' Wv9k' user=hearth", "host=db password=*** user=hearth"),
              ("host=db PASSWORD=Zq7x sslpassword=Wv9k", "host=db PASSWORD=*** sslpassword=***"),
              ("host=db password='Zq7x Wv9k", "host=db***"),
              ("host=db oops Zq7x password=Wv9k", "host=db***"),
          ])
    func masked(connectionString: String, expected: String) {
        let shown = PostgresConnectionString.masked(connectionString)
        #expect(shown == expected)
        for fragment in Self.fragments {
            #expect(!shown.contains(fragment), "\(shown)")
        }
    }

    @Test("libpq's failures lose the host, port and names it quotes, and the password it read",
          arguments: [
              (#"could not translate host name "Wv9k@127.0.0.1" to address: Name or service not known"#,
               #"could not translate host name "***" to address: Name or service not known"#),
              (#"invalid integer value "Zq7x" for connection option "port""#, #"invalid integer value "***""#),
              ("connection to server at \"Wv9k\" (127.0.0.1), port 9876 failed: Connection refused\n"
                  + "\tIs the server running on that host and accepting TCP/IP connections?",
               "connection to the server failed: Connection refused\n"
                  + "\tIs the server running on that host and accepting TCP/IP connections?"),
              (#"connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "Wv9k@db" does not exist"#,
               #"connection to the server failed: FATAL:  database "***" does not exist"#),
              (#"connection to server on socket "/tmp/Wv9k/.s.PGSQL.5432" failed: No such file or directory"#,
               "connection to the server failed: No such file or directory"),
              (#"unterminated "Wv9k quote"#, #"unterminated "***""#),
              ("a message that repeats Zq7x/Wv9k itself", "a message that repeats *** itself"),
          ])
    func maskedFailure(message: String, expected: String) {
        let shown = PostgresConnectionString.maskedFailure(message, password: "Zq7x/Wv9k")
        #expect(shown == expected)
        for fragment in Self.fragments {
            #expect(!shown.contains(fragment), "\(shown)")
        }
    }

    @Test("pool_mode is taken out of the URL for libpq and says whether a pooler in transaction mode is in between",
          arguments: [
              ("postgres://hearth@bouncer:6432/hearth?pool_mode=transaction", "postgres://hearth@bouncer:6432/hearth", "transaction"),
              ("postgres://hearth@bouncer:6432/hearth?pool_mode=transaction&sslmode=require",
               "postgres://hearth@bouncer:6432/hearth?sslmode=require", "transaction"),
              ("postgres://hearth@bouncer:6432/hearth?sslmode=require&pool_mode=session&connect_timeout=5",
               "postgres://hearth@bouncer:6432/hearth?sslmode=require&connect_timeout=5", "session"),
              ("postgres://hearth:Zq7x@h1:5432,h2:5432/hearth?target_session_attrs=read-write&pool_mode=transaction",
               "postgres://hearth:Zq7x@h1:5432,h2:5432/hearth?target_session_attrs=read-write", "transaction"),
              ("postgres://hearth@db/hearth?application_name=no_pool_mode=here", "postgres://hearth@db/hearth?application_name=no_pool_mode=here", "session"),
              ("postgres://hearth@db/hearth", "postgres://hearth@db/hearth", "session"),
              ("host=db dbname=hearth", "host=db dbname=hearth", "session"),
          ])
    func poolMode(url: String, forLibpq: String, mode: String) throws {
        let (stripped, poolMode) = try PostgresConnectionString.poolMode(url)
        #expect(stripped == forLibpq)
        #expect(poolMode.rawValue == mode)
    }

    @Test("a pool_mode other than session or transaction is refused without repeating the URL")
    func unknownPoolMode() {
        let error = #expect(throws: PostgresError.self) {
            try PostgresConnectionString.poolMode("postgres://hearth:Zq7xWv9k@db/hearth?pool_mode=statement")
        }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.message.contains("Zq7x") == false)
        #expect(error?.message.contains("pool_mode") == true)
    }
}
