import Foundation
import HearthCore
import HearthPostgres
import HearthSQLite
import Postgres
import SQLite
import Testing

/// Databases frozen with the schema from before scopes (Tests/Fixtures/README.md: SQLite schema 11, PostgreSQL 3),
/// opened with today's code: every record is there, in the project scope, and the keys are unique per scope now.
@Suite("Frozen-schema upgrades")
struct FrozenSchemaUpgradeTests {
    static func fixture(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("SQLiteStore: a database of schema 11 keeps every record, in the project scope")
    func sqlite() throws {
        let directory = try TemporaryDirectory()
        let path = "\(directory.path)/hearth.sqlite"
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.executeScript(try Self.fixture("frozen-before-scopes.sqlite.sql"))
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        try checkUpgraded(store)
    }

    @Test("PostgresStore: a database of schema 3 keeps every record, in the project scope")
    func postgres() throws {
        let directory = try TemporaryDirectory()
        let url = try PostgresTestDatabase.url(forDirectory: directory.path)
        do {
            let connection = try PostgresConnection(url: url)
            defer { connection.close() }
            // Without psql's meta-commands (pg_dump's `\restrict` guard), which only psql understands.
            let dump = try Self.fixture("frozen-before-scopes.postgres.sql").split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("\\") }.joined(separator: "\n")
            try connection.execute(dump)
        }
        let store = try PostgresStore(url: url)
        defer { store.close() }
        try checkUpgraded(store)
    }

    private func checkUpgraded(_ store: any HearthStore) throws {
        try store.read { reader throws in
            #expect(try reader.scopes() == [.project])
            #expect(try reader.accountCount() == 3)
            let alice = try #require(try reader.account(email: "Alice@frozen.example"))
            #expect(alice.localID == "frozen-alice" && alice.passwordHash?.hasPrefix("$argon2id$") == true)
            #expect(alice.passwordUpdatedAtMillis == 1_764_000_000_000)
            let bob = try #require(try reader.account(providerID: "google.com", rawID: "google-sub-bob"))
            #expect(bob.localID == "frozen-bob" && bob.providers.first?.photoURL == "https://example.com/bob.png")
            let carol = try #require(try reader.account(localID: "frozen-carol"))
            #expect(carol.mfaEnrollments.map(\.enrollmentID) == ["frozen-totp-carol"])
            #expect(carol.mfaEnrollments.first?.totpSecret == Array("12345678901234567890".utf8))
            #expect(carol.mfaEnrollments.first?.lastUsedTOTPStep == 58_800_000)
            let session = try #require(try reader.refreshSession(id: "frozenSessionAlice"))
            #expect(session.currentTokenHash == "e05c765df5b46535fbc6aca070e7c973bdbe85b2a1eed08a551bb299ec107a3e")
            #expect(session.localID == "frozen-alice" && session.revokedAtMillis == nil)
            #expect(try reader.liveSessionIDs(localID: "frozen-bob", skippingNewest: 0) == ["frozenSessionBob"])
            let code = try #require(
                try reader.oobCode(hash: "1073849044a995e1e5ab5237945a4984726492ed9d1763da3c3d3312c08ad713"))
            #expect(code.kind == .verifyEmail && code.localID == "frozen-alice")
            #expect(try reader.limitCounter(key: "frozen-limit")?.count == 2)
            let events = try reader.auditEvents(AuditQuery(limit: 10))
            #expect(events.map(\.kind) == [.factorEnrolled, .signIn, .signUp])
            #expect(try reader.auditEvents(AuditQuery(localID: "frozen-bob", limit: 10)).count == 1)
        }
        // A tenant sees none of it, and may now hold the same email, identity and uid.
        let tenant = store.scoped(to: try StoreScope.tenant("after-the-upgrade"))
        try tenant.write { writer throws in
            #expect(try writer.account(localID: "frozen-alice") == nil)
            #expect(try writer.refreshSession(id: "frozenSessionAlice") == nil)
            try writer.insertAccount(Account(
                localID: "frozen-bob", email: "bob@frozen.example", createdAtMillis: 1, validSinceMillis: 0,
                providers: [LinkedIdentity(providerID: "google.com", rawID: "google-sub-bob")],
                mfaEnrollments: [MFAEnrollment(enrollmentID: "frozen-totp-carol", kind: .totp, enrolledAtMillis: 1)]))
        }
        #expect(try store.read { try $0.account(localID: "frozen-bob")?.createdAtMillis } == 1_764_000_000_001)
    }
}
