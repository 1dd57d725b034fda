import Foundation
import HearthCore
import Testing

/// Email action codes and the account fields of issue 10 (migration 9 in SQLite). Each test runs against every
/// `StoreKind`.
@Suite("Store conformance: email action codes")
struct OOBCodeConformanceTests {
    static func code(
        _ hash: String, kind: OOBCodeRecord.Kind = .verifyAndChangeEmail, localID: String? = "uid-1",
        expiresAtMillis: Int64 = 2_000_000, full: Bool = true
    ) -> OOBCodeRecord {
        full
            ? OOBCodeRecord(
                codeHash: hash, kind: kind, localID: localID, email: "ada@example.com", newEmail: "ada.new@exämple.com",
                continueURL: "https://app.example.com/done?x=1&y=ü", createdAtMillis: 1_700_000_000_123,
                expiresAtMillis: expiresAtMillis)
            : OOBCodeRecord(
                codeHash: hash, kind: kind, localID: nil, email: "new@example.com", createdAtMillis: 5,
                expiresAtMillis: expiresAtMillis)
    }

    @Test("every kind of code round-trips, with and without its optional fields", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let codes = OOBCodeRecord.Kind.allCases.flatMap { [Self.code("f-\($0)", kind: $0), Self.code("b-\($0)", kind: $0, full: false)] }
            try store.write { writer throws in
                for code in codes { try writer.insertOOBCode(code) }
            }
            try store.read { reader throws in
                for code in codes { #expect(try reader.oobCode(hash: code.codeHash) == code) }
                #expect(try reader.oobCode(hash: "unknown") == nil)
            }
        }
    }

    @Test("emails are stored lower-cased", arguments: StoreKind.allCases)
    func lowerCasedEmails(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var code = Self.code("h1")
            code.email = "Ada@Example.COM"
            code.newEmail = "ADA.New@Example.com"
            try store.write { try $0.insertOOBCode(code) }
            let stored = try #require(try store.read { try $0.oobCode(hash: "h1") })
            #expect(stored.email == "ada@example.com")
            #expect(stored.newEmail == "ada.new@example.com")
        }
    }

    @Test("a taken hash is refused and the first code kept", arguments: StoreKind.allCases)
    func duplicateHash(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertOOBCode(Self.code("h1")) }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertOOBCode(Self.code("h1", kind: .passwordReset, full: false)) }
            }
            #expect(try store.read { try $0.oobCode(hash: "h1") } == Self.code("h1"))
        }
    }

    @Test("deleting a code says whether it existed, once", arguments: StoreKind.allCases)
    func deleteOnce(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertOOBCode(Self.code("h1")) }
            #expect(try store.write { try $0.deleteOOBCode(hash: "h1") })
            #expect(try !store.write { try $0.deleteOOBCode(hash: "h1") })
            #expect(try store.read { try $0.oobCode(hash: "h1") } == nil)
        }
    }

    @Test("a code deleted in a write that throws is still there", arguments: StoreKind.allCases)
    func rolledBackDelete(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertOOBCode(Self.code("h1")) }
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.write { writer throws in
                    _ = try writer.deleteOOBCode(hash: "h1")
                    throw Refused()
                }
            }
            #expect(try store.read { try $0.oobCode(hash: "h1") } != nil)
        }
    }

    @Test("N concurrent consumers of one code: exactly one succeeds", arguments: StoreKind.allCases)
    func concurrentConsumers(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertOOBCode(Self.code("h1")) }
            let results = concurrently(24) {
                try store.write { writer throws -> Bool in
                    // Read, then consume: what a service does. Only the first writer finds it.
                    guard try writer.oobCode(hash: "h1") != nil else { return false }
                    return try writer.deleteOOBCode(hash: "h1")
                }
            }
            #expect(results.filter { (try? $0.get()) == true }.count == 1)
            #expect(results.allSatisfy { (try? $0.get()) != nil })
        }
    }

    @Test("the purge deletes only codes expired before the time, oldest first, at most the limit",
          arguments: StoreKind.allCases)
    func purgeExpired(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for (hash, expiry) in [("a", 300), ("b", 100), ("c", 200), ("d", 400), ("e", 500)] {
                    try writer.insertOOBCode(Self.code(hash, expiresAtMillis: Int64(expiry)))
                }
            }
            #expect(try store.write { try $0.deleteExpiredOOBCodes(before: 400, limit: 2) } == 2)
            try store.read { reader throws in
                #expect(try reader.oobCode(hash: "b") == nil)
                #expect(try reader.oobCode(hash: "c") == nil)
                #expect(try reader.oobCode(hash: "a") != nil)
            }
            #expect(try store.write { try $0.deleteExpiredOOBCodes(before: 400, limit: 10) } == 1)
            try store.read { reader throws in
                #expect(try reader.oobCode(hash: "a") == nil)
                #expect(try reader.oobCode(hash: "d") != nil)  // expires at 400: not before it
                #expect(try reader.oobCode(hash: "e") != nil)
            }
        }
    }

    @Test("voiding an account's codes deletes every kind of them but the one kept, and nothing of other accounts",
          arguments: StoreKind.allCases)
    func voidAccountCodes(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for codeKind in OOBCodeRecord.Kind.allCases {
                    try writer.insertOOBCode(Self.code("mine-\(codeKind)", kind: codeKind, localID: "uid-1"))
                    try writer.insertOOBCode(Self.code("other-\(codeKind)", kind: codeKind, localID: "uid-2"))
                }
                try writer.insertOOBCode(Self.code("no-account", kind: .emailSignIn, full: false))
            }
            #expect(
                try store.write { try $0.deleteOOBCodes(localID: "uid-1", keeping: .recoverEmail) }
                    == OOBCodeRecord.Kind.allCases.count - 1)
            #expect(try store.read { try $0.oobCode(hash: "mine-\(OOBCodeRecord.Kind.recoverEmail)") } != nil)
            #expect(try store.write { try $0.deleteOOBCodes(localID: "uid-1", keeping: nil) } == 1)
            #expect(try store.write { try $0.deleteOOBCodes(localID: "uid-1", keeping: nil) } == 0)
            try store.read { reader throws in
                for codeKind in OOBCodeRecord.Kind.allCases {
                    #expect(try reader.oobCode(hash: "mine-\(codeKind)") == nil)
                    #expect(try reader.oobCode(hash: "other-\(codeKind)") != nil)
                }
                #expect(try reader.oobCode(hash: "no-account") != nil)
            }
        }
    }

    @Test("voiding codes in a write that rolls back voids nothing", arguments: StoreKind.allCases)
    func voidRolledBack(kind: StoreKind) throws {
        struct Refused: Error {}
        try withStore(kind) { store throws in
            try store.write { try $0.insertOOBCode(Self.code("h1")) }
            #expect(throws: Refused.self) {
                try store.write { writer throws in
                    try writer.deleteOOBCodes(localID: "uid-1", keeping: nil)
                    throw Refused()
                }
            }
            #expect(try store.read { try $0.oobCode(hash: "h1") } != nil)
        }
    }

    @Test("the maintenance pass purges expired codes", arguments: StoreKind.allCases)
    func maintenancePurge(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let time = ManualTimeSource(Date(timeIntervalSince1970: 1_000))
            try store.write { writer throws in
                try writer.insertOOBCode(Self.code("old", expiresAtMillis: 999_999))
                try writer.insertOOBCode(Self.code("live", expiresAtMillis: 1_000_001))
            }
            let task = MaintenanceTask(
                store: store, time: time, policy: SessionPolicy(), schedule: .init(batchSize: 1),
                anonymousAccountLifetimeDays: 0, log: { _ in })
            #expect(try task.runPass().oobCodes == 1)
            #expect(try store.read { try $0.oobCode(hash: "old") } == nil)
            #expect(try store.read { try $0.oobCode(hash: "live") } != nil)
        }
    }

    @Test("the password change time, initial email and email-link flag round-trip and update", arguments: StoreKind.allCases)
    func accountFields(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var account = bareAccount("uid-1")
            try store.write { try $0.insertAccount(account) }
            let stored = try #require(try store.read { try $0.account(localID: "uid-1") })
            #expect(stored.passwordUpdatedAtMillis == nil && stored.initialEmail == nil && !stored.emailLinkSignIn)
            account.passwordUpdatedAtMillis = 1_700_000_000_999
            account.initialEmail = "first@example.com"
            account.emailLinkSignIn = true
            try store.write { try $0.updateAccount(account) }
            #expect(try store.read { try $0.account(localID: "uid-1") } == account)
        }
    }
}
