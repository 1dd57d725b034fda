import SQLite
import Testing

@Suite("Connection variables (setVariable)")
struct VariableTests {
    @Test("a variable answers its latest value, also in a cached statement and through an index lookup")
    func latestValue() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (scope TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (scope, name))")
        try connection.execute("INSERT INTO t VALUES ('', 'project'), ('a', 'tenant a')")
        let query = "SELECT name FROM t WHERE scope = current_scope()"
        try connection.setVariable("current_scope", to: "")
        #expect(try connection.queryAll(query) { $0.text(0) } == ["project"])
        try connection.setVariable("current_scope", to: "a")
        #expect(try connection.queryAll(query) { $0.text(0) } == ["tenant a"])
        try connection.setVariable("current_scope", to: "ü-none")
        #expect(try connection.queryAll(query) { $0.text(0) }.isEmpty)
        let plan = try connection.queryAll("EXPLAIN QUERY PLAN " + query) { $0.text(3) ?? "" }
        #expect(plan.contains { $0.contains("USING") && $0.contains("INDEX") }, "\(plan)")
    }

    @Test("a function that was never set does not exist")
    func undefined() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        #expect(throws: SQLiteError.self) { try connection.queryFirst("SELECT current_scope()") { $0.text(0) } }
    }
}
