import Dispatch
import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Synchronization
import Testing

/// Refresh-token sessions on every store: rotation, revocation, the live-session list behind the cap,
/// the bounded purge, and rotation through `TokenService` with concurrent writers.
@Suite("Store conformance: sessions")
struct SessionConformanceTests {
    // MARK: Records

    @Test("refresh tokens round-trip with their session fields; a first token is its own session", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var rotated = refreshToken("h-rotated")
            rotated.sessionID = "session-ü"
            rotated.sessionStartedAtMillis = 1_600_000_000_001
            rotated.rotatedAtMillis = 1_700_000_001_000
            rotated.sealedSuccessor = [0x00, 0xFF, 0x0A, 0x27, 0x5C] + Array(repeating: 0x80, count: 27)
            rotated.revokedAtMillis = 1_700_000_002_000
            let first = refreshToken("h-first", full: false)
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertRefreshToken(rotated)
                try writer.insertRefreshToken(first)
            }
            try store.read { reader throws in
                #expect(try reader.refreshToken(hash: "h-rotated") == rotated)
                let loaded = try #require(try reader.refreshToken(hash: "h-first"))
                #expect(loaded == first)
                #expect(loaded.sessionID == "h-first")
                #expect(loaded.sessionStartedAtMillis == loaded.createdAtMillis)
                #expect(loaded.rotatedAtMillis == nil && loaded.sealedSuccessor == nil && loaded.revokedAtMillis == nil)
            }
        }
    }

    @Test("a current token is marked rotated once; rotated, revoked and unknown tokens are notFound", arguments: StoreKind.allCases)
    func markRotated(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshToken(refreshToken("current", localID: "uid-1"))
                try writer.insertRefreshToken(refreshToken("revoked", localID: "uid-1"))
                try writer.revokeSession("revoked", atMillis: 5)
            }
            let sealed = Array(repeating: UInt8(7), count: 32)
            try store.write { try $0.markRefreshTokenRotated(hash: "current", atMillis: 1_000, sealedSuccessor: sealed) }
            let stored = try #require(try store.read { try $0.refreshToken(hash: "current") })
            #expect(stored.rotatedAtMillis == 1_000)
            #expect(stored.sealedSuccessor == sealed)
            for hash in ["current", "revoked", "unknown"] {
                #expect(throws: StoreError(.notFound), "\(hash)") {
                    try store.write { try $0.markRefreshTokenRotated(hash: hash, atMillis: 2_000, sealedSuccessor: sealed) }
                }
            }
            #expect(try store.read { try $0.refreshToken(hash: "current") }?.rotatedAtMillis == 1_000)
            #expect(try store.read { try $0.refreshToken(hash: "revoked") }?.rotatedAtMillis == nil)
        }
    }

    @Test("revokeSession revokes every token of that session and nothing else", arguments: StoreKind.allCases)
    func revokeSession(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                for hash in ["a1", "a2", "a3"] { try writer.insertRefreshToken(token(hash, session: "a")) }
                try writer.insertRefreshToken(token("b1", session: "b"))
            }
            #expect(try store.write { try $0.revokeSession("a", atMillis: 50) })
            #expect(try store.write { try $0.revokeSession("a", atMillis: 60) } == false)
            #expect(try store.write { try $0.revokeSession("ghost", atMillis: 60) } == false)
            try store.read { reader throws in
                for hash in ["a1", "a2", "a3"] { #expect(try reader.refreshToken(hash: hash)?.revokedAtMillis == 50) }
                #expect(try reader.refreshToken(hash: "b1")?.revokedAtMillis == nil)
            }
        }
    }

    @Test("liveSessionIDs: sessions not revoked, newest sign-in first, beyond the newest n", arguments: StoreKind.allCases)
    func liveSessions(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshToken(token("old", session: "s-old", createdAt: 100))
                // A session counts from its start, however recently it was rotated.
                try writer.insertRefreshToken(token("early-1", session: "s-early", createdAt: 50, rotatedAt: 300))
                try writer.insertRefreshToken(token("early-2", session: "s-early", createdAt: 300))
                try writer.insertRefreshToken(token("mid", session: "s-mid", createdAt: 200))
                // Ties on time go by id, descending.
                try writer.insertRefreshToken(token("tie-a", session: "s-tie-a", createdAt: 200))
                try writer.insertRefreshToken(token("revoked", session: "s-revoked", createdAt: 400, revokedAt: 401))
                try writer.insertRefreshToken(token("other", localID: "uid-2", session: "s-other", createdAt: 500))
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

    @Test("a token joins its session: the session's fields win over the record's", arguments: StoreKind.allCases)
    func tokensJoinTheirSession(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshToken(refreshToken("first", localID: "uid-1"))
                var second = refreshToken("second", localID: "uid-2", full: false)
                second.sessionID = "first"
                try writer.insertRefreshToken(second)
            }
            let first = try #require(try store.read { try $0.refreshToken(hash: "first") })
            let second = try #require(try store.read { try $0.refreshToken(hash: "second") })
            #expect(second.sessionID == "first")
            #expect(second.localID == "uid-1" && second.signInProvider == first.signInProvider)
            #expect(second.sessionClaims == first.sessionClaims && second.sessionStartedAtMillis == first.sessionStartedAtMillis)
            #expect(second.createdAtMillis == 8, "the token's own fields are its own")
            // Deleting the session's account's sessions ends both tokens.
            #expect(try store.write { try $0.deleteRefreshTokens(localID: "uid-1") } == 1)
            #expect(try store.read { try $0.refreshToken(hash: "second") } == nil)
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
                let tokens = [
                    token("live", localID: "live", createdAt: 10),
                    token("revoked-old", localID: "live", createdAt: 10, revokedAt: 499),
                    token("revoked-edge", localID: "live", createdAt: 10, revokedAt: 500),
                    token("before-valid-since", localID: "revoked-account", createdAt: 399),
                    token("at-valid-since", localID: "revoked-account", createdAt: 400),
                    token("orphan", localID: "gone", createdAt: 10),
                ]
                for record in tokens { try writer.insertRefreshToken(record) }
                try writer.deleteAccount(localID: "gone")
            }
            let step = try store.write { try $0.purgeSessions(after: nil, limit: 100, revokedBefore: 500, atMillis: 900) }
            #expect(step == RefreshTokenPurgeStep(deleted: 1, next: nil))
            try store.read { reader throws in
                #expect(try reader.refreshToken(hash: "revoked-old") == nil)
                let revoked = try ["revoked-edge", "before-valid-since", "orphan"].map { try reader.refreshToken(hash: $0)?.revokedAtMillis }
                #expect(revoked == [500, 900, 900])
                #expect(try reader.refreshToken(hash: "live")?.revokedAtMillis == nil)
                #expect(try reader.refreshToken(hash: "at-valid-since")?.revokedAtMillis == nil)
            }
            // Revoked at 900: deleted once that is past the retention.
            #expect(try store.write { try $0.purgeSessions(after: nil, limit: 100, revokedBefore: 901, atMillis: 1_000) }.deleted == 3)
        }
    }

    @Test("purgeRefreshTokens deletes rotated tokens past the period and tokens of revoked or deleted sessions", arguments: StoreKind.allCases)
    func purgeTokenConditions(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                let tokens = [
                    token("current", session: "live", createdAt: 10),
                    token("rotated-old", session: "live", createdAt: 5, rotatedAt: 99),
                    token("rotated-edge", session: "live", createdAt: 5, rotatedAt: 100),
                    token("revoked-old", session: "revoked-old", revokedAt: 499),
                    token("revoked-edge", session: "revoked-edge", revokedAt: 500),
                    token("two-a", session: "two"),
                    token("two-b", session: "two"),
                ]
                for record in tokens { try writer.insertRefreshToken(record) }
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshToken(token("other", localID: "uid-2", session: "other"))
                #expect(try writer.deleteRefreshTokens(localID: "uid-2") == 1)
            }
            let step = try store.write {
                try $0.purgeRefreshTokens(after: nil, limit: 100, rotatedBefore: 100, revokedBefore: 500)
            }
            #expect(step == RefreshTokenPurgeStep(deleted: 3, next: nil))
            try store.write { writer throws in
                // The tokens of a session that is gone are dead too, however they got there.
                #expect(try writer.deleteRefreshTokens(localID: "uid-1") == 4)
                #expect(try writer.purgeRefreshTokens(after: nil, limit: 100, rotatedBefore: 0, revokedBefore: 0).deleted == 5)
            }
        }
    }

    @Test("purgeRefreshTokens looks at `limit` tokens per step, in byte order, and says where to go on", arguments: StoreKind.allCases)
    func purgeSteps(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            // Every token is spent; hashes sort as bytes ("B" < "a" < "b" < "é").
            let hashes = ["b2", "a1", "é9", "B0", "a2", "b1", "c1"]
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                for hash in hashes { try writer.insertRefreshToken(token(hash, createdAt: 1, revokedAt: 1)) }
            }
            func step(after cursor: String?) throws -> RefreshTokenPurgeStep {
                try store.write { try $0.purgeRefreshTokens(after: cursor, limit: 3, rotatedBefore: 0, revokedBefore: 10) }
            }
            #expect(try step(after: nil) == RefreshTokenPurgeStep(deleted: 3, next: "a2"))
            #expect(try store.read { try $0.refreshToken(hash: "b1") } != nil)
            #expect(try step(after: "a2") == RefreshTokenPurgeStep(deleted: 3, next: "c1"))
            #expect(try step(after: "c1") == RefreshTokenPurgeStep(deleted: 1, next: nil))
            #expect(try step(after: nil) == RefreshTokenPurgeStep(deleted: 0, next: nil))
            for hash in hashes { #expect(try store.read { try $0.refreshToken(hash: hash) } == nil) }
            // Sessions are walked the same way (each token above started its own).
            func sessionStep(after cursor: String?) throws -> RefreshTokenPurgeStep {
                try store.write { try $0.purgeSessions(after: cursor, limit: 3, revokedBefore: 10, atMillis: 20) }
            }
            #expect(try sessionStep(after: nil) == RefreshTokenPurgeStep(deleted: 3, next: "a2"))
            #expect(try sessionStep(after: "a2") == RefreshTokenPurgeStep(deleted: 3, next: "c1"))
            #expect(try sessionStep(after: "c1") == RefreshTokenPurgeStep(deleted: 1, next: nil))
        }
    }

    @Test("a write whose body throws leaves no rotation, revocation or purge behind", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshToken(token("current", session: "s"))
                try writer.insertRefreshToken(token("spent", session: "t", revokedAt: 1))
            }
            let before = try store.read { reader throws in
                [try reader.refreshToken(hash: "current"), try reader.refreshToken(hash: "spent")]
            }
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.markRefreshTokenRotated(hash: "current", atMillis: 5, sealedSuccessor: [1])
                    try writer.revokeSession("s", atMillis: 6)
                    _ = try writer.purgeRefreshTokens(after: nil, limit: 10, rotatedBefore: 100, revokedBefore: 100)
                    _ = try writer.purgeSessions(after: nil, limit: 10, revokedBefore: 100, atMillis: 100)
                    throw Abort()
                }
            }
            let after = try store.read { reader throws in
                [try reader.refreshToken(hash: "current"), try reader.refreshToken(hash: "spent")]
            }
            #expect(after == before)
        }
    }

    // MARK: Rotation through TokenService

    @Test("20 threads refreshing one token at once all get the same successor; the session does not fork", arguments: StoreKind.allCases)
    func concurrentRefreshWithinGrace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store)
            let first = try sessions.signIn()
            let results = concurrently(20) { try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first)) }
            let successors = Set(try results.map { try $0.get().refreshToken })
            #expect(successors.count == 1)
            let successor = try #require(successors.first)
            #expect(successor != first)
            try store.read { reader throws in
                #expect(try reader.liveSessionIDs(localID: SessionHarness.localID, skippingNewest: 0) == [sessions.hash(first)])
                #expect(try reader.refreshToken(hash: sessions.hash(first))?.rotatedAtMillis != nil)
                #expect(try reader.refreshToken(hash: sessions.hash(successor))?.rotatedAtMillis == nil)
            }
            #expect(try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: successor)).refreshToken != successor)
        }
    }

    @Test("without a grace window, 20 concurrent refreshes of one token: one succeeds, the reuse revokes the session", arguments: StoreKind.allCases)
    func concurrentRefreshWithoutGrace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = try SessionHarness(store: store, policy: SessionPolicy(reuseGracePeriod: 0))
            let first = try sessions.signIn()
            let results = concurrently(20) { try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first)) }
            let issued = results.compactMap { try? $0.get().refreshToken }
            #expect(issued.count == 1)
            let refused = results.compactMap { result -> ErrorCode? in
                guard case .failure(let error as WireError) = result else { return nil }
                return error.code
            }
            #expect(refused == Array(repeating: .tokenExpired, count: 19))
            let successor = try #require(issued.first)
            #expect(try sessions.refusal(successor) == .tokenExpired)
        }
    }

    @Test("a reused token's session is revoked, and the revocation is committed and kept", arguments: StoreKind.allCases)
    func reuseRevocationIsCommitted(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(directory.path)
        let sessions = try SessionHarness(store: store)
        let first = try sessions.signIn()
        let second = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first)).refreshToken
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
        try reopened.read { reader throws in
            #expect(try reader.refreshToken(hash: sessions.hash(first))?.revokedAtMillis == sessions.time.nowMillis)
            #expect(try reader.refreshToken(hash: sessions.hash(second))?.revokedAtMillis == sessions.time.nowMillis)
        }
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
            let firstNow = try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: first)).refreshToken
            sessions.time.advance(by: 1)
            let third = try sessions.signIn()
            #expect(try sessions.refusal(firstNow) == .tokenExpired)
            for token in [second, third] {
                #expect(try sessions.tokens.refresh(RefreshTokenRequest(refreshToken: token)).userId == SessionHarness.localID)
            }
            #expect(try store.read { try $0.liveSessionIDs(localID: SessionHarness.localID, skippingNewest: 0) }.count == 2)
        }
    }

    // MARK: Helpers

    private func token(
        _ hash: String, localID: String = "uid-1", session: String? = nil, createdAt: Int64 = 1,
        rotatedAt: Int64? = nil, revokedAt: Int64? = nil
    ) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: hash, localID: localID, signInProvider: "google.com", authTime: 1, createdAtMillis: createdAt,
            sessionID: session, rotatedAtMillis: rotatedAt,
            sealedSuccessor: rotatedAt == nil ? nil : Array(repeating: 1, count: 32), revokedAtMillis: revokedAt)
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
        platform = try IdentityPlatform(
            project: project, store: store, time: time, googleIssuers: [], sessionPolicy: policy)
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
            _ = try tokens.refresh(RefreshTokenRequest(refreshToken: token))
            return nil
        } catch let error as WireError {
            return error.code
        }
    }

    /// A new session's refresh token.
    func signIn() throws -> String {
        try platform.store.write { writer in
            let account = try #require(try writer.account(localID: Self.localID))
            return try tokens.newRefreshToken(
                for: account, session: Session(signInProvider: "google.com", authTime: time.nowSeconds), writer: writer)
        }
    }

    /// What the store keeps for `token` (lower-case hex SHA-256).
    func hash(_ token: String) -> String {
        SHA256.hash(token).map { String(format: "%02x", $0) }.joined()
    }
}

/// Runs `body` on `count` threads released at the same moment; returns every result.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable () throws -> T) -> [Result<T, any Error>] {
    let results = Collected<Result<T, any Error>>()
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        ready.enter()
        done.enter()
        Thread {
            ready.leave()
            start.wait()
            let result = Result { try body() }
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
