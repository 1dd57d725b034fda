import Dispatch
import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Synchronization
import Testing

/// Refresh-token sessions on every store: rotation, revocation, the live-session list behind the cap,
/// the bounded purge, and rotation through `TokenService` with concurrent writers. (Legacy refresh
/// tokens exist only in SQLite databases from before migration 5: `SQLiteStoreTests`.)
@Suite("Store conformance: sessions")
struct SessionConformanceTests {
    // MARK: Records

    @Test("refresh sessions round-trip with a replaced token and a revocation; unknown ones are nil", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var rotated = refreshSession("session-ü")
            rotated.revokedAtMillis = 1_700_000_002_000
            rotated.replaced = ReplacedRefreshToken(
                tokenHash: "replaced-hash", replacedAtMillis: 1_700_000_001_000,
                sealedSuccessor: [0x00, 0xFF, 0x0A, 0x27, 0x5C] + Array(repeating: 0x80, count: 27))
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertRefreshSession(rotated)
            }
            try store.read { reader throws in
                #expect(try reader.refreshSession(id: "session-ü") == rotated)
                #expect(try reader.refreshSession(id: "session-u") == nil)
                // Only databases from before migration 5 hold legacy tokens; none here.
                #expect(try reader.refreshSession(legacyTokenHash: rotated.currentTokenHash) == nil)
                #expect(try reader.refreshSession(legacyTokenHash: "session-ü") == nil)
            }
            let step = try store.write {
                try $0.purgeLegacyRefreshTokens(after: nil, limit: 10, rotatedBefore: .max, revokedBefore: .max)
            }
            #expect(step == RefreshTokenPurgeStep(deleted: 0, next: nil))
        }
    }

    @Test("rotation replaces the current token once; replaced, wrong, revoked, unknown and orphaned ones are notFound", arguments: StoreKind.allCases)
    func rotate(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-gone"))
                try writer.insertRefreshSession(session("s", currentHash: "h0"))
                try writer.insertRefreshSession(session("revoked", currentHash: "r0", revokedAt: 5))
                try writer.insertRefreshSession(session("orphan", localID: "uid-gone", currentHash: "o0"))
                try writer.deleteAccount(localID: "uid-gone")
            }
            let sealed1 = Array(repeating: UInt8(1), count: 32)
            try store.write {
                try $0.rotateRefreshSession(id: "s", replacing: "h0", with: "h1", atMillis: 1_000, sealedSuccessor: sealed1)
            }
            let once = try #require(try store.read { try $0.refreshSession(id: "s") })
            #expect(once.currentTokenHash == "h1")
            #expect(once.replaced == ReplacedRefreshToken(tokenHash: "h0", replacedAtMillis: 1_000, sealedSuccessor: sealed1))
            #expect(once.startedAtMillis == 1 && once.revokedAtMillis == nil, "the session itself is unchanged")
            let refused: [(id: String, from: String)] = [
                ("s", "h0"), ("s", "h2"), ("s", ""), ("revoked", "r0"), ("ghost", "h1"), ("orphan", "o0"),
            ]
            for (id, from) in refused {
                #expect(throws: StoreError(.notFound), "\(id) from \(from)") {
                    try store.write {
                        try $0.rotateRefreshSession(id: id, replacing: from, with: "x", atMillis: 2_000, sealedSuccessor: [2])
                    }
                }
            }
            #expect(try store.read { try $0.refreshSession(id: "s") } == once)
            #expect(try store.read { try $0.refreshSession(id: "revoked") }?.currentTokenHash == "r0")
            // The next rotation starts from the new current token; only the last replaced one is kept.
            let sealed2 = Array(repeating: UInt8(2), count: 32)
            try store.write {
                try $0.rotateRefreshSession(id: "s", replacing: "h1", with: "h2", atMillis: 3_000, sealedSuccessor: sealed2)
            }
            let twice = try #require(try store.read { try $0.refreshSession(id: "s") })
            #expect(twice.currentTokenHash == "h2")
            #expect(twice.replaced == ReplacedRefreshToken(tokenHash: "h1", replacedAtMillis: 3_000, sealedSuccessor: sealed2))
        }
    }

    @Test("revokeSession revokes that session and nothing else", arguments: StoreKind.allCases)
    func revokeSession(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshSession(session("a"))
                try writer.insertRefreshSession(session("b"))
            }
            #expect(try store.write { try $0.revokeSession("a", atMillis: 50) })
            #expect(try store.write { try $0.revokeSession("a", atMillis: 60) } == false)
            #expect(try store.write { try $0.revokeSession("ghost", atMillis: 60) } == false)
            try store.read { reader throws in
                #expect(try reader.refreshSession(id: "a")?.revokedAtMillis == 50)
                #expect(try reader.refreshSession(id: "b")?.revokedAtMillis == nil)
            }
        }
    }

    @Test("liveSessionIDs: sessions not revoked, newest sign-in first, beyond the newest n", arguments: StoreKind.allCases)
    func liveSessions(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshSession(session("s-old", startedAt: 100))
                try writer.insertRefreshSession(session("s-early", startedAt: 50, currentHash: "e0"))
                try writer.insertRefreshSession(session("s-mid", startedAt: 200))
                // Ties on time go by id, descending.
                try writer.insertRefreshSession(session("s-tie-a", startedAt: 200))
                try writer.insertRefreshSession(session("s-revoked", startedAt: 400, revokedAt: 401))
                try writer.insertRefreshSession(session("s-other", localID: "uid-2", startedAt: 500))
                // A session counts from its start, however recently it was rotated.
                try writer.rotateRefreshSession(id: "s-early", replacing: "e0", with: "e1", atMillis: 300, sealedSuccessor: [1])
            }
            try store.read { reader throws in
                #expect(try reader.liveSessionIDs(localID: "uid-1", skippingNewest: 0) == ["s-tie-a", "s-mid", "s-old", "s-early"])
                #expect(try reader.liveSessionIDs(localID: "uid-1", skippingNewest: 2) == ["s-old", "s-early"])
                #expect(try reader.liveSessionIDs(localID: "uid-1", skippingNewest: 4) == [])
                #expect(try reader.liveSessionIDs(localID: "uid-2", skippingNewest: 0) == ["s-other"])
                #expect(try reader.liveSessionIDs(localID: "ghost", skippingNewest: 0) == [])
            }
        }
    }

    @Test("refreshSessions pages through every session, revoked and rotated ones included, in byte order", arguments: StoreKind.allCases)
    func sessionPages(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshSession(session("s-b", startedAt: 100))
                try writer.insertRefreshSession(session("s-a", startedAt: 200, revokedAt: 201))
                // "s-Z" sorts before "s-a" in byte order; "s-é" after "s-z".
                try writer.insertRefreshSession(session("s-Z", startedAt: 300, currentHash: "z0"))
                try writer.insertRefreshSession(session("s-é", startedAt: 400))
                try writer.rotateRefreshSession(id: "s-Z", replacing: "z0", with: "z1", atMillis: 301, sealedSuccessor: [7])
            }
            try store.read { reader throws in
                let first = try reader.refreshSessions(after: nil, limit: 3)
                #expect(first.map(\.sessionID) == ["s-Z", "s-a", "s-b"])
                #expect(first.first?.replaced?.sealedSuccessor == [7])
                #expect(first.first?.currentTokenHash == "z1")
                #expect(first[1].revokedAtMillis == 201)
                #expect(try reader.refreshSessions(after: "s-b", limit: 3).map(\.sessionID) == ["s-é"])
                #expect(try reader.refreshSessions(after: "s-é", limit: 3).isEmpty)
            }
        }
    }

    // MARK: Purge

    @Test("purgeSessions revokes sessions of deleted or revoked accounts and deletes old revoked ones", arguments: StoreKind.allCases)
    func purgeSessionConditions(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("live"))
                var revokedAccount = bareAccount("revoked-account")
                revokedAccount.validSinceMillis = 400
                try writer.insertAccount(revokedAccount)
                try writer.insertAccount(bareAccount("gone"))
                let sessions = [
                    session("live", localID: "live", startedAt: 10),
                    session("revoked-old", localID: "live", startedAt: 10, revokedAt: 499),
                    session("revoked-edge", localID: "live", startedAt: 10, revokedAt: 500),
                    session("before-valid-since", localID: "revoked-account", startedAt: 399),
                    session("at-valid-since", localID: "revoked-account", startedAt: 400),
                    session("orphan", localID: "gone", startedAt: 10),
                ]
                for record in sessions { try writer.insertRefreshSession(record) }
                try writer.deleteAccount(localID: "gone")
            }
            let step = try store.write { try $0.purgeSessions(after: nil, limit: 100, revokedBefore: 500, atMillis: 900) }
            #expect(step == RefreshTokenPurgeStep(deleted: 1, next: nil))
            try store.read { reader throws in
                #expect(try reader.refreshSession(id: "revoked-old") == nil)
                let revoked = try ["revoked-edge", "before-valid-since", "orphan"].map { try reader.refreshSession(id: $0)?.revokedAtMillis }
                #expect(revoked == [500, 900, 900])
                #expect(try reader.refreshSession(id: "live")?.revokedAtMillis == nil)
                #expect(try reader.refreshSession(id: "at-valid-since")?.revokedAtMillis == nil)
            }
            // Revoked at 900: deleted once that is past the retention.
            #expect(try store.write { try $0.purgeSessions(after: nil, limit: 100, revokedBefore: 901, atMillis: 1_000) }.deleted == 3)
        }
    }

    @Test("purgeSessions looks at `limit` sessions per step, in byte order, and says where to go on", arguments: StoreKind.allCases)
    func purgeSteps(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            // Every session is spent; ids sort as bytes ("B" < "a" < "b" < "é").
            let ids = ["b2", "a1", "é9", "B0", "a2", "b1", "c1"]
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                for id in ids { try writer.insertRefreshSession(session(id, startedAt: 1, revokedAt: 1)) }
            }
            func step(after cursor: String?) throws -> RefreshTokenPurgeStep {
                try store.write { try $0.purgeSessions(after: cursor, limit: 3, revokedBefore: 10, atMillis: 20) }
            }
            #expect(try step(after: nil) == RefreshTokenPurgeStep(deleted: 3, next: "a2"))
            #expect(try store.read { try $0.refreshSession(id: "b1") } != nil)
            #expect(try step(after: "a2") == RefreshTokenPurgeStep(deleted: 3, next: "c1"))
            #expect(try step(after: "c1") == RefreshTokenPurgeStep(deleted: 1, next: nil))
            #expect(try step(after: nil) == RefreshTokenPurgeStep(deleted: 0, next: nil))
            for id in ids { #expect(try store.read { try $0.refreshSession(id: id) } == nil) }
        }
    }

    @Test("a write whose body throws leaves no rotation, revocation or purge behind", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshSession(session("current", currentHash: "c0"))
                try writer.insertRefreshSession(session("spent", revokedAt: 1))
            }
            let before = try store.read { reader throws in
                [try reader.refreshSession(id: "current"), try reader.refreshSession(id: "spent")]
            }
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.rotateRefreshSession(id: "current", replacing: "c0", with: "c1", atMillis: 5, sealedSuccessor: [1])
                    try writer.revokeSession("current", atMillis: 6)
                    try writer.insertRefreshSession(session("new"))
                    _ = try writer.purgeSessions(after: nil, limit: 10, revokedBefore: 100, atMillis: 100)
                    throw Abort()
                }
            }
            let after = try store.read { reader throws in
                [try reader.refreshSession(id: "current"), try reader.refreshSession(id: "spent")]
            }
            #expect(after == before)
            #expect(try store.read { try $0.refreshSession(id: "new") } == nil)
        }
    }

    // MARK: Rotation through TokenService

    @Test("20 threads refreshing one token at once all get the same successor; the session does not fork", arguments: StoreKind.allCases)
    func concurrentRefreshWithinGrace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store)
            let first = try sessions.signIn()
            let results = concurrently(20) { try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: nil)) }
            let successors = Set(try results.map { try $0.get().refreshToken })
            #expect(successors.count == 1)
            let successor = try #require(successors.first)
            #expect(successor != first)
            let sessionID = try #require(sessions.sessionID(of: first))
            #expect(sessions.sessionID(of: successor) == sessionID)
            try store.read { reader throws in
                #expect(try reader.liveSessionIDs(localID: SessionHarness.localID, skippingNewest: 0) == [sessionID])
                let stored = try #require(try reader.refreshSession(id: sessionID))
                #expect(stored.currentTokenHash == sessions.hash(successor))
                #expect(stored.replaced?.tokenHash == sessions.hash(first))
            }
            #expect(try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: successor), by: .user(client: nil)).refreshToken != successor)
        }
    }

    @Test("without a grace window, 20 concurrent refreshes of one token: one succeeds, the reuse revokes the session", arguments: StoreKind.allCases)
    func concurrentRefreshWithoutGrace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store, policy: SessionPolicy(reuseGracePeriod: 0))
            let first = try sessions.signIn()
            let results = concurrently(20) { try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: nil)) }
            let issued = results.compactMap { try? $0.get().refreshToken }
            #expect(issued.count == 1)
            #expect(sessions.refusals(results) == Array(repeating: .tokenExpired, count: 19))
            let successor = try #require(issued.first)
            #expect(try sessions.refusal(successor) == .tokenExpired)
        }
    }

    @Test("an older token presented while the newest is refreshed concurrently: the session ends revoked, every token with it", arguments: StoreKind.allCases)
    func reuseRacingRefreshes(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store)
            let oldest = try sessions.signIn()
            let replaced = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: oldest), by: .user(client: nil)).refreshToken
            let current = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: replaced), by: .user(client: nil)).refreshToken
            // Within the grace window, but two rotations back: only the last replaced token gets an answer.
            let results = concurrently(20, indexed: { index in
                let token = index.isMultiple(of: 2) ? current : oldest
                return try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil)).refreshToken
            })
            #expect(sessions.refusals(results).count >= 10)
            #expect(Set(sessions.refusals(results)) == [.tokenExpired])
            let sessionID = try #require(sessions.sessionID(of: oldest))
            #expect(try store.read { try $0.refreshSession(id: sessionID) }?.revokedAtMillis == sessions.time.nowMillis)
            for token in [oldest, replaced, current] + results.compactMap({ try? $0.get() }) {
                #expect(try sessions.refusal(token) == .tokenExpired)
            }
        }
    }

    @Test("with rotation off, 20 concurrent refreshes of one token all keep it, and it keeps working", arguments: StoreKind.allCases)
    func concurrentRefreshWithoutRotation(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store, policy: SessionPolicy(rotatesRefreshTokens: false))
            let token = try sessions.signIn()
            let results = concurrently(20) { try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil)).refreshToken }
            #expect(try results.map { try $0.get() } == Array(repeating: token, count: 20))
            let stored = try #require(try store.read { try $0.refreshSession(id: sessions.sessionID(of: token)!) })
            #expect(stored.currentTokenHash == sessions.hash(token) && stored.replaced == nil)
            #expect(try sessions.refusal(token) == nil)
        }
    }

    @Test("a refresh writes the account's lastRefreshAt at most once a minute; with rotation off, one in between writes nothing", arguments: StoreKind.allCases)
    func lastRefreshPrecision(kind: StoreKind) throws {
        for rotates in [true, false] {
            try withStore(kind) { base throws in
                let store = WriteCountingStore(base)
                let sessions = try SessionHarness(store: store, policy: SessionPolicy(rotatesRefreshTokens: rotates))
                var token = try sessions.signIn()
                func refresh() throws {
                    token = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil)).refreshToken
                }
                func lastRefresh() throws -> Int64? {
                    try store.read { try $0.account(localID: SessionHarness.localID) }?.lastRefreshAtMillis
                }
                let start = sessions.time.nowMillis
                try refresh()
                #expect(try lastRefresh() == start, "rotating: \(rotates)")
                sessions.time.advance(by: 59.999)
                let writes = store.writes
                try refresh()
                #expect(try lastRefresh() == start, "rotating: \(rotates)")
                #expect(store.writes - writes == (rotates ? 1 : 0), "only a rotation writes, rotating: \(rotates)")
                sessions.time.advance(by: 0.001)
                try refresh()
                #expect(try lastRefresh() == start + 60_000, "rotating: \(rotates)")
                // A time ahead of the clock (the clock went back) is written over at once.
                try store.write { writer in
                    var account = try #require(try writer.account(localID: SessionHarness.localID))
                    account.lastRefreshAtMillis = sessions.time.nowMillis + 3_600_000
                    try writer.updateAccount(account)
                }
                try refresh()
                #expect(try lastRefresh() == sessions.time.nowMillis, "rotating: \(rotates)")
            }
        }
    }

    @Test("a reused token's session is revoked, and the revocation is committed and kept", arguments: StoreKind.allCases)
    func reuseRevocationIsCommitted(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(directory.path)
        let sessions = try SessionHarness(store: store)
        let first = try sessions.signIn()
        let second = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: nil)).refreshToken
        sessions.time.advance(by: 61)
        #expect(try sessions.refusal(first) == .tokenExpired)
        #expect(try sessions.refusal(second) == .tokenExpired)
        let reopened: any HearthStore
        if kind.isPersistent {
            store.close()
            reopened = try kind.open(directory.path)
        } else {
            reopened = store
        }
        defer { reopened.close() }
        let sessionID = try #require(sessions.sessionID(of: first))
        #expect(try reopened.read { try $0.refreshSession(id: sessionID) }?.revokedAtMillis == sessions.time.nowMillis)
    }

    @Test("a sign-in beyond the cap revokes the oldest sessions in its own transaction", arguments: StoreKind.allCases)
    func cap(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store, policy: SessionPolicy(maximumSessionsPerAccount: 2))
            let first = try sessions.signIn()
            sessions.time.advance(by: 1)
            let second = try sessions.signIn()
            sessions.time.advance(by: 1)
            // Using the first session does not make it younger.
            let firstNow = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: nil)).refreshToken
            sessions.time.advance(by: 1)
            let third = try sessions.signIn()
            #expect(try sessions.refusal(firstNow) == .tokenExpired)
            for token in [second, third] {
                #expect(try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil)).userId == SessionHarness.localID)
            }
            #expect(try store.read { try $0.liveSessionIDs(localID: SessionHarness.localID, skippingNewest: 0) }.count == 2)
        }
    }

    @Test(
        "20 sign-ins of one account at once, each locking the account row: the cap of 3 holds, every one got a session",
        arguments: StoreKind.allCases)
    func capUnderConcurrentRowLockedSignIns(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store, policy: SessionPolicy(maximumSessionsPerAccount: 3))
            for _ in 0..<3 { _ = try sessions.signIn() }
            let results = concurrently(20) { try sessions.signIn(.rowLocks) }
            let tokens = try results.map { try $0.get() }
            #expect(Set(tokens).count == 20)
            let live = try store.read { try $0.liveSessionIDs(localID: SessionHarness.localID, skippingNewest: 0) }
            #expect(live.count == 3)
        }
    }

    // MARK: Helpers

    private func session(
        _ id: String, localID: String = "uid-1", startedAt: Int64 = 1, currentHash: String? = nil, revokedAt: Int64? = nil
    ) -> RefreshSession {
        RefreshSession(
            sessionID: id, localID: localID, signInProvider: "google.com", authTime: 1, startedAtMillis: startedAt,
            revokedAtMillis: revokedAt, currentTokenHash: currentHash ?? "current-of-\(id)")
    }
}

/// A `TokenService` over the store under test, with a manual clock and one account.
struct SessionHarness {
    static let localID = "uid-sessions"
    let time = ManualTimeSource()
    let platform: IdentityPlatform

    init(store: any HearthStore, policy: SessionPolicy = SessionPolicy()) throws {
        let project = ProjectConfiguration(
            projectID: "p", issuer: "http://hearth.test/p", apiKeys: .anyNonEmpty, googleClientIDs: [])
        var configuration = IdentityPlatform.Configuration(
            project: project, passwords: try Argon2PasswordHasher(parameters: Argon2Parameters(memoryKiB: 1_024, iterations: 1)))
        configuration.sessionPolicy = policy
        platform = try IdentityPlatform(configuration, store: store, time: time)
        if try store.read({ try $0.account(localID: Self.localID) }) == nil {
            try store.write {
                try $0.insertAccount(Account(localID: Self.localID, createdAtMillis: 0, validSinceMillis: 0))
            }
        }
    }

    var tokens: TokenService { platform.tokens }

    /// The wire code refreshing `token` is refused with, or nil if it works.
    func refusal(_ token: String) throws -> ErrorCode? {
        do {
            _ = try tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil))
            return nil
        } catch let error as WireError {
            return error.code
        }
    }

    /// A new session's refresh token.
    func signIn(_ isolation: WriteIsolation = .serializable) throws -> String {
        try platform.store.write(isolation) { writer in
            let account = try #require(try writer.account(localID: Self.localID))
            return try tokens.newRefreshToken(
                for: account, session: Session(signInProvider: "google.com", authTime: time.nowSeconds), writer: writer)
        }
    }

    /// The wire codes of the refused results.
    func refusals<T>(_ results: [Result<T, any Error>]) -> [ErrorCode] {
        results.compactMap { result -> ErrorCode? in
            guard case .failure(let error as WireError) = result else { return nil }
            return error.code
        }
    }

    /// What the store keeps for `token` (lower-case hex SHA-256).
    func hash(_ token: String) -> String { Self.tokenHash(token) }

    static func tokenHash(_ token: String) -> String {
        SHA256.hash(token).map { String(format: "%02x", $0) }.joined()
    }

    /// The session id a refresh token names (`<session id>.<secret>`), nil for a bare (legacy) token.
    func sessionID(of token: String) -> String? {
        token.firstIndex(of: ".").map { String(token[..<$0]) }
    }
}

/// The store under test, counting its write transactions.
final class WriteCountingStore: HearthStore {
    private let base: any HearthStore
    private let count = Atomic(0)

    init(_ base: any HearthStore) { self.base = base }

    var writes: Int { count.load(ordering: .relaxed) }

    var scope: StoreScope { base.scope }
    func scoped(to scope: StoreScope) -> any HearthStore { base.scoped(to: scope) }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }

    func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        count.add(1, ordering: .relaxed)
        return try base.write(isolation, body)
    }

    func close() { base.close() }
}

/// Runs `body` on `count` threads released at the same moment; returns every result.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable () throws -> T) -> [Result<T, any Error>] {
    concurrently(count, indexed: { _ in try body() })
}

/// Runs `body` on `count` threads released at the same moment, each with its index (0..<count); returns
/// every result, in the order they finished.
func concurrently<T: Sendable>(_ count: Int, indexed body: @escaping @Sendable (Int) throws -> T)
    -> [Result<T, any Error>]
{
    let results = Collected<Result<T, any Error>>()
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        Thread {
            ready.leave()
            start.wait()
            let result = Result { try body(index) }
            results.add(result)
            done.leave()
        }.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
    return results.all
}

/// Values added from several threads.
final class Collected<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func add(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
}
