import Foundation
import HearthCore
import Testing

/// Within one write, an account reads back as the write last stored it, whichever rows each update had to write
/// again (the SQL stores answer a second read from the write's own copy and rewrite only the owned rows that moved).
@Suite("Store conformance: an account within one write")
struct AccountWriteConformanceTests {
    static let factor = MFAEnrollment(
        enrollmentID: "enrol-1", kind: .totp, displayName: "Phone app", enrolledAtMillis: 1_700_000_000_000,
        totpSecret: Array("12345678901234567890".utf8), lastUsedTOTPStep: 10)

    /// `fullAccount()` with a second factor, as stored (its email lower-cased).
    static func enrolledAccount() -> Account {
        var account = fullAccount(email: "Ada@Example.com")
        account.mfaEnrollments = [factor]
        return account
    }

    static func storedForm(_ account: Account) -> Account {
        var stored = account
        stored.email = account.email?.lowercased()
        return stored
    }

    @Test("reads after updates, a refresh and a delete in the same write see exactly what was written", arguments: StoreKind.allCases)
    func readsFollowWrites(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let inserted = Self.enrolledAccount()
            let final = try store.write { writer throws -> Account in
                try writer.insertAccount(inserted)
                #expect(try writer.account(localID: inserted.localID) == Self.storedForm(inserted))
                // Only the account row moves.
                var account = try #require(try writer.account(localID: inserted.localID))
                account.displayName = "Ada, Countess"
                account.lastLoginAtMillis = 1_800_000_000_000
                try writer.updateAccount(account)
                #expect(try writer.account(localID: account.localID) == account)
                // Only the enrolments move (a TOTP step used).
                account.mfaEnrollments[0].lastUsedTOTPStep = 11
                try writer.updateAccount(account)
                #expect(try writer.account(email: "ada@example.com") == account)
                // Only the identities move (one dropped, one's profile changed), with an email in another case.
                account.providers.removeLast()
                account.providers[0].displayName = "Ada G."
                account.email = "ADA@example.com"
                try writer.updateAccount(account)
                let expected = Self.storedForm(account)
                #expect(try writer.account(localID: account.localID) == expected)
                #expect(try writer.account(providerID: "github.com", rawID: "42") == nil)
                try writer.recordRefresh(localID: account.localID, atMillis: 1_900_000_000_000)
                #expect(try writer.account(localID: account.localID)?.lastRefreshAtMillis == 1_900_000_000_000)
                var refreshed = expected
                refreshed.lastRefreshAtMillis = 1_900_000_000_000
                return refreshed
            }
            #expect(try store.read { try $0.account(localID: final.localID) } == final)
            try store.write { writer throws in
                _ = try writer.account(localID: final.localID)
                #expect(try writer.deleteAccount(localID: final.localID))
                #expect(try writer.account(localID: final.localID) == nil)
                #expect(try writer.account(providerID: "google.com", rawID: "109876543210987654321") == nil)
            }
            #expect(try store.read { try $0.account(localID: final.localID) } == nil)
        }
    }

    @Test("an update in a write that never read the account replaces its owned rows", arguments: StoreKind.allCases)
    func blindUpdate(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let inserted = Self.enrolledAccount()
            try store.write { try $0.insertAccount(inserted) }
            var changed = Self.storedForm(inserted)
            changed.providers = [LinkedIdentity(providerID: "apple.com", rawID: "001.apple")]
            changed.mfaEnrollments = []
            try store.write { try $0.updateAccount(changed) }
            #expect(try store.read { try $0.account(localID: changed.localID) } == changed)
            #expect(try store.read { try $0.account(providerID: "google.com", rawID: "109876543210987654321") } == nil)
        }
    }

    @Test("a refused update leaves the write's view as stored, and the next update writes from there", arguments: StoreKind.allCases)
    func refusedUpdate(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let inserted = Self.storedForm(Self.enrolledAccount())
            try store.write { writer throws in
                try writer.insertAccount(inserted)
                try writer.insertAccount(bareAccount("uid-other"))
                var other = try #require(try writer.account(localID: "uid-other"))
                other.providers = [LinkedIdentity(providerID: "github.com", rawID: "99")]
                try writer.updateAccount(other)
            }
            let final = try store.write { writer throws -> Account in
                var account = try #require(try writer.account(localID: inserted.localID))
                account.providers.append(LinkedIdentity(providerID: "github.com", rawID: "99"))
                #expect(throws: StoreError(.duplicateIdentity)) { try writer.updateAccount(account) }
                #expect(try writer.account(localID: inserted.localID) == inserted)
                account = inserted
                account.mfaEnrollments = []
                account.providers.removeFirst()
                try writer.updateAccount(account)
                return account
            }
            #expect(try store.read { try $0.account(localID: final.localID) } == final)
            #expect(try store.read { try $0.account(providerID: "github.com", rawID: "99") }?.localID == "uid-other")
        }
    }
}
