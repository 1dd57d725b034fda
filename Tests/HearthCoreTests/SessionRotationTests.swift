import Foundation
import HearthCore
import HearthProtocol
import Synchronization
import Testing

/// Refresh-token rotation, reuse detection, the per-account session cap and the purge.
@Suite("Sessions: rotation, reuse detection, cap, purge")
struct SessionRotationTests {
    private func refresh(_ test: TestPlatform, _ token: String?) throws -> RefreshTokenResponse {
        try test.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil))
    }

    /// The session `token` names (`<session id>.<secret>`).
    private func sessionID(_ token: String?) -> String? {
        token?.firstIndex(of: ".").map { String(token![..<$0]) }
    }

    private func session(_ test: TestPlatform, _ token: String?) throws -> RefreshSession? {
        guard let id = sessionID(token) else { return nil }
        return try test.store.read { try $0.refreshSession(id: id) }
    }

    private func liveSessions(_ test: TestPlatform, _ localID: String?) throws -> [String] {
        try test.store.read { try $0.liveSessionIDs(localID: localID ?? "", skippingNewest: 0) }
    }

    @Test("each refresh returns a new refresh token; the chain keeps one session and its auth_time")
    func rotation() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "rot-1")
        let authTime = try test.claims(of: try #require(signIn.idToken))["auth_time"]
        var chain = [try #require(signIn.refreshToken)]
        for _ in 0..<5 {
            test.time.advance(by: 3000)
            let refreshed = try refresh(test, chain.last)
            #expect(try test.claims(of: refreshed.idToken)["auth_time"] == authTime)
            chain.append(refreshed.refreshToken)
        }
        #expect(Set(chain).count == chain.count)
        let id = try #require(sessionID(chain[0]))
        #expect(chain.allSatisfy { sessionID($0) == id })
        // One session row holds the chain: the current token and the one it replaced, by hash.
        let stored = try #require(try session(test, chain.last))
        #expect(stored.currentTokenHash == Fixture.sha256Hex(chain[5]))
        #expect(stored.replaced?.tokenHash == Fixture.sha256Hex(chain[4]))
        #expect(try liveSessions(test, signIn.localId) == [id])
    }

    @Test("a client retrying a lost response within the grace window gets the same successor, and nothing new is stored")
    func retryWithinGrace() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "retry-1")
        let first = try #require(signIn.refreshToken)
        let lost = try refresh(test, first).refreshToken  // the response never reaches the client
        test.time.advance(by: 59.999)
        let retried = try refresh(test, first)
        #expect(retried.refreshToken == lost)
        #expect(try session(test, lost)?.currentTokenHash == Fixture.sha256Hex(lost), "the successor is still the current token")
        #expect(try liveSessions(test, signIn.localId).count == 1)
        // The client goes on with the successor as if nothing had happened.
        #expect(try refresh(test, lost).refreshToken != lost)
    }

    @Test("within the grace window a rotated token only ever yields its real successor")
    func graceNeedsARealSuccessor() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "sealed-1")
        // A session whose replaced token's sealed successor opens to a token that is not its current one.
        let token = "sealed-session.a-replaced-token-with-a-sealed-successor-nobody-has"
        try test.store.write { writer in
            try writer.insertRefreshSession(
                RefreshSession(
                    sessionID: "sealed-session", localID: try #require(signIn.localId), signInProvider: "google.com",
                    authTime: test.time.nowSeconds, startedAtMillis: test.time.nowMillis,
                    currentTokenHash: Fixture.sha256Hex("sealed-session.current"),
                    replaced: ReplacedRefreshToken(
                        tokenHash: Fixture.sha256Hex(token), replacedAtMillis: test.time.nowMillis,
                        sealedSuccessor: Array(repeating: 7, count: 32))))
        }
        #expect(wireErrorCode { _ = try refresh(test, token) } == .tokenExpired)
        #expect(try test.store.read { try $0.refreshSession(id: "sealed-session") }?.revokedAtMillis != nil)
    }

    @Test("a stolen token presented after its owner refreshed, past the grace window, revokes the whole session")
    func reuseAfterGrace() throws {
        let test = try TestPlatform()
        let victim = try test.signIn(subject: "reuse-1")
        let stolen = try #require(victim.refreshToken)
        let other = try #require(try test.signIn(subject: "reuse-1").refreshToken)
        let second = try refresh(test, stolen).refreshToken
        let newest = try refresh(test, second).refreshToken
        test.time.advance(by: 60)
        #expect(wireErrorCode { _ = try refresh(test, stolen) } == .tokenExpired)
        // Every token of that session is dead now, the newest included; the account's other session is not.
        for token in [stolen, second, newest] {
            #expect(wireErrorCode { _ = try refresh(test, token) } == .tokenExpired)
        }
        #expect(try refresh(test, other).userId == victim.localId)
        #expect(try test.signIn(subject: "reuse-1").refreshToken != nil)
    }

    @Test("a thief who refreshes first is cut off when the owner presents the token the thief replaced")
    func thiefRefreshesFirst() throws {
        let test = try TestPlatform()
        let owner = try #require(try test.signIn(subject: "thief-1").refreshToken)
        let thiefToken = try refresh(test, owner).refreshToken
        test.time.advance(by: 3600)
        #expect(wireErrorCode { _ = try refresh(test, owner) } == .tokenExpired)
        #expect(wireErrorCode { _ = try refresh(test, thiefToken) } == .tokenExpired)
    }

    @Test("with no grace window, presenting a rotated token at once revokes the session")
    func noGrace() throws {
        let test = try TestPlatform(sessions: SessionPolicy(reuseGracePeriod: 0))
        let first = try #require(try test.signIn(subject: "nograce-1").refreshToken)
        let second = try refresh(test, first).refreshToken
        #expect(wireErrorCode { _ = try refresh(test, first) } == .tokenExpired)
        #expect(wireErrorCode { _ = try refresh(test, second) } == .tokenExpired)
    }

    @Test("a rotated session still ends with validSince: it counts from its sign-in, not its last rotation")
    func revocationAfterRotation() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "valid-since-1")
        test.time.advance(by: 10)
        let rotated = try refresh(test, signIn.refreshToken).refreshToken
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: signIn.localId!))
            account.validSinceMillis = test.time.nowMillis - 5_000  // after the sign-in, before the rotation
            try writer.updateAccount(account)
        }
        #expect(wireErrorCode { _ = try refresh(test, rotated) } == .tokenExpired)
    }

    @Test("with rotation off, a refresh answers the presented token, which keeps working")
    func rotationOff() throws {
        let test = try TestPlatform(sessions: SessionPolicy(rotatesRefreshTokens: false))
        let token = try #require(try test.signIn(subject: "off-1").refreshToken)
        for _ in 0..<3 {
            test.time.advance(by: 3600)
            #expect(try refresh(test, token).refreshToken == token)
        }
        let stored = try #require(try session(test, token))
        #expect(stored.currentTokenHash == Fixture.sha256Hex(token) && stored.replaced == nil)
    }

    @Test("a token two rotations back is reuse even within the grace window: only the last replaced one is answered")
    func olderTokenWithinGrace() throws {
        let test = try TestPlatform()
        let first = try #require(try test.signIn(subject: "older-1").refreshToken)
        let second = try refresh(test, first).refreshToken
        let third = try refresh(test, second).refreshToken
        #expect(try refresh(test, second).refreshToken == third)
        #expect(wireErrorCode { _ = try refresh(test, first) } == .tokenExpired)
        #expect(wireErrorCode { _ = try refresh(test, third) } == .tokenExpired)
    }

    @Test("a replaced token is recognised as reuse for as long as its session lives, beyond the old 30-day period")
    func reuseRecognisedForTheSessionsLifetime() throws {
        let test = try TestPlatform(sessions: SessionPolicy(reuseDetectionPeriod: 60))
        let first = try #require(try test.signIn(subject: "long-1").refreshToken)
        let second = try refresh(test, first).refreshToken
        let third = try refresh(test, second).refreshToken
        test.time.advance(by: 90 * 86_400)
        try MaintenanceTask(store: test.store, time: test.time, policy: SessionPolicy(reuseDetectionPeriod: 60), log: { _ in })
            .runPass()
        #expect(wireErrorCode { _ = try refresh(test, first) } == .tokenExpired)
        #expect(wireErrorCode { _ = try refresh(test, third) } == .tokenExpired)
    }

    @Test("a made-up secret for a known session is reuse and revokes it; an unknown session id is INVALID_REFRESH_TOKEN")
    func forgedTokens() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "forged-1")
        let token = try #require(signIn.refreshToken)
        let id = try #require(sessionID(token))
        let unknown = ["\(id)x.\(token.dropFirst(id.count + 1))", ".\(token)", "no-dot-\(token)", "a-bare-legacy-secret"]
        for forged in unknown {
            #expect(wireErrorCode { _ = try refresh(test, forged) } == .invalidRefreshToken, "\(forged)")
        }
        #expect(try refresh(test, token).userId == signIn.localId, "unknown sessions change nothing")
        let current = try #require(try session(test, token)).currentTokenHash
        #expect(wireErrorCode { _ = try refresh(test, "\(id).\(String(repeating: "A", count: 43))") } == .tokenExpired)
        #expect(try session(test, token)?.revokedAtMillis != nil)
        #expect(try session(test, token)?.currentTokenHash == current)
    }

    @Test("replaying one Google token is slowed by the per-account sign-in bucket before it reaches the cap")
    func replayIsThrottled() throws {
        let test = try TestPlatform()
        let idToken = try test.google.idToken(subject: "replay-2", email: "replay2@example.com")
        var outcomes: [String] = []
        for _ in 0..<30 {
            do {
                _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: idToken), by: .user(client: nil))
                outcomes.append("ok")
            } catch let error as WireError {
                outcomes.append(error.code.rawValue)
            }
        }
        // The first sign-in creates the account; then 20 returning sign-ins, then none until the bucket refills.
        #expect(outcomes.prefix(21).allSatisfy { $0 == "ok" }, "\(outcomes)")
        #expect(outcomes.dropFirst(21).allSatisfy { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }, "\(outcomes)")
        test.time.advance(by: 2)
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: idToken), by: .user(client: nil)).idToken != nil)
    }

    @Test("one Google token replayed 150 times leaves 100 live sessions; the oldest are revoked")
    func capAgainstReplay() throws {
        // Out of the per-account sign-in bucket's way (see the next test): this one is about the cap.
        let test = try TestPlatform(rateLimits: RateLimiter.Rules().relaxed(by: 100))
        let idToken = try test.google.idToken(subject: "replay-1", email: "replay@example.com")
        var sessions: [String] = []
        for _ in 0..<150 {
            test.time.advance(by: 0.001)
            sessions.append(try #require(try test.accounts.signInWithIdp(test.signInRequest(idToken: idToken), by: .user(client: nil)).refreshToken))
        }
        let localID = try #require(try test.store.read { try $0.account(providerID: "google.com", rawID: "replay-1") }?.localID)
        #expect(try liveSessions(test, localID).count == 100)
        for token in sessions.prefix(50) {
            #expect(wireErrorCode { _ = try refresh(test, token) } == .tokenExpired)
        }
        for token in sessions.suffix(100) {
            #expect(try refresh(test, token).userId == localID)
        }
    }

    @Test("with rotation off the cap still applies")
    func capWithoutRotation() throws {
        let test = try TestPlatform(sessions: SessionPolicy(rotatesRefreshTokens: false, maximumSessionsPerAccount: 2))
        var tokens: [String] = []
        for _ in 0..<3 {
            test.time.advance(by: 1)
            tokens.append(try #require(try test.signIn(subject: "cap-off-1").refreshToken))
        }
        #expect(wireErrorCode { _ = try refresh(test, tokens[0]) } == .tokenExpired)
        #expect(try refresh(test, tokens[1]).refreshToken == tokens[1])
        #expect(try refresh(test, tokens[2]).refreshToken == tokens[2])
    }

    // MARK: Purge

    @Test("the purge deletes expired limit counters in batches and keeps live ones")
    func purgeLimitCounters() throws {
        let test = try TestPlatform()
        let now = test.time.nowMillis
        try test.store.write { writer in
            for index in 0..<5 {
                try writer.saveLimitCounter(LimitCounter(key: "old-\(index)", windowStartMillis: 0, expiresAtMillis: now - 1))
            }
            try writer.saveLimitCounter(LimitCounter(key: "live", windowStartMillis: now, expiresAtMillis: now + 60_000))
        }
        let purger = MaintenanceTask(
            store: test.store, time: test.time, policy: SessionPolicy(), schedule: MaintenanceTask.Schedule(batchSize: 2),
            log: { _ in })
        try purger.runPass()
        let left = try test.store.read { reader in
            try (0..<5).map { try reader.limitCounter(key: "old-\($0)") } + [try reader.limitCounter(key: "live")]
        }
        #expect(left.map { $0?.key } == [nil, nil, nil, nil, nil, "live"])
    }

    @Test("the purge deletes revoked sessions and deleted accounts' sessions after the retention; live ones stay")
    func purge() throws {
        let policy = SessionPolicy(reuseDetectionPeriod: 1_000, revokedRetention: 500)
        let test = try TestPlatform(sessions: policy)
        let purger = MaintenanceTask(
            store: test.store, time: test.time, policy: policy, schedule: MaintenanceTask.Schedule(batchSize: 2),
            log: { _ in })
        // A live session, rotated a few times.
        let live = try test.signIn(subject: "purge-live")
        var chain = [try #require(live.refreshToken)]
        for _ in 0..<3 { chain.append(try refresh(test, chain.last).refreshToken) }
        // A session revoked by reuse.
        let reused = try #require(try test.signIn(subject: "purge-reused").refreshToken)
        let reusedNext = try refresh(test, reused).refreshToken
        test.time.advance(by: 61)
        _ = wireErrorCode { _ = try refresh(test, reused) }
        // A session of a deleted account.
        let deleted = try test.signIn(subject: "purge-deleted")
        _ = try test.accounts.delete(DeleteAccountRequest(idToken: deleted.idToken), by: .user(client: nil))

        // The first pass revokes the deleted account's session: its retention starts now.
        #expect(try purger.runPass() == MaintenanceTask.Report())
        #expect(wireErrorCode { _ = try refresh(test, deleted.refreshToken) } == .userNotFound)
        test.time.advance(by: 501)
        #expect(try purger.runPass() == MaintenanceTask.Report(sessions: 2))
        for token in [reused, reusedNext, try #require(deleted.refreshToken)] {
            #expect(try session(test, token) == nil)
            #expect(wireErrorCode { _ = try refresh(test, token) } == .invalidRefreshToken)
        }
        test.time.advance(by: 1_000)
        #expect(try purger.runPass() == MaintenanceTask.Report())
        #expect(try session(test, chain.last) != nil)
        #expect(try refresh(test, chain.last).userId == live.localId)
    }

    @Test("the purge also removes expired dev IdP grants")
    func purgeDevGrants() throws {
        let test = try TestPlatform()
        try test.store.write { writer in
            try writer.insertDevGrant(
                DevIdPGrant(
                    tokenHash: "expired", kind: .accessToken, subject: "1", clientID: "c", scope: "openid",
                    expiresAt: test.time.nowSeconds - 1, createdAt: 0))
        }
        let purger = MaintenanceTask(store: test.store, time: test.time, policy: SessionPolicy(), log: { _ in })
        try purger.runPass()
        #expect(try test.store.read { try $0.devGrant(hash: "expired") } == nil)
    }

    @Test("the background purge runs a pass when started, logs what it deleted, and stops")
    func backgroundPurge() throws {
        let policy = SessionPolicy(reuseGracePeriod: 0, revokedRetention: 0)
        let test = try TestPlatform(sessions: policy)
        let first = try #require(try test.signIn(subject: "bg-1").refreshToken)
        _ = try refresh(test, first)
        _ = wireErrorCode { _ = try refresh(test, first) }  // reuse: the session is revoked
        test.time.advance(by: 1)
        let lines = LogLines()
        let purger = MaintenanceTask(store: test.store, time: test.time, policy: policy, log: lines.add)
        purger.start()
        purger.start()
        #expect(
            lines.waitForLine(timeout: 60)
                == "event=maintenance sessions_deleted=1 legacy_refresh_tokens_deleted=0 limit_counters_deleted=0"
                + " anonymous_accounts_deleted=0 mfa_state_deleted=0 dev_grants_deleted=0 provider_tokens_revoked=0"
                + " provider_token_revocations_failed=0 oob_codes_deleted=0 saml_assertions_deleted=0 audit_events_deleted=0"
                + " tenant_records_purged=0")
        purger.stop()
        purger.stop()
        #expect(try session(test, first) == nil)
    }
}

/// Log lines collected from another thread, with a wait for the first.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ line: String) {
        lines.withLock { $0.append(line) }
        arrived.signal()
    }

    /// The first line, once one arrived (nil if none within `timeout` seconds).
    func waitForLine(timeout: Int) -> String? {
        guard arrived.wait(timeout: .now() + .seconds(timeout)) == .success else { return nil }
        return lines.withLock { $0.first }
    }
}
