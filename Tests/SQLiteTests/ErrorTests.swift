import SQLite
import Testing

@Suite("Errors")
struct ErrorTests {
    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.executeScript(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE person (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT UNIQUE,
                age INTEGER NOT NULL CHECK (age >= 0),
                parent_id INTEGER REFERENCES parent(id)
            ) STRICT;
            INSERT INTO parent(id) VALUES (1);
            INSERT INTO person(id, email, age) VALUES ('p1', 'taken@example.com', 30);
            """)
    }

    func insert(id: String, email: String?, age: Int64?, parent: Int64? = nil) throws {
        try connection.execute(
            "INSERT INTO person(id, email, age, parent_id) VALUES (?, ?, ?, ?)",
            [.text(id), SQLiteValue(email), SQLiteValue(age), SQLiteValue(parent)])
    }

    @Test("constraint failures carry their extended code")
    func constraintCodes() throws {
        #expect(expectSQLiteError(.constraintUnique) { try insert(id: "p2", email: "taken@example.com", age: 1) }?
            .code == .constraintUnique)
        #expect(expectSQLiteError(.constraintPrimaryKey) { try insert(id: "p1", email: nil, age: 1) }?
            .code == .constraintPrimaryKey)
        #expect(expectSQLiteError(.constraintNotNull) { try insert(id: "p3", email: nil, age: nil) }?
            .code == .constraintNotNull)
        #expect(expectSQLiteError(.constraintCheck) { try insert(id: "p4", email: nil, age: -1) }?
            .code == .constraintCheck)
        #expect(expectSQLiteError(.constraintForeignKey) { try insert(id: "p5", email: nil, age: 1, parent: 9) }?
            .code == .constraintForeignKey)
        expectSQLiteError(.constraintDataType) {
            try connection.execute("INSERT INTO person(id, age) VALUES ('p6', ?)", [.text("old")])
        }
        try insert(id: "p7", email: nil, age: 1, parent: 1)
    }

    @Test("a primary code matches its extended codes in catch clauses")
    func primaryCodeMatching() throws {
        var caught = ""
        do {
            try insert(id: "p2", email: "taken@example.com", age: 1)
        } catch SQLiteError.ResultCode.busy {
            caught = "busy"
        } catch SQLiteError.ResultCode.constraintPrimaryKey {
            caught = "primary key"
        } catch SQLiteError.ResultCode.constraint {
            caught = "constraint"
        }
        #expect(caught == "constraint")

        #expect(SQLiteError.ResultCode.constraint ~= .constraintUnique)
        #expect(SQLiteError.ResultCode.constraint ~= .constraint)
        #expect(!(SQLiteError.ResultCode.constraintUnique ~= .constraint))
        #expect(!(SQLiteError.ResultCode.constraintUnique ~= .constraintPrimaryKey))
        #expect(!(SQLiteError.ResultCode.busy ~= .constraintUnique))
        let unique = SQLiteError(code: .constraintUnique, message: "m")
        #expect(unique.matches(.constraint))
        #expect(unique.matches(.constraintUnique))
        #expect(!unique.matches(.constraintPrimaryKey))
        #expect(!unique.matches(.busy))
        #expect(SQLiteError.ResultCode.constraintUnique.primary == .constraint)
        #expect(SQLiteError.ResultCode.constraint.isPrimary)
        #expect(!SQLiteError.ResultCode.constraintUnique.isPrimary)
        #expect(SQLiteError.ResultCode.constraintUnique.name == "SQLITE_CONSTRAINT_UNIQUE")
        #expect(SQLiteError.ResultCode.notADatabase.name == "SQLITE_NOTADB")
        #expect(SQLiteError.ResultCode(rawValue: 4242).name == "SQLITE_4242")
    }

    @Test("errors carry the message and the SQL but never the bound values")
    func errorContents() throws {
        let secret = "hunter2-very-secret"
        let error = expectSQLiteError(.constraintUnique) {
            try connection.execute(
                "INSERT INTO person(id, email, age) VALUES (?, ?, ?)",
                [.text(secret), .text("taken@example.com"), .integer(5)])
        }
        #expect(error?.message == "UNIQUE constraint failed: person.email")
        #expect(error?.sql == "INSERT INTO person(id, email, age) VALUES (?, ?, ?)")
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("SQLITE_CONSTRAINT_UNIQUE"))
        #expect(description.contains("UNIQUE constraint failed: person.email"))
        #expect(description.contains("INSERT INTO person"))
        #expect(!description.contains(secret))
        #expect(!description.contains("taken@example.com"))
        #expect(!String(reflecting: error as Any).contains(secret))
    }

    @Test("syntax errors and unknown tables fail when prepared")
    func prepareErrors() throws {
        let syntax = expectSQLiteError(.error) { try connection.execute("SELEC 1") }
        #expect(syntax?.message.contains("syntax error") == true)
        expectSQLiteError(.error) { try connection.execute("SELECT * FROM nowhere") }
        // Double-quoted strings are identifiers only (SQLITE_DBCONFIG_DQS_* are off).
        expectSQLiteError(.error) { try connection.execute(#"SELECT "not a column""#) }
    }

    @Test("prepare accepts exactly one statement")
    func oneStatement() throws {
        expectSQLiteError(.misuse) { try connection.prepare("SELECT 1; SELECT 2") }
        expectSQLiteError(.misuse) { try connection.prepare("   ") }
        expectSQLiteError(.misuse) { try connection.prepare("-- only a comment") }
        _ = try connection.prepare("SELECT 1;  \n")
    }

    @Test("scripts run several statements but take no parameters")
    func scripts() throws {
        try connection.executeScript("CREATE TABLE a (x); INSERT INTO a VALUES (1); -- done\n INSERT INTO a VALUES (2);")
        #expect(try connection.queryFirst("SELECT sum(x) FROM a") { $0.int(0) } == 3)
        expectSQLiteError(.misuse) { try connection.executeScript("INSERT INTO a VALUES (?)") }
        let failure = expectSQLiteError(.error) { try connection.executeScript("INSERT INTO a VALUES (4); BOGUS;") }
        #expect(failure?.sql?.contains("BOGUS") == true)
        #expect(try connection.queryFirst("SELECT count(*) FROM a") { $0.int(0) } == 3)
    }

    @Test("opening a missing directory fails with cannotOpen")
    func cannotOpen() throws {
        let directory = try TemporaryDirectory()
        expectSQLiteError(.cannotOpen) { try SQLiteConnection(path: directory.file("missing/x.sqlite")) }
        expectSQLiteError(.cannotOpen) { try SQLiteConnection(path: directory.file("absent.sqlite"), mode: .readWrite) }
    }
}
