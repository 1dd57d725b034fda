import SQLite
import Testing

@Suite("Transactions and savepoints")
struct TransactionTests {
    struct Abort: Error {}

    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x INTEGER UNIQUE)")
    }

    func values() throws -> [Int] {
        try connection.queryAll("SELECT x FROM t ORDER BY x") { try Int($0.requiredInt64(0)) }
    }

    @Test("a transaction commits when its body returns", arguments: [
        SQLiteConnection.TransactionKind.deferred, .immediate, .exclusive,
    ])
    func commits(kind: SQLiteConnection.TransactionKind) throws {
        let result = try connection.transaction(kind) {
            #expect(connection.isInTransaction)
            try connection.execute("INSERT INTO t VALUES (1)")
            return "done"
        }
        #expect(result == "done")
        #expect(!connection.isInTransaction)
        #expect(try values() == [1])
    }

    @Test("a transaction rolls back when its body throws")
    func rollsBack() throws {
        try connection.execute("INSERT INTO t VALUES (1)")
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (2)")
                try connection.execute("DELETE FROM t WHERE x = 1")
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try values() == [1])
    }

    @Test("transactions do not nest")
    func noNesting() throws {
        try connection.transaction {
            expectSQLiteError(.error) { try connection.transaction { () } }
            try connection.execute("INSERT INTO t VALUES (5)")
        }
        #expect(try values() == [5])
    }

    @Test("a failed savepoint undoes only its own changes")
    func savepoints() throws {
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (1)")
            expectSQLiteError(.constraintUnique) {
                try connection.savepoint {
                    try connection.execute("INSERT INTO t VALUES (2)")
                    try connection.execute("INSERT INTO t VALUES (1)")
                }
            }
            #expect(connection.isInTransaction)
            #expect(try values() == [1])
            try connection.savepoint {
                try connection.execute("INSERT INTO t VALUES (3)")
                // Savepoints nest.
                #expect(throws: Abort.self) {
                    try connection.savepoint {
                        try connection.execute("INSERT INTO t VALUES (4)")
                        throw Abort()
                    }
                }
            }
        }
        #expect(try values() == [1, 3])
    }

    @Test("a savepoint outside a transaction commits on its own")
    func savepointAlone() throws {
        try connection.savepoint { try connection.execute("INSERT INTO t VALUES (9)") }
        #expect(!connection.isInTransaction)
        #expect(try values() == [9])
    }
}
