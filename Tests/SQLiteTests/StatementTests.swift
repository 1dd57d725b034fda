import SQLite
import Testing

@Suite("Statements and the statement cache")
struct StatementTests {
    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    }

    @Test("statements are prepared once per SQL text and reused")
    func cacheReuse() throws {
        let before = connection.cachedStatementCount
        for index in 0..<50 {
            try connection.execute("INSERT INTO t(name) VALUES (?)", [.text("n\(index)")])
        }
        #expect(connection.cachedStatementCount == before + 1)
        let names = try connection.queryAll("SELECT name FROM t WHERE id <= ? ORDER BY id", [.integer(3)]) {
            $0.text(0)
        }
        #expect(names == ["n0", "n1", "n2"])
        #expect(connection.cachedStatementCount == before + 2)
        // Reused with fresh bindings: no value of the previous run leaks into the next.
        #expect(try connection.queryFirst("SELECT name FROM t WHERE id = ?", [.integer(2)]) { $0.text(0) } == "n1")
        #expect(try connection.queryFirst("SELECT name FROM t WHERE id = ?", [.integer(99)]) { $0.text(0) } == nil)
        connection.clearStatementCache()
        #expect(connection.cachedStatementCount == 0)
        #expect(try connection.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 50)
    }

    @Test("the same SQL can run again while its cached statement is being stepped")
    func reentrantUse() throws {
        for name in ["a", "b", "c"] { try connection.execute("INSERT INTO t(name) VALUES (?)", [.text(name)]) }
        var pairs: [String] = []
        try connection.query("SELECT name FROM t ORDER BY id") { outer throws in
            let first = outer.text(0)!
            try connection.query("SELECT name FROM t ORDER BY id") { inner throws in
                pairs.append(first + inner.text(0)!)
            }
        }
        #expect(pairs == ["aa", "ab", "ac", "ba", "bb", "bc", "ca", "cb", "cc"])
    }

    @Test("execute returns the number of changed rows")
    func changes() throws {
        #expect(try connection.execute("INSERT INTO t(name) VALUES ('x'), ('y'), ('z')") == 3)
        #expect(try connection.execute("UPDATE t SET name = 'w' WHERE name <> ?", [.text("x")]) == 2)
        #expect(try connection.execute("DELETE FROM t WHERE name = 'nobody'") == 0)
        #expect(try connection.execute("SELECT * FROM t") == 0)
        #expect(try connection.execute("DELETE FROM t") == 3)
        try connection.execute("INSERT INTO t(id, name) VALUES (77, 'q')")
        #expect(connection.lastInsertRowID == 77)
    }

    @Test("a statement prepared by hand is stepped, reset and reused")
    func manualStatement() throws {
        let insert = try connection.prepare("INSERT INTO t(name) VALUES (?)")
        #expect(insert.parameterCount == 1)
        #expect(!insert.isReadOnly)
        for name in ["p", "q"] {
            try insert.bind(.text(name), at: 1)
            #expect(try insert.step() == false)
            insert.reset()
        }
        let select = try connection.prepare("SELECT id, name FROM t ORDER BY id")
        #expect(select.isReadOnly)
        #expect(select.columnCount == 2)
        var names: [String] = []
        while try select.step() { names.append(select.row.text(1) ?? "") }
        #expect(names == ["p", "q"])
        // After reset the statement runs from the start again.
        select.reset()
        #expect(try select.step())
        #expect(select.row.text(1) == "p")
    }
}
