import Foundation
import HearthCore
import HearthSQLShared
@testable import HearthPostgres
import Postgres
import Synchronization
import Testing

/// What only the PostgreSQL store has: its schema's version table, migrating once when several processes open a
/// fresh database, retrying writes that lost a race, reconnecting after its connections were ended.
@Suite("PostgresStore")
struct PostgresStoreTests {
    /// A fresh database (dropped with the directory) and its URL.
    struct Database {
        let directory: TemporaryDirectory
        let url: String

        init() throws {
            directory = try TemporaryDirectory()
            url = try PostgresTestDatabase.url(forDirectory: directory.path)
        }

        /// Runs `body` on a connection of its own to the database, behind the store's back.
        func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
            let connection = try PostgresConnection(url: url)
            defer { connection.close() }
            return try body(connection)
        }

        /// The tables of the database's public schema, with the number of rows of `hearth_schema`.
        func tables() throws -> [String] {
            try withConnection { connection in
                try connection.query(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
                ).map { try $0.requiredText(0) }
            }
        }

        func versions() throws -> [Int64] {
            try withConnection { connection in
                try connection.query("SELECT version FROM hearth_schema ORDER BY version").map { try $0.requiredInt64(0) }
            }
        }
    }

    @Test("a fresh database gets the schema at the latest version, recorded once")
    func freshDatabase() throws {
        let database = try Database()
        try PostgresStore(url: database.url).close()
        try PostgresStore(url: database.url).close()
        #expect(try database.versions() == PostgresSchema.migrations.map { Int64($0.version) })
        #expect(try database.tables().contains("accounts"))
    }

    @Test("a database with a newer schema is refused as corrupt and left untouched")
    func newerSchema() throws {
        let database = try Database()
        try PostgresStore(url: database.url).close()
        try database.withConnection { try $0.execute("INSERT INTO hearth_schema (version, name) VALUES (99, 'future')") }
        let tables = try database.tables()
        #expect(throws: StoreError(.corrupt)) { try PostgresStore(url: database.url) }
        #expect(try database.versions().last == 99)
        #expect(try database.tables() == tables)
    }

    @Test("a database whose schema holds another program's tables is refused and left untouched")
    func foreignDatabase() throws {
        let database = try Database()
        try database.withConnection { try $0.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)") }
        #expect(throws: StoreError(.corrupt)) { try PostgresStore(url: database.url) }
        #expect(try database.tables() == ["notes"])
    }

    @Test("a database that is not UTF8 is refused as unavailable, with a clear message")
    func notUTF8() throws {
        let directory = try TemporaryDirectory()
        let name = PostgresTestDatabase.name(forDirectory: directory.path)
        try PostgresTestDatabase.withServer {
            try $0.execute("CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'SQL_ASCII' LOCALE 'C'")
        }
        // Dropped with the directory.
        let marker = URL(fileURLWithPath: directory.path).appendingPathComponent(PostgresTestDatabase.markerFile)
        try Data(name.utf8).write(to: marker)
        let url = try PostgresTestDatabase.url(database: name)
        let error = #expect(throws: StoreError.self) { try PostgresStore(url: url) }
        #expect(error?.code == .unavailable)
        #expect(error?.detail.contains("UTF8") == true)
    }

    @Test("an unreachable server is unavailable, and the message does not show the URL's password")
    func unreachable() throws {
        let error = #expect(throws: StoreError.self) {
            try PostgresStore(url: "postgres://hearth:pw-not-shown@127.0.0.1:1/hearth?connect_timeout=2")
        }
        #expect(error?.code == .unavailable)
        #expect(error.map { "\($0)" }?.contains("pw-not-shown") == false)
    }

    @Test("several stores opening a fresh database at the same moment migrate it once")
    func concurrentFirstOpen() throws {
        let database = try Database()
        let url = database.url
        let results = concurrently(8) { () throws -> Bool in
            let store = try PostgresStore(url: url, poolSize: 1)
            defer { store.close() }
            try store.write { try $0.insertSigningKey(signingKey(UUID().uuidString, createdAt: 1)) }
            return true
        }
        #expect(results.allSatisfy { (try? $0.get()) == true })
        #expect(try database.versions() == PostgresSchema.migrations.map { Int64($0.version) })
    }

    /// Two writers of one counter, the first made to read it before and write it after the second commits: the
    /// first one's transaction cannot be serialized, so it runs again (seeing the second one's count).
    private func losingRace(_ store: PostgresStore) throws -> (result: Result<Void, any Error>, runs: Int) {
        try store.write { try $0.saveLimitCounter(LimitCounter(key: "race", windowStartMillis: 0, expiresAtMillis: 1)) }
        let runs = Atomic(0)
        let firstHasRead = DispatchSemaphore(value: 0)
        let secondCommitted = DispatchSemaphore(value: 0)
        let second = Thread {
            firstHasRead.wait()
            _ = try? store.write { writer in
                var counter = try writer.limitCounter(key: "race")!
                counter.count += 1
                try writer.saveLimitCounter(counter)
            }
            secondCommitted.signal()
        }
        second.start()
        let result = Result {
            try store.write { writer in
                var counter = try writer.limitCounter(key: "race")!
                if runs.add(1, ordering: .relaxed).newValue == 1 {
                    firstHasRead.signal()
                    secondCommitted.wait()
                }
                counter.count += 1
                try writer.saveLimitCounter(counter)
            }
        }
        return (result, runs.load(ordering: .relaxed))
    }

    @Test("a write that loses a race with another is rolled back and run again, and loses no update")
    func retriesSerializationFailures() throws {
        try withStore(StoreKind.postgres) { store throws in
            let store = store as! PostgresStore
            let (result, runs) = try losingRace(store)
            #expect(throws: Never.self) { try result.get() }
            #expect(runs == 2)
            #expect(try store.read { try $0.limitCounter(key: "race") }?.count == 2)
        }
    }

    @Test("each rerun of a write is reported to onWriteRetry (the metrics' retry counter)")
    func reportsRetries() throws {
        let database = try Database()
        let retries = Atomic(0)
        let store = try PostgresStore(url: database.url, poolSize: 2, onWriteRetry: { retries.add(1, ordering: .relaxed) })
        defer { store.close() }
        let (result, runs) = try losingRace(store)
        #expect(throws: Never.self) { try result.get() }
        #expect(runs == 2)
        #expect(retries.load(ordering: .relaxed) == 1)
    }

    @Test("a write still losing after the last attempt is unavailable")
    func givesUp() throws {
        let database = try Database()
        let store = try PostgresStore(
            url: database.url, poolSize: 2, sealer: PlaintextSecretSealer(), retry: WriteRetryPolicy(maxAttempts: 1))
        defer { store.close() }
        let (result, runs) = try losingRace(store)
        #expect(throws: StoreError(.unavailable)) { try result.get() }
        #expect(runs == 1)
        #expect(try store.read { try $0.limitCounter(key: "race") }?.count == 1)
    }

    @Test("after every connection of the store was ended by the server, the next calls reconnect and succeed")
    func reconnects() throws {
        let database = try Database()
        let store = try PostgresStore(url: database.url, poolSize: 4)
        defer { store.close() }
        // Open every connection of the pool.
        let opened = concurrently(4) {
            try store.read { reader in
                _ = try reader.accountCount()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        #expect(opened.allSatisfy { (try? $0.get()) != nil })
        let name = PostgresTestDatabase.name(forDirectory: database.directory.path)
        let ended = try PostgresTestDatabase.withServer { server in
            try server.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                [.text(name)]
            ).count
        }
        #expect(ended >= 1)
        try store.write { try $0.insertAccount(bareAccount("after")) }
        #expect(try store.read { try $0.account(localID: "after") } == bareAccount("after"))
    }

    @Test("with one connection, a write whose body threw, or that caught a failed insert, leaves it usable")
    func connectionRolledBackBeforeReuse() throws {
        struct Abort: Error {}
        let database = try Database()
        let store = try PostgresStore(url: database.url, poolSize: 1)
        defer { store.close() }
        #expect(throws: Abort.self) {
            try store.write { writer in
                try writer.insertAccount(bareAccount("dropped"))
                throw Abort()
            }
        }
        // A failed insert (PostgreSQL text cannot hold NUL) changes nothing; the body goes on and commits.
        try store.write { writer in
            #expect(throws: StoreError(.unavailable)) { try writer.insertAccount(bareAccount("nul-\u{0}")) }
            try writer.insertAccount(bareAccount("after-failure"))
        }
        try store.write { try $0.insertAccount(bareAccount("kept")) }
        #expect(try store.read { try $0.accounts(after: nil, limit: 10) }.map(\.localID) == ["after-failure", "kept"])
    }

    @Test("an audit event holding NUL is refused without breaking the write, which goes on and commits")
    func auditEventWithNUL() throws {
        let database = try Database()
        let store = try PostgresStore(url: database.url)
        defer { store.close() }
        try store.write { writer in
            var event = AuditConformanceTests.event(1_000, "nul")
            event.detail = "a\u{0}b"
            #expect(throws: StoreError(.unavailable)) { try writer.insertAuditEvent(event) }
            try writer.insertAuditEvent(AuditConformanceTests.event(2_000, "kept"))
        }
        #expect(try store.read { try $0.auditEvents(AuditQuery()) }.map(\.atMillis) == [2_000])
    }

    /// Every lookup the store runs by key, and the lookups of `ON DELETE CASCADE` when an account is deleted.
    static let indexedLookups: [(name: String, sql: String)] = [
            ("cascade to identities", "SELECT 1 FROM identities WHERE local_id = $1"),
            ("cascade to mfa_enrollments", "SELECT 1 FROM mfa_enrollments WHERE local_id = $1"),
            ("cascade to mfa_pending_sign_ins", "SELECT 1 FROM mfa_pending_sign_ins WHERE local_id = $1"),
        ] + SQLCatalogue.indexedLookups.map { ($0.name, $0.statement.postgres.sql) }

    @Test("every lookup is served by an index (no sequential scan when PostgreSQL is told to avoid them)")
    func everyLookupIsIndexed() throws {
        let database = try Database()
        try PostgresStore(url: database.url).close()
        try database.withConnection { connection in
            try connection.execute("SET enable_seqscan = off")
            for (name, sql) in Self.indexedLookups {
                let parameterCount = (1...20).last { sql.contains("$\($0)") } ?? 0
                // "0" reads as any type of parameter: text, a number, a boolean, bytes.
                let plan = try connection.query("EXPLAIN " + sql, Array(repeating: .text("0"), count: parameterCount))
                    .map { try $0.requiredText(0) }
                #expect(!plan.contains { $0.contains("Seq Scan") }, "\(name): \(plan.joined(separator: " / "))")
            }
        }
    }

    @Test("ids sort in byte order although the database's collation does not")
    func byteOrderUnderICU() throws {
        try withStore(StoreKind.postgres) { store throws in
            try store.write { writer in
                for id in ["b", "B", "a", "A", "é", "z"] { try writer.insertAccount(bareAccount(id)) }
            }
            let ids = try store.read { try $0.accounts(after: nil, limit: 10) }.map(\.localID)
            #expect(ids == ["A", "B", "a", "b", "z", "é"])
        }
    }
}

extension StoreKind {
    static var postgres: StoreKind { allCases.first { $0.name == "PostgresStore" }! }
}
