import Foundation
import Synchronization
import HearthCore
import Testing

/// The behaviour every `HearthStore` must have. Each test runs against every `StoreKind`.
@Suite("Store conformance")
struct StoreConformanceTests {
    // MARK: Accounts

    @Test("an account with every field set round-trips", arguments: StoreKind.allCases)
    func accountRoundTripFull(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let account = fullAccount()
            try store.write { try $0.insertAccount(account) }
            #expect(try store.read { try $0.account(localID: "uid-1") } == account)
            #expect(try store.read { try $0.account(localID: "nobody") } == nil)
        }
    }

    @Test("an account with every optional field nil round-trips", arguments: StoreKind.allCases)
    func accountRoundTripBare(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let account = bareAccount()
            try store.write { try $0.insertAccount(account) }
            let loaded = try store.read { try $0.account(localID: account.localID) }
            #expect(loaded == account)
            #expect(loaded?.providers == [])
        }
    }

    @Test("emails are stored lower-cased and found ignoring case", arguments: StoreKind.allCases)
    func emailCaseInsensitive(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount("uid-1", email: "Émile.Zola@Example.COM")) }
            let stored = try store.read { try $0.account(localID: "uid-1") }
            #expect(stored?.email == "émile.zola@example.com")
            for query in ["émile.zola@example.com", "ÉMILE.ZOLA@EXAMPLE.COM", "Émile.Zola@example.com"] {
                #expect(try store.read { try $0.account(email: query) }?.localID == "uid-1")
            }
            #expect(try store.read { try $0.account(email: "emile.zola@example.com") } == nil)
        }
    }

    @Test("accounts are found by linked identity", arguments: StoreKind.allCases)
    func accountByIdentity(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
            }
            try store.read { reader throws in
                #expect(try reader.account(providerID: "google.com", rawID: "109876543210987654321") == fullAccount())
                #expect(try reader.account(providerID: "github.com", rawID: "42")?.localID == "uid-1")
                #expect(try reader.account(providerID: "github.com", rawID: "109876543210987654321") == nil)
                #expect(try reader.account(providerID: "google.com", rawID: "42") == nil)
            }
        }
    }

    @Test("accountCount counts accounts", arguments: StoreKind.allCases)
    func accountCount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.accountCount() } == 0)
            try store.write { writer throws in
                for index in 0..<5 { try writer.insertAccount(bareAccount("uid-\(index)")) }
            }
            #expect(try store.read { try $0.accountCount() } == 5)
        }
    }

    @Test("several accounts may have no email", arguments: StoreKind.allCases)
    func manyAccountsWithoutEmail(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("a"))
                try writer.insertAccount(bareAccount("b"))
            }
            #expect(try store.read { try $0.accountCount() } == 2)
        }
    }

    @Test("a taken local id is duplicateLocalID", arguments: StoreKind.allCases)
    func duplicateLocalID(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount("uid-1", email: "a@example.com")) }
            #expect(throws: StoreError(.duplicateLocalID)) {
                try store.write { try $0.insertAccount(bareAccount("uid-1")) }
            }
            // Local id and email both taken: the local id is reported.
            #expect(throws: StoreError(.duplicateLocalID)) {
                try store.write { try $0.insertAccount(fullAccount("uid-1", email: "a@example.com")) }
            }
            #expect(try store.read { try $0.account(localID: "uid-1") } == fullAccount("uid-1", email: "a@example.com"))
        }
    }

    @Test("a taken email, in any case, is duplicateEmail", arguments: StoreKind.allCases)
    func duplicateEmail(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(bareAccount("uid-1").with(email: "ada@example.com")) }
            #expect(throws: StoreError(.duplicateEmail)) {
                try store.write { try $0.insertAccount(bareAccount("uid-2").with(email: "ADA@example.com")) }
            }
            #expect(try store.read { try $0.accountCount() } == 1)
        }
    }

    @Test("an identity linked to another account is duplicateIdentity", arguments: StoreKind.allCases)
    func duplicateIdentityAcrossAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount("uid-1", email: "a@example.com")) }
            var other = bareAccount("uid-2")
            other.providers = [LinkedIdentity(providerID: "github.com", rawID: "42")]
            #expect(throws: StoreError(.duplicateIdentity)) {
                try store.write { try $0.insertAccount(other) }
            }
            #expect(try store.read { try $0.account(localID: "uid-2") } == nil)
        }
    }

    @Test("the same identity twice in one account is duplicateIdentity", arguments: StoreKind.allCases)
    func duplicateIdentityWithinAccount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var account = bareAccount("uid-1")
            account.providers = [
                LinkedIdentity(providerID: "google.com", rawID: "1"),
                LinkedIdentity(providerID: "google.com", rawID: "1", email: "x@example.com"),
            ]
            #expect(throws: StoreError(.duplicateIdentity)) {
                try store.write { try $0.insertAccount(account) }
            }
            #expect(try store.read { try $0.account(localID: "uid-1") } == nil)
            // The same raw id at two different providers is fine.
            account.providers[1].providerID = "apple.com"
            try store.write { try $0.insertAccount(account) }
            #expect(try store.read { try $0.account(providerID: "apple.com", rawID: "1") }?.localID == "uid-1")
        }
    }

    @Test("updateAccount replaces every field and the linked identities", arguments: StoreKind.allCases)
    func updateReplaces(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount()) }
            var updated = bareAccount("uid-1")
            updated.email = "New@Example.com"
            updated.providers = [
                LinkedIdentity(providerID: "apple.com", rawID: "apple-1", email: "relay@privaterelay.example"),
                LinkedIdentity(providerID: "google.com", rawID: "109876543210987654321"),
            ]
            try store.write { try $0.updateAccount(updated) }

            var expected = updated
            expected.email = "new@example.com"
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == expected)
                #expect(try reader.account(email: "ada@example.com") == nil)
                #expect(try reader.account(email: "NEW@example.com") == expected)
                #expect(try reader.account(providerID: "github.com", rawID: "42") == nil)
                #expect(try reader.account(providerID: "apple.com", rawID: "apple-1") == expected)
                #expect(try reader.account(providerID: "google.com", rawID: "109876543210987654321") == expected)
            }
            // The unlinked identity and the old email are free again.
            var other = bareAccount("uid-2")
            other.email = "ada@example.com"
            other.providers = [LinkedIdentity(providerID: "github.com", rawID: "42")]
            try store.write { try $0.insertAccount(other) }
        }
    }

    @Test("updateAccount of an unknown id is notFound", arguments: StoreKind.allCases)
    func updateUnknown(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.updateAccount(fullAccount("ghost")) }
            }
            #expect(try store.read { try $0.accountCount() } == 0)
        }
    }

    @Test("updateAccount to a taken email or identity fails and changes nothing", arguments: StoreKind.allCases)
    func updateConflicts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let first = fullAccount("uid-1", email: "a@example.com")
            var second = bareAccount("uid-2").with(email: "b@example.com")
            second.providers = [LinkedIdentity(providerID: "apple.com", rawID: "b")]
            try store.write { writer throws in
                try writer.insertAccount(first)
                try writer.insertAccount(second)
            }
            var takenEmail = second
            takenEmail.email = "A@EXAMPLE.COM"
            var takenIdentity = second
            takenIdentity.providers.append(LinkedIdentity(providerID: "github.com", rawID: "42"))
            takenIdentity.displayName = "changed"
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateEmail)) { try writer.updateAccount(takenEmail) }
                #expect(throws: StoreError(.duplicateIdentity)) { try writer.updateAccount(takenIdentity) }
                // The failed updates left the account as it was, inside the transaction too.
                #expect(try writer.account(localID: "uid-2") == second)
            }
            #expect(try store.read { try $0.account(localID: "uid-2") } == second)
            #expect(try store.read { try $0.account(providerID: "apple.com", rawID: "b") } == second)
        }
    }

    @Test("a failed insert inside a write changes nothing and the write goes on", arguments: StoreKind.allCases)
    func failedInsertIsAtomic(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount("uid-1", email: "a@example.com")) }
            var clash = bareAccount("uid-2")
            clash.providers = [
                LinkedIdentity(providerID: "apple.com", rawID: "fresh"),
                LinkedIdentity(providerID: "github.com", rawID: "42"),
            ]
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateIdentity)) { try writer.insertAccount(clash) }
                #expect(try writer.account(localID: "uid-2") == nil)
                #expect(try writer.account(providerID: "apple.com", rawID: "fresh") == nil)
                try writer.insertAccount(bareAccount("uid-3"))
            }
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-2") == nil)
                #expect(try reader.account(providerID: "apple.com", rawID: "fresh") == nil)
                #expect(try reader.account(localID: "uid-3") != nil)
                #expect(try reader.accountCount() == 2)
            }
        }
    }

    @Test("recordRefresh sets only lastRefreshAtMillis and ignores unknown ids", arguments: StoreKind.allCases)
    func recordRefresh(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount())
                try writer.insertAccount(bareAccount())
            }
            try store.write { writer throws in
                try writer.recordRefresh(localID: "uid-1", atMillis: 1_800_000_000_000)
                try writer.recordRefresh(localID: "uid-bare", atMillis: 42)
                try writer.recordRefresh(localID: "ghost", atMillis: 1)
            }
            var expected = fullAccount()
            expected.lastRefreshAtMillis = 1_800_000_000_000
            var expectedBare = bareAccount()
            expectedBare.lastRefreshAtMillis = 42
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == expected)
                #expect(try reader.account(localID: "uid-bare") == expectedBare)
                #expect(try reader.account(localID: "ghost") == nil)
                #expect(try reader.accountCount() == 2)
            }
        }
    }

    @Test("deleteAccount removes the account and its identities, not its refresh-token sessions", arguments: StoreKind.allCases)
    func deleteAccount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1", email: "a@example.com"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshSession(refreshSession("h1", localID: "uid-1"))
                try writer.insertRefreshSession(refreshSession("h2", localID: "uid-2"))
            }
            #expect(try store.write { try $0.deleteAccount(localID: "uid-1") } == true)
            #expect(try store.write { try $0.deleteAccount(localID: "uid-1") } == false)
            #expect(try store.write { try $0.deleteAccount(localID: "ghost") } == false)
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == nil)
                #expect(try reader.account(email: "a@example.com") == nil)
                #expect(try reader.account(providerID: "google.com", rawID: "109876543210987654321") == nil)
                #expect(try reader.account(providerID: "github.com", rawID: "42") == nil)
                // The session stays, so a refresh with its token can be told the user is gone.
                #expect(try reader.refreshSession(id: "h1") == refreshSession("h1", localID: "uid-1"))
                #expect(try reader.refreshSession(id: "h2") == refreshSession("h2", localID: "uid-2"))
                #expect(try reader.accountCount() == 1)
            }
            // The local id, email and identities can be used again; the old session id cannot.
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1", email: "a@example.com"))
                #expect(throws: StoreError(.duplicateToken)) {
                    try writer.insertRefreshSession(refreshSession("h1", localID: "uid-1"))
                }
                try writer.insertRefreshSession(refreshSession("h3", localID: "uid-1"))
            }
        }
    }

    @Test("deleteAllAccounts removes every account and identity, not refresh-token sessions", arguments: StoreKind.allCases)
    func deleteAll(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertAccount(bareAccount("uid-3"))
                try writer.insertRefreshSession(refreshSession("h1", localID: "uid-1"))
                try writer.insertRefreshSession(refreshSession("h2", localID: "uid-3"))
                try writer.insertSigningKey(signingKey("k1", createdAt: 1))
                try writer.insertDevAccount(devAccount("s1", email: "d@example.com"))
            }
            #expect(try store.write { try $0.deleteAllAccounts() } == 3)
            #expect(try store.write { try $0.deleteAllAccounts() } == 0)
            try store.read { reader throws in
                #expect(try reader.accountCount() == 0)
                #expect(try reader.account(localID: "uid-1") == nil)
                #expect(try reader.account(providerID: "github.com", rawID: "42") == nil)
                #expect(try reader.refreshSession(id: "h1") != nil)
                #expect(try reader.refreshSession(id: "h2") != nil)
                #expect(try reader.signingKeys().map(\.keyID) == ["k1"])
                #expect(try reader.devAccounts().map(\.subject) == ["s1"])
            }
            try store.write { try $0.insertAccount(fullAccount("uid-1")) }
        }
    }

    // MARK: Refresh-token sessions

    @Test("refresh sessions round-trip with and without optional fields", arguments: StoreKind.allCases)
    func refreshSessionRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount())
                try writer.insertRefreshSession(refreshSession("full", full: true))
                try writer.insertRefreshSession(refreshSession("bare", full: false))
            }
            try store.read { reader throws in
                #expect(try reader.refreshSession(id: "full") == refreshSession("full", full: true))
                #expect(try reader.refreshSession(id: "bare") == refreshSession("bare", full: false))
                #expect(try reader.refreshSession(id: "FULL") == nil)
                #expect(try reader.refreshSession(id: "nope") == nil)
            }
        }
    }

    @Test("a refresh session id can be stored once, for an existing account", arguments: StoreKind.allCases)
    func refreshSessionConstraints(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertRefreshSession(refreshSession("h1", localID: "uid-1"))
            }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertRefreshSession(refreshSession("h1", localID: "uid-2")) }
            }
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.insertRefreshSession(refreshSession("h2", localID: "ghost")) }
            }
            // Both wrong: the taken id is reported.
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertRefreshSession(refreshSession("h1", localID: "ghost")) }
            }
            #expect(try store.read { try $0.refreshSession(id: "h1") }?.localID == "uid-1")
            #expect(try store.read { try $0.refreshSession(id: "h2") } == nil)
        }
    }

    // MARK: Signing keys

    @Test("signing keys are listed oldest first, retired and deleted", arguments: StoreKind.allCases)
    func signingKeys(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.signingKeys() } == [])
            try store.write { writer throws in
                try writer.insertSigningKey(signingKey("k-200", createdAt: 200))
                try writer.insertSigningKey(signingKey("k-100", createdAt: 100, retiredAt: 150))
                try writer.insertSigningKey(signingKey("k-300", createdAt: 300))
                try writer.insertSigningKey(signingKey("k-200b", createdAt: 200))
            }
            #expect(try store.read { try $0.signingKeys() }.map(\.keyID) == ["k-100", "k-200", "k-200b", "k-300"])
            #expect(try store.read { try $0.signingKeys() }.first == signingKey("k-100", createdAt: 100, retiredAt: 150))

            try store.write { try $0.retireSigningKey(keyID: "k-200", at: 350) }
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.retireSigningKey(keyID: "ghost", at: 1) }
            }
            let keys = try store.read { try $0.signingKeys() }
            #expect(keys[1] == signingKey("k-200", createdAt: 200, retiredAt: 350))
            #expect(keys[3].retiredAt == nil)

            #expect(try store.write { try $0.deleteSigningKey(keyID: "k-100") } == true)
            #expect(try store.write { try $0.deleteSigningKey(keyID: "k-100") } == false)
            #expect(try store.read { try $0.signingKeys() }.map(\.keyID) == ["k-200", "k-200b", "k-300"])
        }
    }

    @Test("a signing key id can be stored once", arguments: StoreKind.allCases)
    func duplicateKeyID(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertSigningKey(signingKey("k1", createdAt: 1)) }
            #expect(throws: StoreError(.duplicateKeyID)) {
                try store.write { try $0.insertSigningKey(signingKey("k1", createdAt: 2)) }
            }
            #expect(try store.read { try $0.signingKeys() } == [signingKey("k1", createdAt: 1)])
        }
    }

    // MARK: Dev IdP

    @Test("dev accounts round-trip and are found by subject and by email ignoring case", arguments: StoreKind.allCases)
    func devAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let full = devAccount("100000000000000000001", email: "Zoë@Example.com", createdAtMillis: 20)
            let bare = devAccount("100000000000000000002", email: "bob@example.com", createdAtMillis: 10, full: false)
            let third = devAccount("100000000000000000003", email: "carol@example.com", createdAtMillis: 20, full: false)
            try store.write { writer throws in
                try writer.insertDevAccount(full)
                try writer.insertDevAccount(bare)
                try writer.insertDevAccount(third)
            }
            var stored = full
            stored.email = "zoë@example.com"
            try store.read { reader throws in
                #expect(try reader.devAccounts() == [bare, stored, third])
                #expect(try reader.devAccount(subject: full.subject) == stored)
                #expect(try reader.devAccount(subject: bare.subject) == bare)
                #expect(try reader.devAccount(subject: "nobody") == nil)
                #expect(try reader.devAccount(email: "ZOË@EXAMPLE.COM") == stored)
                #expect(try reader.devAccount(email: "zoe@example.com") == nil)
            }
        }
    }

    @Test("dev account emails and subjects are unique", arguments: StoreKind.allCases)
    func devAccountUniqueness(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertDevAccount(devAccount("s1", email: "a@example.com")) }
            #expect(throws: StoreError(.duplicateEmail)) {
                try store.write { try $0.insertDevAccount(devAccount("s2", email: "A@EXAMPLE.com")) }
            }
            #expect(throws: StoreError(.duplicateLocalID)) {
                try store.write { try $0.insertDevAccount(devAccount("s1", email: "other@example.com")) }
            }
            #expect(throws: StoreError(.duplicateLocalID)) {
                try store.write { try $0.insertDevAccount(devAccount("s1", email: "a@example.com")) }
            }
            #expect(try store.read { try $0.devAccounts() }.map(\.subject) == ["s1"])
        }
    }

    @Test("dev grants of every kind round-trip", arguments: StoreKind.allCases)
    func devGrantRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let grants = DevIdPGrant.Kind.allCases.flatMap { grantKind in
                [
                    devGrant("full-\(grantKind.rawValue)", kind: grantKind, full: true),
                    devGrant("bare-\(grantKind.rawValue)", kind: grantKind, full: false),
                ]
            }
            try store.write { writer throws in
                for grant in grants { try writer.insertDevGrant(grant) }
            }
            try store.read { reader throws in
                for grant in grants { #expect(try reader.devGrant(hash: grant.tokenHash) == grant) }
                #expect(try reader.devGrant(hash: "unknown") == nil)
            }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertDevGrant(devGrant("full-code", kind: .accessToken)) }
            }
            #expect(try store.read { try $0.devGrant(hash: "full-code") } == grants[0])
        }
    }

    @Test("a dev grant can be consumed exactly once", arguments: StoreKind.allCases)
    func devGrantConsumeOnce(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertDevGrant(devGrant("code")) }
            #expect(try store.write { try $0.deleteDevGrant(hash: "code") } == true)
            #expect(try store.write { try $0.deleteDevGrant(hash: "code") } == false)
            #expect(try store.read { try $0.devGrant(hash: "code") } == nil)
        }
    }

    @Test("dev grants are revoked by subject and client", arguments: StoreKind.allCases)
    func devGrantRevoke(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertDevGrant(devGrant("a1", kind: .accessToken, subject: "s1", clientID: "c1"))
                try writer.insertDevGrant(devGrant("a2", kind: .refreshToken, subject: "s1", clientID: "c1"))
                try writer.insertDevGrant(devGrant("a3", kind: .accessToken, subject: "s1", clientID: "c2"))
                try writer.insertDevGrant(devGrant("a4", kind: .accessToken, subject: "s2", clientID: "c1"))
            }
            #expect(try store.write { try $0.deleteDevGrants(subject: "s1", clientID: "c1") } == 2)
            #expect(try store.write { try $0.deleteDevGrants(subject: "s1", clientID: "c1") } == 0)
            try store.read { reader throws in
                #expect(try reader.devGrant(hash: "a1") == nil)
                #expect(try reader.devGrant(hash: "a2") == nil)
                #expect(try reader.devGrant(hash: "a3") != nil)
                #expect(try reader.devGrant(hash: "a4") != nil)
            }
        }
    }

    @Test("expired dev grants are purged, those expiring at the boundary kept", arguments: StoreKind.allCases)
    func devGrantExpiry(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertDevGrant(devGrant("old", expiresAt: 99))
                try writer.insertDevGrant(devGrant("older", expiresAt: -5))
                try writer.insertDevGrant(devGrant("edge", expiresAt: 100))
                try writer.insertDevGrant(devGrant("new", expiresAt: 101))
            }
            #expect(try store.write { try $0.deleteExpiredDevGrants(before: 100) } == 2)
            #expect(try store.write { try $0.deleteExpiredDevGrants(before: 100) } == 0)
            try store.read { reader throws in
                #expect(try reader.devGrant(hash: "old") == nil)
                #expect(try reader.devGrant(hash: "older") == nil)
                #expect(try reader.devGrant(hash: "edge") != nil)
                #expect(try reader.devGrant(hash: "new") != nil)
            }
        }
    }

    // MARK: Transactions

    @Test("a write whose body throws leaves nothing behind", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(bareAccount("kept")) }
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.insertAccount(fullAccount("uid-1"))
                    try writer.insertRefreshSession(refreshSession("h1", localID: "uid-1"))
                    try writer.insertSigningKey(signingKey("k1", createdAt: 1))
                    try writer.insertDevAccount(devAccount("s1", email: "a@example.com"))
                    try writer.insertDevGrant(devGrant("g1"))
                    try writer.recordRefresh(localID: "kept", atMillis: 99)
                    #expect(try writer.deleteAccount(localID: "kept"))
                    throw Abort()
                }
            }
            try store.read { reader throws in
                #expect(try reader.account(localID: "kept") == bareAccount("kept"))
                #expect(try reader.account(localID: "uid-1") == nil)
                #expect(try reader.account(providerID: "github.com", rawID: "42") == nil)
                #expect(try reader.refreshSession(id: "h1") == nil)
                #expect(try reader.signingKeys() == [])
                #expect(try reader.devAccounts() == [])
                #expect(try reader.devGrant(hash: "g1") == nil)
                #expect(try reader.accountCount() == 1)
            }
            // The store still works after the rollback.
            try store.write { try $0.insertAccount(fullAccount("uid-1")) }
        }
    }

    @Test("reads inside a write see the write's own changes", arguments: StoreKind.allCases)
    func readYourWrites(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let result = try store.write { writer throws -> Int in
                try writer.insertAccount(fullAccount())
                #expect(try writer.account(localID: "uid-1") == fullAccount())
                #expect(try writer.account(email: "ADA@example.com")?.localID == "uid-1")
                #expect(try writer.account(providerID: "github.com", rawID: "42")?.localID == "uid-1")
                try writer.insertRefreshSession(refreshSession("h1"))
                #expect(try writer.refreshSession(id: "h1") == refreshSession("h1"))
                try writer.recordRefresh(localID: "uid-1", atMillis: 7)
                #expect(try writer.account(localID: "uid-1")?.lastRefreshAtMillis == 7)
                try writer.insertSigningKey(signingKey("k1", createdAt: 1))
                #expect(try writer.signingKeys().count == 1)
                try writer.insertDevAccount(devAccount("s1", email: "d@example.com"))
                #expect(try writer.devAccount(email: "D@example.com")?.subject == "s1")
                try writer.insertDevGrant(devGrant("g1"))
                #expect(try writer.devGrant(hash: "g1") != nil)
                return try writer.accountCount()
            }
            #expect(result == 1)
        }
    }

    @Test("a read sees one snapshot while a write commits", arguments: StoreKind.allCases)
    func readSnapshot(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(bareAccount("uid-1")) }
            let counts = try store.read { reader throws -> [Int] in
                let before = try reader.accountCount()
                // A write committed by another thread while this read is open.
                let done = DispatchSemaphore(value: 0)
                let writerThread = Thread {
                    try? store.write { try $0.insertAccount(bareAccount("uid-2")) }
                    done.signal()
                }
                writerThread.start()
                done.wait()
                return [before, try reader.accountCount(), try reader.account(localID: "uid-2") == nil ? 0 : 1]
            }
            #expect(counts == [1, 1, 0])
            #expect(try store.read { try $0.accountCount() } == 2)
        }
    }

    @Test("closed stores refuse every call", arguments: StoreKind.allCases)
    func closed(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(directory.path)
        try store.write { try $0.insertAccount(bareAccount()) }
        store.close()
        #expect(throws: StoreError(.closed)) { try store.read { try $0.accountCount() } }
        #expect(throws: StoreError(.closed)) { try store.write { try $0.insertAccount(bareAccount("x")) } }
        store.close()
    }

    @Test("concurrent writers on many threads lose no updates", arguments: StoreKind.allCases)
    func concurrentWriters(kind: StoreKind) throws {
        let threadCount = 8
        let incrementsPerThread = 40
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("counter"))
                for thread in 0..<threadCount { try writer.insertAccount(bareAccount("t\(thread)")) }
            }
            let failures = Failures()
            let group = DispatchGroup()
            for thread in 0..<threadCount {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        for step in 0..<incrementsPerThread {
                            // Read-modify-write: only safe if writes are serialised.
                            try store.write { writer throws in
                                guard var counter = try writer.account(localID: "counter") else {
                                    throw StoreError(.notFound)
                                }
                                counter.validSinceMillis += 1
                                try writer.updateAccount(counter)
                                try writer.recordRefresh(localID: "t\(thread)", atMillis: Int64(step + 1))
                            }
                            // Readers run alongside the writers.
                            _ = try store.read { try $0.account(localID: "counter") }
                        }
                    } catch {
                        failures.add("\(error)")
                    }
                }.start()
            }
            group.wait()
            #expect(failures.all.isEmpty)
            try store.read { reader throws in
                #expect(try reader.account(localID: "counter")?.validSinceMillis == Int64(threadCount * incrementsPerThread))
                for thread in 0..<threadCount {
                    #expect(try reader.account(localID: "t\(thread)")?.lastRefreshAtMillis == Int64(incrementsPerThread))
                }
            }
        }
    }

    // MARK: Persistence

    @Test("data survives closing and reopening the store", arguments: StoreKind.persistentCases)
    func persistence(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try kind.open(directory.path)
            try store.write { writer throws in
                try writer.insertAccount(fullAccount())
                try writer.insertAccount(bareAccount())
                try writer.insertRefreshSession(refreshSession("h1"))
                try writer.insertSigningKey(signingKey("k1", createdAt: 1, retiredAt: 2))
                try writer.insertDevAccount(devAccount("s1", email: "d@example.com"))
                try writer.insertDevGrant(devGrant("g1"))
            }
            store.close()
        }
        let reopened = try kind.open(directory.path)
        defer { reopened.close() }
        try reopened.read { reader throws in
            #expect(try reader.account(localID: "uid-1") == fullAccount())
            #expect(try reader.account(localID: "uid-bare") == bareAccount())
            #expect(try reader.refreshSession(id: "h1") == refreshSession("h1"))
            #expect(try reader.signingKeys() == [signingKey("k1", createdAt: 1, retiredAt: 2)])
            #expect(try reader.devAccounts() == [devAccount("s1", email: "d@example.com")])
            #expect(try reader.devGrant(hash: "g1") == devGrant("g1"))
        }
        // And it is still writable, with its constraints in force.
        #expect(throws: StoreError(.duplicateLocalID)) { try reopened.write { try $0.insertAccount(bareAccount()) } }
        try reopened.write { try $0.insertAccount(bareAccount("uid-new")) }
    }
}

/// Error descriptions collected from other threads.
final class Failures: Sendable {
    private let items = Mutex<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}

extension Account {
    func with(email: String?) -> Account {
        var copy = self
        copy.email = email
        return copy
    }
}
