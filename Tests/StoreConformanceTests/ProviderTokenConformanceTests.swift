import HearthCore
import Testing

/// Anonymous accounts, provider refresh tokens on identities and the provider-token revocation queue
/// (migration 8 in SQLite). Each test runs against every `StoreKind`.
@Suite("Store conformance: anonymous accounts and provider tokens")
struct ProviderTokenConformanceTests {
    static func guest(_ localID: String, createdAtMillis: Int64) -> Account {
        Account(localID: localID, createdAtMillis: createdAtMillis, validSinceMillis: createdAtMillis, isAnonymous: true)
    }

    static func apple(_ rawID: String, token: String? = nil) -> LinkedIdentity {
        LinkedIdentity(
            providerID: "apple.com", rawID: rawID, email: "\(rawID)@privaterelay.appleid.com",
            providerRefreshToken: token.map { ProviderRefreshToken(token: $0, clientID: "com.example.app") })
    }

    static func revocation(_ id: String, due: Int64, localID: String = "uid-1") -> ProviderTokenRevocation {
        ProviderTokenRevocation(
            id: id, providerID: "apple.com", clientID: "com.example.app", token: "r.token-of-\(id)",
            tokenTypeHint: "refresh_token", localID: localID, createdAtMillis: due - 5, nextAttemptAtMillis: due)
    }

    // MARK: Anonymous accounts

    @Test("the anonymous marker round-trips and an update clears it", arguments: StoreKind.allCases)
    func anonymousMarker(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var guest = Self.guest("uid-g", createdAtMillis: 100)
            try store.write { try $0.insertAccount(guest) }
            #expect(try store.read { try $0.account(localID: "uid-g") }?.isAnonymous == true)
            guest.isAnonymous = false
            guest.providers = [Self.apple("a1")]
            try store.write { try $0.updateAccount(guest) }
            #expect(try store.read { try $0.account(localID: "uid-g") } == guest)
            #expect(try store.read { try $0.account(localID: "uid-g") }?.isAnonymous == false)
        }
    }

    @Test("stale anonymous accounts are listed in uid order after a cursor, with a limit", arguments: StoreKind.allCases)
    func staleAnonymousAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for (localID, created) in [("uid-c", 10), ("uid-a", 20), ("uid-é", 30), ("uid-b", 40), ("uid-young", 1_000)] {
                    try writer.insertAccount(Self.guest(localID, createdAtMillis: Int64(created)))
                }
                var upgraded = Self.guest("uid-upgraded", createdAtMillis: 1)
                upgraded.isAnonymous = false
                try writer.insertAccount(upgraded)
                try writer.insertAccount(bareAccount("uid-0"))  // never anonymous, created at 5
            }
            try store.read { reader throws in
                #expect(try reader.anonymousAccountIDs(createdBefore: 1_000, after: nil, limit: 10) == ["uid-a", "uid-b", "uid-c", "uid-é"])
                #expect(
                    try reader.anonymousAccountIDs(createdBefore: 1_001, after: nil, limit: 10)
                        == ["uid-a", "uid-b", "uid-c", "uid-young", "uid-é"])
                #expect(try reader.anonymousAccountIDs(createdBefore: 30, after: nil, limit: 10) == ["uid-a", "uid-c"])
                #expect(try reader.anonymousAccountIDs(createdBefore: 1_000, after: nil, limit: 2) == ["uid-a", "uid-b"])
                #expect(try reader.anonymousAccountIDs(createdBefore: 1_000, after: "uid-b", limit: 2) == ["uid-c", "uid-é"])
                #expect(try reader.anonymousAccountIDs(createdBefore: 1_000, after: "uid-é", limit: 2) == [])
                #expect(try reader.anonymousAccountIDs(createdBefore: 10, after: nil, limit: 2) == [])
            }
        }
    }

    // MARK: Provider refresh tokens

    @Test("an identity's provider refresh token round-trips, survives updates and goes when removed", arguments: StoreKind.allCases)
    func identityToken(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var account = bareAccount("uid-1")
            account.providers = [Self.apple("a1", token: "r.apple-1"), LinkedIdentity(providerID: "google.com", rawID: "g1")]
            try store.write { try $0.insertAccount(account) }
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == account)
                #expect(
                    try reader.account(providerID: "apple.com", rawID: "a1")?.identity(for: "apple.com")?.providerRefreshToken
                        == ProviderRefreshToken(token: "r.apple-1", clientID: "com.example.app"))
            }
            account.displayName = "Changed"
            account.providers.reverse()
            try store.write { try $0.updateAccount(account) }
            #expect(try store.read { try $0.account(localID: "uid-1") } == account)
            account.providers[1].providerRefreshToken = nil
            try store.write { try $0.updateAccount(account) }
            #expect(try store.read { try $0.account(localID: "uid-1") }?.identity(for: "apple.com")?.providerRefreshToken == nil)
        }
    }

    // MARK: The revocation queue

    @Test("queued revocations round-trip and are listed when due, longest due first, with a limit", arguments: StoreKind.allCases)
    func queue(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var failedBefore = Self.revocation("rev-c", due: 300)
            failedBefore.attempts = 2
            failedBefore.lastError = "HTTP 503 from the provider"
            try store.write { writer throws in
                try writer.enqueueProviderTokenRevocation(Self.revocation("rev-b", due: 100))
                try writer.enqueueProviderTokenRevocation(Self.revocation("rev-a", due: 100))
                try writer.enqueueProviderTokenRevocation(failedBefore)
                try writer.enqueueProviderTokenRevocation(Self.revocation("rev-later", due: 1_000))
            }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.enqueueProviderTokenRevocation(Self.revocation("rev-a", due: 5)) }
            }
            try store.read { reader throws in
                #expect(try reader.providerTokenRevocation(id: "rev-c") == failedBefore)
                #expect(try reader.providerTokenRevocation(id: "nothing") == nil)
                #expect(try reader.dueProviderTokenRevocations(atMillis: 99, limit: 10) == [])
                #expect(try reader.dueProviderTokenRevocations(atMillis: 100, limit: 10).map(\.id) == ["rev-a", "rev-b"])
                #expect(try reader.dueProviderTokenRevocations(atMillis: 999, limit: 10).map(\.id) == ["rev-a", "rev-b", "rev-c"])
                #expect(try reader.dueProviderTokenRevocations(atMillis: 999, limit: 2) == [Self.revocation("rev-a", due: 100), Self.revocation("rev-b", due: 100)])
                #expect(try reader.dueProviderTokenRevocations(atMillis: .max, limit: 10).count == 4)
            }
        }
    }

    @Test("a failed attempt is counted and backs off a minute, doubling; deleting removes it", arguments: StoreKind.allCases)
    func failedAttempts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.enqueueProviderTokenRevocation(Self.revocation("rev-1", due: 100)) }
            let first = try store.write { try $0.recordFailedProviderTokenRevocation(id: "rev-1", atMillis: 200, error: "timed out") }
            var expected = Self.revocation("rev-1", due: 100)
            expected.attempts = 1
            expected.nextAttemptAtMillis = 200 + 60_000
            expected.lastError = "timed out"
            #expect(first == expected)
            #expect(try store.read { try $0.providerTokenRevocation(id: "rev-1") } == expected)
            #expect(try store.read { try $0.dueProviderTokenRevocations(atMillis: 60_199, limit: 5) } == [])
            let second = try store.write {
                try $0.recordFailedProviderTokenRevocation(id: "rev-1", atMillis: 60_200, error: "HTTP 500")
            }
            let retried = try #require(second)
            #expect(retried.attempts == 2)
            #expect(retried.nextAttemptAtMillis == 180_200)
            #expect(try store.read { try $0.providerTokenRevocation(id: "rev-1") }?.lastError == "HTTP 500")
            #expect(try store.write { try $0.recordFailedProviderTokenRevocation(id: "nothing", atMillis: 1, error: "x") } == nil)
            #expect(try store.write { try $0.deleteProviderTokenRevocation(id: "rev-1") })
            #expect(try store.write { try $0.deleteProviderTokenRevocation(id: "rev-1") } == false)
            #expect(try store.read { try $0.providerTokenRevocation(id: "rev-1") } == nil)
        }
    }

    @Test("deleting an account queues its identities' provider tokens in the same write", arguments: StoreKind.allCases)
    func deletionQueuesRevocations(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var account = bareAccount("uid-1")
            account.providers = [
                Self.apple("a1", token: "r.apple-1"), LinkedIdentity(providerID: "google.com", rawID: "g1"),
                LinkedIdentity(
                    providerID: "oidc.acme", rawID: "o1",
                    providerRefreshToken: ProviderRefreshToken(token: "r.acme", clientID: "acme-client")),
            ]
            try store.write { writer throws in
                try writer.insertAccount(account)
                try writer.insertAccount(bareAccount("uid-2"))
            }
            // A write that deletes and then fails keeps the account and queues nothing.
            struct Failure: Error {}
            #expect(throws: Failure.self) {
                try store.write { writer throws in
                    #expect(try writer.deleteAccount(localID: "uid-1", queueingRevocationsAtMillis: 500))
                    throw Failure()
                }
            }
            #expect(try store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 10) } == [])
            #expect(try store.read { try $0.account(localID: "uid-1") } == account)

            #expect(try store.write { try $0.deleteAccount(localID: "uid-1", queueingRevocationsAtMillis: 500) })
            #expect(try store.write { try $0.deleteAccount(localID: "uid-1", queueingRevocationsAtMillis: 600) } == false)
            #expect(try store.write { try $0.deleteAccount(localID: "uid-2", queueingRevocationsAtMillis: 600) })
            let queued = try store.read { try $0.dueProviderTokenRevocations(atMillis: 500, limit: 10) }
            #expect(Set(queued.map(\.providerID)) == ["apple.com", "oidc.acme"])
            let apple = try #require(queued.first { $0.providerID == "apple.com" })
            #expect(apple.token == "r.apple-1")
            #expect(apple.clientID == "com.example.app")
            #expect(apple.tokenTypeHint == "refresh_token")
            #expect(apple.localID == "uid-1")
            #expect(apple.createdAtMillis == 500)
            #expect(apple.nextAttemptAtMillis == 500)
            #expect(apple.attempts == 0)
            #expect(apple.lastError == nil)
            #expect(queued.first { $0.providerID == "oidc.acme" }?.clientID == "acme-client")
        }
    }

    @Test("an update that drops or replaces a provider token queues it in the same write; one that keeps it queues nothing", arguments: StoreKind.allCases)
    func updateQueuesDroppedTokens(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var account = bareAccount("uid-1")
            account.providers = [Self.apple("a1", token: "r.first"), Self.apple("a2", token: "r.second")]
            account.providers[1].providerID = "oidc.acme"
            try store.write { try $0.insertAccount(account) }
            account.displayName = "Renamed"
            try store.write { try $0.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: 10) }
            #expect(try store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 10) } == [])

            // A new token for the Apple identity, and the other identity unlinked: both old tokens are queued.
            account.providers[0].providerRefreshToken = ProviderRefreshToken(token: "r.new", clientID: "com.example.app")
            account.providers.remove(at: 1)
            struct Failure: Error {}
            #expect(throws: Failure.self) {
                try store.write { writer throws in
                    try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: 20)
                    throw Failure()
                }
            }
            #expect(try store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 10) } == [])
            try store.write { try $0.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: 20) }
            let queued = try store.read { try $0.dueProviderTokenRevocations(atMillis: 20, limit: 10) }
            #expect(Set(queued.map(\.token)) == ["r.first", "r.second"])
            #expect(Set(queued.map(\.providerID)) == ["apple.com", "oidc.acme"])
            #expect(try store.read { try $0.account(localID: "uid-1") } == account)
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.updateAccount(bareAccount("nobody"), queueingRevocationsOfDroppedTokensAtMillis: 1) }
            }
        }
    }

    @Test("deleting every account queues every provider token they hold", arguments: StoreKind.allCases)
    func deleteAllQueues(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for index in 0..<3 {
                    var account = bareAccount("uid-\(index)")
                    account.providers = [Self.apple("a\(index)", token: index == 1 ? nil : "r.\(index)")]
                    try writer.insertAccount(account)
                }
            }
            #expect(try store.write { try $0.deleteAllAccounts(queueingRevocationsAtMillis: 7) } == 3)
            let queued = try store.read { try $0.dueProviderTokenRevocations(atMillis: 7, limit: 10) }
            #expect(Set(queued.map(\.token)) == ["r.0", "r.2"])
            #expect(try store.read { try $0.accountCount() } == 0)
        }
    }
}
