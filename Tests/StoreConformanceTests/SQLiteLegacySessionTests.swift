import Foundation
import HearthCore
import HearthProtocol
@testable import HearthSQLite
import SQLite
import Testing

/// Refresh tokens issued before migration 5 (bare secrets, one row per token) in a database made by
/// the previous schema: they keep working, rotate into tokens that name their session, older ones are
/// reuse, and the purge empties their table.
@Suite("SQLiteStore: refresh tokens from before migration 5")
struct SQLiteLegacySessionTests {
    /// Tokens as the previous release issued them (any opaque strings; the store has only their hashes).
    private let chain = ["legacy-first-token", "legacy-second-token", "legacy-current-token"]
    private let untouched = "legacy-token-of-a-session-never-refreshed-again"
    private let revoked = "legacy-token-of-a-revoked-session"
    private let day: Int64 = 86_400_000
    /// Where `SessionHarness`'s clock starts.
    private let now = ManualTimeSource().nowMillis

    /// A version 4 database (migrations 1–4 as released) holding: a session rotated twice (its first token
    /// 31 days ago, its second a day ago), a session never rotated, and one revoked 8 days ago.
    private func makeVersion4Database(at path: String) throws {
        var version4 = SQLiteMigrator()
        for (version, script) in [Schema.version1, Schema.version2, Schema.version3, Schema.version4].enumerated() {
            version4.register(version + 1, "as released") { db in try db.executeScript(script) }
        }
        let pool = try SQLiteConnectionPool(path: path, configuration: .init(readerCount: 1), migrator: version4)
        let hash = SessionHarness.tokenHash
        try pool.write { db in
            try db.execute(
                "INSERT INTO accounts VALUES (?, NULL, 0, NULL, NULL, NULL, NULL, 0, NULL, 0, NULL, NULL, 0)",
                [.text(SessionHarness.localID)])
            func session(_ first: String, startedAt: Int64, revokedAt: Int64?) throws {
                try db.execute(
                    "INSERT INTO refresh_sessions VALUES (?, ?, 'google.com', 1700000000, NULL, NULL, NULL, ?, ?)",
                    [.text(hash(first)), .text(SessionHarness.localID), .integer(startedAt), SQLiteValue(revokedAt)])
            }
            func token(_ token: String, of first: String, rotatedAt: Int64?) throws {
                try db.execute(
                    "INSERT INTO refresh_tokens VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(hash(token)), .text(hash(first)), .integer(now - 40 * day),
                        SQLiteValue(rotatedAt), rotatedAt == nil ? .null : .blob(Array(repeating: 9, count: 32)),
                    ])
            }
            try session(chain[0], startedAt: now - 40 * day, revokedAt: nil)
            try token(chain[0], of: chain[0], rotatedAt: now - 31 * day)
            try token(chain[1], of: chain[0], rotatedAt: now - day)
            try token(chain[2], of: chain[0], rotatedAt: nil)
            try session(untouched, startedAt: now - 40 * day, revokedAt: nil)
            try token(untouched, of: untouched, rotatedAt: nil)
            try session(revoked, startedAt: now - 40 * day, revokedAt: now - 8 * day)
            try token(revoked, of: revoked, rotatedAt: nil)
        }
        try pool.close()
    }

    @Test("the current token keeps working and rotates into a token naming its session; a retry gets the same; older ones revoke it")
    func legacyTokensAfterUpgrade() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/v4.sqlite"
        try makeVersion4Database(at: path)
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let sessions = try SessionHarness(store: store)
        let sessionID = sessions.hash(chain[0])
        try store.read { reader throws in
            let migrated = try #require(try reader.refreshSession(legacyTokenHash: sessions.hash(chain[2])))
            #expect(migrated.sessionID == sessionID)
            #expect(migrated.currentTokenHash == sessions.hash(chain[2]) && migrated.replaced == nil)
            #expect(try reader.refreshSession(legacyTokenHash: sessions.hash(chain[0])) == migrated)
            #expect(try reader.refreshSession(id: sessionID) == migrated)
        }

        let next = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: chain[2]), by: .user(client: nil)).refreshToken
        #expect(sessions.sessionID(of: next) == sessionID)
        // A lost response retried with the legacy token gets the same successor.
        #expect(try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: chain[2]), by: .user(client: nil)).refreshToken == next)
        let newest = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: next), by: .user(client: nil)).refreshToken
        #expect(try store.read { try $0.refreshSession(id: sessionID) }?.currentTokenHash == sessions.hash(newest))

        // The token the previous release replaced a day ago is reuse: the whole session ends.
        #expect(try sessions.refusal(chain[1]) == .tokenExpired)
        for token in [newest, next, chain[2]] { #expect(try sessions.refusal(token) == .tokenExpired) }
        #expect(try sessions.refusal(revoked) == .tokenExpired)
        #expect(try sessions.refusal("legacy-token-nobody-issued") == .invalidRefreshToken)

        // With rotation off, a legacy token is answered with itself and keeps working.
        let unrotated = try SessionHarness(store: store, policy: SessionPolicy(rotatesRefreshTokens: false))
        for _ in 0..<2 {
            #expect(try unrotated.tokens.refresh(RefreshTokenRequest(refreshToken: untouched), by: .user(client: nil)).refreshToken == untouched)
        }
    }

    @Test("the purge deletes legacy tokens rotated before the reuse-detection period and those of gone sessions")
    func legacyPurge() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/v4.sqlite"
        try makeVersion4Database(at: path)
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let sessions = try SessionHarness(store: store)
        let purger = MaintenanceTask(
            store: store, time: sessions.time, policy: SessionPolicy(), schedule: MaintenanceTask.Schedule(batchSize: 2),
            log: { _ in })
        func legacyHashes() throws -> [String] {
            try SQLiteConnection(path: path, mode: .readOnly).queryAll(
                "SELECT token_hash FROM legacy_refresh_tokens ORDER BY token_hash") { try $0.requiredText(0) }
        }
        // The revoked session (8 days, past the 7-day retention) with its token; the token rotated 31 days ago.
        #expect(try purger.runPass() == MaintenanceTask.Report(sessions: 1, legacyRefreshTokens: 2))
        #expect(try legacyHashes() == [chain[1], chain[2], untouched].map(sessions.hash).sorted())
        #expect(try purger.runPass() == MaintenanceTask.Report())
        // Ending a session lets its legacy tokens go with it once its retention is over.
        #expect(try sessions.refusal(chain[1]) == .tokenExpired)
        sessions.time.advance(by: 8 * 86_400)
        #expect(try purger.runPass() == MaintenanceTask.Report(sessions: 1, legacyRefreshTokens: 2))
        #expect(try legacyHashes() == [sessions.hash(untouched)])
    }

    @Test("migration 5 keeps the schema sound")
    func schema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/v4.sqlite"
        try makeVersion4Database(at: path)
        try SQLiteStore(path: path).close()
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.queryAll("SELECT version FROM schema_migrations ORDER BY version") { $0.int(0) } == Array(1...17))
        #expect(try connection.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name = 'refresh_tokens'") { $0.int(0) } == 0)
        #expect(try connection.queryFirst("SELECT count(*) FROM legacy_refresh_tokens") { $0.int(0) } == 5)
        #expect(try connection.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }
}
