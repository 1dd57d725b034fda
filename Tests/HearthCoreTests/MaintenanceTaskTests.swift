import Dispatch
import Foundation
import HearthCore
import HearthProtocol
import Synchronization
import Testing

/// A revoker that answers from a script (then succeeds) and records what it was asked.
final class ScriptedRevoker: ProviderTokenRevoking {
    private let state: Mutex<(script: [RevocationFailure?], calls: [ProviderTokenRevocation])>
    private let called = DispatchSemaphore(value: 0)

    init(_ script: [RevocationFailure?] = []) { state = Mutex((script, [])) }

    var calls: [ProviderTokenRevocation] { state.withLock { $0.calls } }

    func revoke(_ revocation: ProviderTokenRevocation) throws {
        let failure = state.withLock { state -> RevocationFailure? in
            state.calls.append(revocation)
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        called.signal()
        if let failure { throw failure }
    }

    /// Waits (at most `timeout` seconds) for the next call.
    func waitForCall(timeout: Int) -> Bool { called.wait(timeout: .now() + .seconds(timeout)) == .success }
}

/// A store that counts its write transactions.
final class CountingStore: HearthStore {
    let inner = InMemoryStore()
    private let count = Mutex(0)
    var writes: Int { count.withLock { $0 } }

    var scope: StoreScope { inner.scope }
    func scoped(to scope: StoreScope) -> any HearthStore { inner.scoped(to: scope) }
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try inner.read(body) }
    func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        count.withLock { $0 += 1 }
        return try inner.write(isolation, body)
    }
    func close() { inner.close() }
}

@Suite("Maintenance task: stale guests, expired MFA state, provider-token revocations")
struct MaintenanceTaskTests {
    static let day: TimeInterval = 86_400

    static func task(
        _ test: TestPlatform, days: Int = 30, batchSize: Int = 500, revokers: [String: any ProviderTokenRevoking] = [:],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) -> MaintenanceTask {
        MaintenanceTask(
            store: test.store, time: test.time, policy: SessionPolicy(), schedule: .init(batchSize: batchSize),
            anonymousAccountLifetimeDays: days, revokers: revokers, log: log)
    }

    static func exists(_ test: TestPlatform, _ localID: String) throws -> Bool {
        try test.store.read { try $0.account(localID: localID) } != nil
    }

    static func queue(_ test: TestPlatform) throws -> [ProviderTokenRevocation] {
        try test.store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 100) }
    }

    // MARK: Anonymous accounts

    @Test("guests older than the lifetime go with their sessions; younger guests stay; upgraded ones stay forever")
    func staleGuests() throws {
        let test = try TestPlatform()
        let old = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let upgraded = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        _ = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "kept"), linking: upgraded.idToken), by: .user(client: nil))
        test.time.advance(by: 10 * Self.day)
        let young = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let task = Self.task(test)

        test.time.advance(by: 20 * Self.day - 1)
        #expect(try task.runPass().anonymousAccounts == 0, "30 days less a second: nothing is stale yet")
        test.time.advance(by: 2)
        let report = try task.runPass()
        #expect(report.anonymousAccounts == 1)
        #expect(report.sessions == 0, "the guest's session is revoked now; deleted after the retention")
        #expect(try !Self.exists(test, old.localId))
        #expect(try Self.exists(test, young.localId))
        #expect(try Self.exists(test, upgraded.localId))
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: old.refreshToken), by: .user(client: nil)) } == .userNotFound)
        let oldSession = String(old.refreshToken.prefix { $0 != "." })
        #expect(try test.store.read { try $0.refreshSession(id: oldSession) }?.revokedAtMillis != nil)

        test.time.advance(by: 10 * Self.day)
        #expect(try task.runPass().anonymousAccounts == 1)
        #expect(try !Self.exists(test, young.localId))
        test.time.advance(by: 3_650 * Self.day)
        #expect(try task.runPass().anonymousAccounts == 0)
        #expect(try Self.exists(test, upgraded.localId), "an upgraded guest is a regular account for good")
    }

    @Test("stale guests are deleted in every scope")
    func staleGuestsOfTenants() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        try store.write { try $0.insertTenant(Tenant(id: "tenant-1", createdAtMillis: 0, updatedAtMillis: 0)) }
        let tenant = store.scoped(to: try StoreScope.tenant("tenant-1"))
        for scoped in [store, tenant] as [any HearthStore] {
            try scoped.write { writer in
                try writer.insertAccount(
                    Account(localID: "guest", createdAtMillis: time.nowMillis, validSinceMillis: 0, isAnonymous: true))
                try writer.insertAccount(Account(localID: "kept", createdAtMillis: time.nowMillis, validSinceMillis: 0))
            }
        }
        time.advance(by: 31 * Self.day)
        let task = MaintenanceTask(store: store, time: time, policy: SessionPolicy(), log: { _ in })
        #expect(try task.runPass().anonymousAccounts == 2)
        for scoped in [store, tenant] as [any HearthStore] {
            #expect(try scoped.read { try $0.accounts(after: nil, limit: 10).map(\.localID) } == ["kept"])
        }
    }

    @Test("a lifetime of 0 days keeps guests forever")
    func keepForever() throws {
        let test = try TestPlatform()
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        test.time.advance(by: 3_650 * Self.day)
        #expect(try Self.task(test, days: 0).runPass().anonymousAccounts == 0)
        #expect(try Self.exists(test, guest.localId))
    }

    @Test("stale guests are deleted in batches of batchSize, one write transaction each")
    func batches() throws {
        let store = CountingStore()
        let time = ManualTimeSource()
        try store.write { writer in
            for index in 0..<5 {
                try writer.insertAccount(
                    Account(localID: "guest-\(index)", createdAtMillis: time.nowMillis, validSinceMillis: 0, isAnonymous: true))
            }
        }
        time.advance(by: 31 * Self.day)
        let task = MaintenanceTask(
            store: store, time: time, policy: SessionPolicy(), schedule: .init(batchSize: 2), log: { _ in })
        let before = store.writes
        #expect(try task.runPass().anonymousAccounts == 5)
        #expect(try store.read { try $0.accountCount() } == 0)
        // 3 pages of guests, then one each for MFA state, dev grants, limit counters, email action codes, SAML
        // assertions, audit events, sessions, legacy tokens.
        #expect(store.writes - before == 3 + 8)
    }

    // MARK: Expired state

    @Test("a pass purges expired pending MFA sign-ins and verification sessions, keeping those that throttle SMS")
    func expiredMFAState() throws {
        let test = try TestPlatform()
        let localID = try #require(try test.signIn(subject: "mfa-state").localId)
        let now = test.time.nowSeconds
        try test.store.write { writer in
            try writer.insertMFAPendingSignIn(
                MFAPendingSignIn(credentialHash: "expired", localID: localID, signInProvider: "google.com", expiresAt: now - 1, createdAtMillis: 0))
            try writer.insertMFAPendingSignIn(
                MFAPendingSignIn(credentialHash: "live", localID: localID, signInProvider: "google.com", expiresAt: now + 600, createdAtMillis: 0))
            try writer.insertVerificationSession(
                VerificationSession(sessionHash: "old", purpose: .phoneSignIn, localID: localID, expiresAt: now - 1, createdAtMillis: 0))
            try writer.insertVerificationSession(
                VerificationSession(
                    sessionHash: "recent", purpose: .phoneSignIn, localID: localID, expiresAt: now - 1,
                    createdAtMillis: test.time.nowMillis - 60_000))
        }
        #expect(try Self.task(test).runPass().mfaState == 2)
        try test.store.read { reader throws in
            #expect(try reader.mfaPendingSignIn(hash: "expired") == nil)
            #expect(try reader.mfaPendingSignIn(hash: "live") != nil)
            #expect(try reader.verificationSession(hash: "old") == nil)
            #expect(try reader.verificationSession(hash: "recent") != nil, "still counts against the number for an hour")
        }
    }

    @Test("audit events older than the retention are deleted oldest first in batches; younger ones stay")
    func auditRetention() throws {
        let store = CountingStore()
        let time = ManualTimeSource()
        let day: Int64 = 86_400_000
        func event(daysOld: Int64, plusMillis: Int64 = 0) -> AuditEvent {
            let millis = time.nowMillis - daysOld * day + plusMillis
            return AuditEvent(id: AuditEvent.newID(atMillis: millis), atMillis: millis, kind: .signIn, localID: "u", actor: .user)
        }
        let kept = [event(daysOld: 90), event(daysOld: 30)]
        try store.write { writer in
            for event in [event(daysOld: 200), event(daysOld: 91), event(daysOld: 90, plusMillis: -1)] + kept {
                try writer.insertAuditEvent(event)
            }
        }
        let lines = Mutex<[String]>([])
        let task = MaintenanceTask(
            store: store, time: time, policy: SessionPolicy(), schedule: .init(batchSize: 2),
            audit: AuditLog(retentionDays: 90), log: { line in lines.withLock { $0.append(line) } })
        let before = store.writes
        #expect(try task.runPass().auditEvents == 3)
        // Two batches of audit events (2, then 1), and one write each for guests, MFA state, dev grants, limit counters,
        // email action codes, SAML assertions, sessions, legacy tokens.
        #expect(store.writes - before == 2 + 8)
        #expect(try store.read { try $0.auditEvents(AuditQuery()) } == kept.reversed())
        #expect(lines.withLock { $0 }.contains { $0.contains("audit_events_deleted=3") })
        #expect(try task.runPass().auditEvents == 0)
        time.advance(by: 0.001)
        #expect(try task.runPass().auditEvents == 1, "90 days and a millisecond old")
        #expect(try store.read { try $0.auditEvents(AuditQuery()) } == [kept[1]])
    }

    // MARK: Revocations

    @Test("a pass purges the ids of expired SAML assertions in every scope, in batches, and logs how many; live ones stay")
    func expiredSAMLAssertions() throws {
        let test = try TestPlatform()
        let now = test.time.nowMillis
        let tenant = test.store.scoped(to: try .tenant("t-1"))
        for (store, id, expires) in [
            (test.store, "_old-1", now - 1), (test.store, "_old-2", now - 5), (tenant, "_old-3", now - 2),
            (test.store, "_live", now + 60_000),
        ] as [(any HearthStore, String, Int64)] {
            _ = try store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: id, expiresAtMillis: expires) }
        }
        let lines = Mutex<[String]>([])
        let report = try Self.task(test, batchSize: 2, log: { line in lines.withLock { $0.append(line) } }).runPass()
        #expect(report.samlAssertions == 3)
        #expect(lines.withLock { $0 }.contains { $0.contains(" saml_assertions_deleted=3 ") }, "\(lines.withLock { $0 })")
        #expect(try test.store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_old-1", expiresAtMillis: now) })
        #expect(try test.store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_live", expiresAtMillis: now) }
            == false, "a live id is still a replay")
    }

    @Test("a failing revocation is logged without its token, retried after the backoff and removed only after success")
    func retriedRevocation() throws {
        let test = try TestPlatform()
        let user = try test.signIn(subject: "revoke-me")
        let localID = try #require(user.localId)
        try AccountLifecycleTests.linkApple(test, to: localID)
        _ = try test.accounts.delete(DeleteAccountRequest(idToken: user.idToken), by: .user(client: nil))
        let token = AccountLifecycleTests.appleToken
        let revoker = ScriptedRevoker([
            .temporary("HTTP 503 from https://appleid.apple.com/auth/revoke for token \(token)"), .temporary("timed out"),
        ])
        let lines = Mutex<[String]>([])
        let task = Self.task(test, revokers: ["apple.com": revoker], log: { line in lines.withLock { $0.append(line) } })

        var report = try task.runPass()
        #expect(report.failedRevocations == 1 && report.revokedProviderTokens == 0)
        let failure = lines.withLock { $0.filter { $0.hasPrefix("event=provider-token-revocation-failed") } }
        #expect(failure.count == 1)
        #expect(failure.first?.contains("provider=apple.com uid=\(localID) attempt=1") == true)
        #expect(lines.withLock { $0.allSatisfy { !$0.contains(token) } })
        var queued = try #require(try Self.queue(test).first)
        #expect(queued.attempts == 1)
        #expect(queued.nextAttemptAtMillis == test.time.nowMillis + 60_000)
        #expect(queued.lastError?.contains(token) == false)
        #expect(queued.lastError?.contains("HTTP 503") == true)

        // Not due yet: the provider is not called again.
        test.time.advance(by: 59)
        report = try task.runPass()
        #expect(revoker.calls.count == 1 && report.failedRevocations == 0)
        test.time.advance(by: 1)
        #expect(try task.runPass().failedRevocations == 1)
        queued = try #require(try Self.queue(test).first)
        #expect(queued.attempts == 2 && queued.nextAttemptAtMillis == test.time.nowMillis + 120_000)
        test.time.advance(by: 120)
        report = try task.runPass()
        #expect(report.revokedProviderTokens == 1 && report.failedRevocations == 0)
        #expect(try Self.queue(test).isEmpty)
        #expect(revoker.calls.count == 3)
        #expect(revoker.calls.allSatisfy { $0.token == token && $0.clientID == "com.example.app" && $0.tokenTypeHint == "refresh_token" })
    }

    @Test("a revocation without a revoker for its provider stays queued; a refusal for good is logged and dropped")
    func unrevokable() throws {
        let test = try TestPlatform()
        try test.store.write { writer in
            for (id, provider) in [("r-none", "oidc.unknown"), ("r-refused", "apple.com")] {
                try writer.enqueueProviderTokenRevocation(
                    ProviderTokenRevocation(
                        id: id, providerID: provider, clientID: "c", token: "tok-\(id)", tokenTypeHint: "refresh_token",
                        localID: "uid-\(id)", createdAtMillis: 0, nextAttemptAtMillis: 0))
            }
        }
        let lines = Mutex<[String]>([])
        let task = Self.task(
            test, revokers: ["apple.com": ScriptedRevoker([.permanent("unsupported_token_type")])],
            log: { line in lines.withLock { $0.append(line) } })
        #expect(try task.runPass().failedRevocations == 2)
        #expect(try Self.queue(test).map(\.id) == ["r-none"])
        #expect(try Self.queue(test).first?.lastError == "no revoker is configured for provider oidc.unknown")
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.contains("provider=apple.com uid=uid-r-refused attempt=1 dropped=refused-for-good") })
        #expect(logged.contains { $0.contains("provider=oidc.unknown uid=uid-r-none attempt=1 retry_at_millis=") })
    }

    @Test("revocations are tried in batches of batchSize")
    func revocationBatches() throws {
        let test = try TestPlatform()
        try test.store.write { writer in
            for index in 0..<5 {
                try writer.enqueueProviderTokenRevocation(
                    ProviderTokenRevocation(
                        id: "r\(index)", providerID: "apple.com", clientID: "c", token: "t\(index)",
                        tokenTypeHint: "refresh_token", localID: "u", createdAtMillis: 0, nextAttemptAtMillis: 0))
            }
        }
        let revoker = ScriptedRevoker()
        #expect(try Self.task(test, batchSize: 2, revokers: ["apple.com": revoker]).runPass().revokedProviderTokens == 5)
        #expect(revoker.calls.map(\.id) == ["r0", "r1", "r2", "r3", "r4"])
        #expect(try Self.queue(test).isEmpty)
    }

    @Test("the backoff doubles from a minute and stops at 6 hours")
    func backoff() {
        let minutes = [1, 2, 3, 4, 9, 10, 11, 1_000, Int.max].map { ProviderTokenRevocation.retryDelayMillis(afterAttempts: $0) / 60_000 }
        #expect(minutes == [1, 2, 4, 8, 256, 360, 360, 360, 360])
    }

    @Test("wake() runs the due revocations at once in the background, long before the next pass")
    func wake() throws {
        let test = try TestPlatform()
        // Something for the first pass to do, so that its log line says it is over.
        try test.store.write { writer in
            try writer.insertDevGrant(
                DevIdPGrant(
                    tokenHash: "expired", kind: .accessToken, subject: "1", clientID: "c", scope: "openid",
                    expiresAt: test.time.nowSeconds - 1, createdAt: 0))
        }
        let revoker = ScriptedRevoker()
        let lines = LogLines()
        let task = MaintenanceTask(
            store: test.store, time: test.time, policy: SessionPolicy(), schedule: .init(interval: 86_400),
            revokers: ["apple.com": revoker], log: lines.add)
        task.start()
        defer { task.stop() }
        #expect(lines.waitForLine(timeout: 60)?.contains("dev_grants_deleted=1") == true)
        let user = try test.signIn(subject: "wake")
        try AccountLifecycleTests.linkApple(test, to: try #require(user.localId))
        _ = try test.accounts.delete(DeleteAccountRequest(idToken: user.idToken), by: .user(client: nil))
        task.wake()
        #expect(revoker.waitForCall(timeout: 60))
        task.stop()
        #expect(try Self.queue(test).isEmpty)
    }
}
