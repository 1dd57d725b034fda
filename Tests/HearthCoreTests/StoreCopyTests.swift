import Foundation
import HearthCore
import Testing

@Suite("Store copy")
struct StoreCopyTests {
    /// A source with two pages and more of accounts (page size 2), every kind of record a copy takes, and the ones it
    /// leaves behind (a revoked session, a session of a deleted account, a pending sign-in).
    private static func source() throws -> InMemoryStore {
        let store = InMemoryStore()
        try store.write { writer in
            for index in 0..<5 {
                try writer.insertAccount(
                    Account(
                        localID: "user\(index)", email: "user\(index)@example.com", createdAtMillis: 1_000 + Int64(index),
                        lastRefreshAtMillis: 5_000, validSinceMillis: 1_000,
                        providers: [
                            LinkedIdentity(
                                providerID: "google.com", rawID: "g\(index)", email: "user\(index)@example.com",
                                providerRefreshToken: ProviderRefreshToken(token: "provider-\(index)", clientID: "c"))
                        ],
                        mfaEnrollments: [
                            MFAEnrollment(
                                enrollmentID: "totp\(index)", kind: .totp, enrolledAtMillis: 2_000,
                                totpSecret: [1, 2, 3, UInt8(index)], lastUsedTOTPStep: 42)
                        ]))
            }
            try writer.insertAccount(Account(localID: "gone", createdAtMillis: 1, validSinceMillis: 1))
            try writer.insertSigningKey(SigningKeyRecord(keyID: "old", algorithm: "RS256", privateKeyPEM: "pem-old", createdAt: 10, retiredAt: 20))
            try writer.insertSigningKey(SigningKeyRecord(keyID: "new", algorithm: "RS256", privateKeyPEM: "pem-new", createdAt: 20))
            try writer.insertDevAccount(DevIdPAccount(subject: "s1", email: "dev@example.com", createdAtMillis: 1))
            try writer.insertServiceAccount(
                ServiceAccountRecord(keyID: "k1", email: "ops@p.iam.hearth", clientID: "1", publicKeyPEM: "pk1", createdAt: 1))
            try writer.revokeServiceAccount(keyID: "k1", at: 2)
            try writer.insertServiceAccount(
                ServiceAccountRecord(keyID: "k2", email: "ops@p.iam.hearth", clientID: "2", publicKeyPEM: "pk2", createdAt: 3))
            for index in 0..<5 {
                try writer.insertRefreshSession(
                    RefreshSession(
                        sessionID: "session\(index)", localID: "user\(index)", signInProvider: "google.com", authTime: 1,
                        startedAtMillis: 1_000, currentTokenHash: "hash\(index)",
                        replaced: ReplacedRefreshToken(tokenHash: "before\(index)", replacedAtMillis: 900, sealedSuccessor: [9])))
            }
            try writer.revokeSession("session4", atMillis: 2_000)
            try writer.insertRefreshSession(
                RefreshSession(
                    sessionID: "session-gone", localID: "gone", signInProvider: "google.com", authTime: 1,
                    startedAtMillis: 1_000, currentTokenHash: "hash-gone"))
            try writer.deleteAccount(localID: "gone")
            try writer.insertMFAPendingSignIn(
                MFAPendingSignIn(credentialHash: "pending", localID: "user0", signInProvider: "google.com", expiresAt: 99, createdAtMillis: 1))
            try writer.enqueueProviderTokenRevocation(
                ProviderTokenRevocation(
                    id: "r1", providerID: "apple.com", clientID: "c", token: "t", tokenTypeHint: "refresh_token",
                    localID: "gone", createdAtMillis: 1, attempts: 2, nextAttemptAtMillis: 50, lastError: "timeout"))
            // Five audit events, two at the same millisecond (pages of 2 cut between them), one of a deleted account.
            for (index, millis) in [1_000, 2_000, 2_000, 3_000, 4_000].enumerated() {
                try writer.insertAuditEvent(
                    AuditEvent(
                        id: AuditEvent.newID(atMillis: Int64(millis)), atMillis: Int64(millis), kind: .signIn,
                        localID: index == 0 ? "gone" : "user\(index)", provider: index == 1 ? nil : "google.com",
                        clientAddress: "203.0.113.\(index)", actor: .user, detail: "n=\(index)"))
            }
        }
        return store
    }

    @Test("copies accounts, keys, dev and service accounts, live sessions and queued revocations, page by page")
    func copiesEverything() throws {
        let source = try Self.source()
        let target = InMemoryStore()
        var pages: [StoreCopy.Counts] = []
        let time = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000.25))
        let report = try StoreCopy(from: source, to: target, pageSize: 2, time: time).run { pages.append($0) }

        var expected = StoreCopy.Counts()
        expected.accounts = 5
        expected.signingKeys = 2
        expected.devAccounts = 1
        expected.serviceAccounts = 2
        expected.refreshSessions = 4
        expected.providerTokenRevocations = 1
        expected.auditEvents = 5
        #expect(report.counts == expected)
        #expect(report.snapshotAtMillis == 1_800_000_000_250)
        #expect(pages.map(\.accounts).prefix(3) == [2, 4, 5])
        #expect(pages.map(\.auditEvents).suffix(3) == [2, 4, 5])
        #expect(try Snapshot(target) == Snapshot(source, liveSessionsOf: ["user0", "user1", "user2", "user3"]))
        #expect(try target.read { try $0.serviceAccount(email: "ops@p.iam.hearth")?.keyID } == "k2")
        #expect(try target.read { try $0.mfaPendingSignIn(hash: "pending") } == nil)
    }

    @Test("copies tenant records with their tenants' accounts; a target holding a tenant is refused")
    func copiesTenants() throws {
        let source = InMemoryStore()
        let tenants = (1...3).map {
            Tenant(id: "tenant-\($0)", displayName: "Tenant-\($0)", mfaConfig: #"{"state":"DISABLED"}"#, createdAtMillis: 1,
                   updatedAtMillis: 2)
        }
        try source.write { writer in for tenant in tenants { try writer.insertTenant(tenant) } }
        try source.scoped(to: try .tenant("tenant-2")).write {
            try $0.insertAccount(Account(localID: "t2-user", createdAtMillis: 1, validSinceMillis: 1))
        }
        let target = InMemoryStore()
        let report = try StoreCopy(from: source, to: target, pageSize: 2).run()
        #expect(report.counts.tenants == 3 && report.counts.accounts == 1)
        #expect(try target.read { try $0.tenants(after: nil, limit: 10) } == tenants)
        #expect(try target.scoped(to: try .tenant("tenant-2")).read { try $0.account(localID: "t2-user") } != nil)

        let holdsTenant = InMemoryStore()
        try holdsTenant.write { try $0.insertTenant(tenants[0]) }
        #expect(throws: StoreCopy.Failure.targetNotEmpty(what: "tenants")) {
            try StoreCopy(from: source, to: holdsTenant).run()
        }
    }

    @Test("copies provider configurations of the project and of every tenant, one without accounts included; a target holding one is refused")
    func copiesProviderConfigs() throws {
        let source = InMemoryStore()
        func config(_ kind: ProviderConfigRecord.Kind, _ id: String) -> ProviderConfigRecord {
            ProviderConfigRecord(
                kind: kind, id: id, enabled: true, clientID: "c-\(id)", issuer: kind == .oauth ? "https://i.example" : nil,
                clientSecret: "secret-\(id)", idTokenResponse: true, createdAtMillis: 1, updatedAtMillis: 2)
        }
        let project = [config(.defaultSupported, "google.com")] + (1...3).map { config(.oauth, "oidc.p\($0)") }
        try source.write { writer in
            for record in project { try writer.insertProviderConfig(record) }
            try writer.insertTenant(Tenant(id: "empty-1", createdAtMillis: 1, updatedAtMillis: 1))
        }
        try source.scoped(to: try .tenant("empty-1")).write { try $0.insertProviderConfig(config(.oauth, "oidc.t")) }
        let target = InMemoryStore()
        let report = try StoreCopy(from: source, to: target, pageSize: 2).run()
        #expect(report.counts.providerConfigs == 5 && report.counts.accounts == 0)
        #expect(try target.read { try $0.providerConfigs(kind: .oauth, after: nil, limit: 10) } == Array(project.dropFirst()))
        #expect(try target.read { try $0.providerConfig(kind: .defaultSupported, id: "google.com") } == project[0])
        #expect(try target.scoped(to: try .tenant("empty-1")).read { try $0.providerConfig(kind: .oauth, id: "oidc.t") }
            == config(.oauth, "oidc.t"))
        #expect(try StoreCopy(from: source, to: target).counts(of: target) == report.counts)

        let holdsConfig = InMemoryStore()
        try holdsConfig.write { try $0.insertProviderConfig(project[1]) }
        #expect(throws: StoreCopy.Failure.targetNotEmpty(what: "provider configurations")) {
            try StoreCopy(from: source, to: holdsConfig).run()
        }
    }

    @Test("copies the configuration the config API set, the project's and a tenant's")
    func copiesProjectConfig() throws {
        let source = InMemoryStore()
        let project = ProjectConfigRecord(settings: #"{"signIn":{"anonymous":{"enabled":false}}}"#, updatedAtMillis: 3)
        let tenant = ProjectConfigRecord(settings: "{}", updatedAtMillis: 4)
        try source.write { writer in
            try writer.putProjectConfig(project)
            try writer.insertTenant(Tenant(id: "t-1", createdAtMillis: 1, updatedAtMillis: 1))
        }
        try source.scoped(to: try .tenant("t-1")).write { try $0.putProjectConfig(tenant) }
        let target = InMemoryStore()
        _ = try StoreCopy(from: source, to: target).run()
        #expect(try target.read { try $0.projectConfig() } == project)
        #expect(try target.scoped(to: try .tenant("t-1")).read { try $0.projectConfig() } == tenant)
    }

    @Test("what is written to the source during the copy is not in it: the copy is the snapshot it began with")
    func writesDuringTheCopy() throws {
        let source = try Self.source()
        let target = InMemoryStore()
        var written = 0
        // After each page, another writer adds an account (sorting before every copied one), its session and an
        // audit event, and deletes an account the copy has not reached yet.
        let report = try StoreCopy(from: source, to: target, pageSize: 2).run { _ in
            written += 1
            try? source.write { writer in
                try writer.insertAccount(Account(localID: "a-late\(written)", createdAtMillis: 9_000, validSinceMillis: 9_000))
                try writer.insertRefreshSession(
                    RefreshSession(
                        sessionID: "late\(written)", localID: "a-late\(written)", signInProvider: "anonymous", authTime: 9,
                        startedAtMillis: 9_000, currentTokenHash: "late-hash\(written)"))
                try writer.insertAuditEvent(
                    AuditEvent(
                        id: AuditEvent.newID(atMillis: 9_000 + Int64(written)), atMillis: 9_000 + Int64(written), kind: .signIn,
                        localID: "a-late\(written)", actor: .user))
                if written == 1 { try writer.deleteAccount(localID: "user4") }
            }
        }
        #expect(written > 3)
        #expect(report.counts.accounts == 5 && report.counts.refreshSessions == 4 && report.counts.auditEvents == 5)
        #expect(try Snapshot(target).accounts.map(\.localID) == ["user0", "user1", "user2", "user3", "user4"])
        #expect(try target.read { try $0.auditEvents(AuditQuery(limit: 100)) }.allSatisfy { $0.localID?.hasPrefix("a-late") != true })
        #expect(try source.read { try $0.accountCount() } == 5 + written - 1)
    }

    @Test("every tenant's accounts, sessions and audit events are copied into the same tenant")
    func copiesEveryScope() throws {
        let source = try Self.source()
        let tenant = try StoreScope.tenant("tenant-1")
        try source.scoped(to: tenant).write { writer in
            try writer.insertAccount(Account(localID: "user0", email: "user0@example.com", createdAtMillis: 7, validSinceMillis: 0))
            try writer.insertRefreshSession(
                RefreshSession(
                    sessionID: "tenant-session", localID: "user0", signInProvider: "password", authTime: 1,
                    startedAtMillis: 1_000, currentTokenHash: "tenant-hash"))
            try writer.insertAuditEvent(
                AuditEvent(id: AuditEvent.newID(atMillis: 5), atMillis: 5, kind: .signUp, localID: "user0", actor: .user))
        }
        let target = InMemoryStore()
        let report = try StoreCopy(from: source, to: target, pageSize: 2).run()
        #expect(report.counts.accounts == 6 && report.counts.refreshSessions == 5 && report.counts.auditEvents == 6)
        #expect(try target.read { try $0.scopes() } == [.project, tenant])
        let copied = target.scoped(to: tenant)
        #expect(try copied.read { try $0.account(localID: "user0")?.createdAtMillis } == 7)
        #expect(try copied.read { try $0.refreshSession(id: "tenant-session")?.currentTokenHash } == "tenant-hash")
        #expect(try copied.read { try $0.auditEvents(AuditQuery()).map(\.kind) } == [.signUp])
        #expect(try target.read { try $0.account(localID: "user0")?.createdAtMillis } == 1_000, "the project's own")
        #expect {
            try StoreCopy(from: source, to: copied.scoped(to: try StoreScope.tenant("elsewhere")), pageSize: 2).run()
        } throws: { error in
            error as? StoreCopy.Failure == .targetNotEmpty(what: "accounts")
        }
    }

    @Test("a target that does not hold what was written to it fails the count check")
    func countsAreChecked() throws {
        // Pages of 2: the fourth write transaction is the signing keys'.
        let target = LosingOneWrite(number: 4)
        #expect {
            try StoreCopy(from: try Self.source(), to: target, pageSize: 2).run()
        } throws: { error in
            guard case StoreCopy.Failure.countsDiffer(let snapshot, let found) = error else { return false }
            return snapshot.signingKeys == 2 && found.signingKeys == 0 && found.accounts == 5
        }
    }

    /// A faulty store: the writes of its `number`th write transaction go to a scratch store and are lost.
    private final class LosingOneWrite: HearthStore, @unchecked Sendable {
        // @unchecked: used by one test thread.
        private let kept = InMemoryStore()
        private let scratch = InMemoryStore()
        private let lost: Int
        private var writes = 0

        init(number: Int) { lost = number }

        var scope: StoreScope { kept.scope }
        func scoped(to scope: StoreScope) -> any HearthStore { kept.scoped(to: scope) }
        func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try kept.read(body) }
        func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
            writes += 1
            return try (writes == lost ? scratch : kept).write(isolation, body)
        }
        func close() {}
    }

    /// What a copy carries, read back from a store.
    private struct Snapshot: Equatable {
        var accounts: [Account]
        var keys: [SigningKeyRecord]
        var devAccounts: [DevIdPAccount]
        var serviceAccounts: [ServiceAccountRecord]
        var sessions: [RefreshSession]
        var revocations: [ProviderTokenRevocation]
        var auditEvents: [AuditEvent]

        /// `liveSessionsOf`: keep only those accounts' unrevoked sessions (default: every session).
        init(_ store: any HearthStore, liveSessionsOf owners: Set<String>? = nil) throws {
            (accounts, keys, devAccounts, serviceAccounts, sessions, revocations, auditEvents) = try store.read { reader in
                (
                    try reader.accounts(after: nil, limit: 100), try reader.signingKeys(), try reader.devAccounts(),
                    try reader.serviceAccounts(),
                    try reader.refreshSessions(after: nil, limit: 100).filter { session in
                        owners.map { $0.contains(session.localID) && session.revokedAtMillis == nil } ?? true
                    },
                    try reader.dueProviderTokenRevocations(atMillis: .max, limit: 100),
                    try reader.auditEvents(AuditQuery(limit: 100))
                )
            }
        }
    }

    @Test("a target that holds accounts, keys or sessions is refused and left as it was; an empty source copies nothing")
    func refusesNonEmptyTarget() throws {
        let source = try Self.source()
        let seeded: [(String, (any StoreWriter) throws -> Void)] = [
            ("accounts", { try $0.insertAccount(Account(localID: "other", createdAtMillis: 1, validSinceMillis: 1)) }),
            ("signing keys", { try $0.insertSigningKey(SigningKeyRecord(keyID: "x", algorithm: "RS256", privateKeyPEM: "p", createdAt: 1)) }),
            ("dev IdP accounts", { try $0.insertDevAccount(DevIdPAccount(subject: "x", email: "x@example.com", createdAtMillis: 1)) }),
            ("audit events", { try $0.insertAuditEvent(AuditEvent(id: "0000000000001-x", atMillis: 1, kind: .keyRotated, actor: .system)) }),
        ]
        for (what, seed) in seeded {
            let target = InMemoryStore()
            try target.write { try seed($0) }
            #expect(throws: StoreCopy.Failure.targetNotEmpty(what: what)) { try StoreCopy(from: source, to: target).run() }
            #expect(try target.read { try $0.accountCount() } == (what == "accounts" ? 1 : 0))
            #expect(try target.read { try $0.refreshSessions(after: nil, limit: 10) }.isEmpty)
        }
        #expect(try StoreCopy(from: InMemoryStore(), to: InMemoryStore()).run().counts == StoreCopy.Counts())
    }
}
