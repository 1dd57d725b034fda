import Foundation
import HearthCore
import Testing

/// The isolation the store contract promises write bodies (serializable: a rule checked in a body holds under
/// concurrent writers), proved with 20 writers released at once on every `StoreKind`.
@Suite("Store conformance: concurrent writers")
struct ConcurrencyConformanceTests {
    static let writers = 20

    enum Outcome: Sendable, Equatable {
        case inserted
        case sawIt
    }

    /// 20 writers released at once, each inserting `account(index)` unless `found` finds an account already: exactly
    /// one inserts, and (serializable) every other sees its account rather than meeting a duplicate.
    private func expectOneInsertion(
        _ store: any HearthStore, found: @escaping @Sendable (any StoreWriter) throws -> Bool,
        account: @escaping @Sendable (Int) -> Account
    ) throws {
        let results = concurrently(Self.writers, indexed: { index in
            try store.write { writer throws -> Outcome in
                guard try !found(writer) else { return .sawIt }
                try writer.insertAccount(account(index))
                return .inserted
            }
        })
        #expect(results.filter { (try? $0.get()) == .inserted }.count == 1)
        #expect(results.filter { (try? $0.get()) == .sawIt }.count == Self.writers - 1)
        #expect(try store.read { try $0.accountCount() } == 1)
    }

    @Test("20 sign-ups of one email that check for it first make exactly one account; the others see it",
          arguments: StoreKind.allCases)
    func oneAccountPerEmail(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try expectOneInsertion(store, found: { try $0.account(email: "Race@Example.com") != nil }) { index in
                bareAccount("uid-\(index)").with(email: "race@example.com")
            }
        }
    }

    @Test("20 first sign-ins of one identity that look it up first make exactly one account; the others see it",
          arguments: StoreKind.allCases)
    func oneAccountPerIdentity(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let found: @Sendable (any StoreWriter) throws -> Bool = {
                try $0.account(providerID: "google.com", rawID: "1234") != nil
            }
            try expectOneInsertion(store, found: found) { index in
                var account = bareAccount("uid-\(index)")
                account.providers = [LinkedIdentity(providerID: "google.com", rawID: "1234")]
                return account
            }
        }
    }

    @Test("20 read-modify-write increments of one counter lose none", arguments: StoreKind.allCases)
    func noLostIncrement(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let results = concurrently(Self.writers) {
                try store.write { writer throws in
                    var counter = try writer.limitCounter(key: "shared")
                        ?? LimitCounter(key: "shared", windowStartMillis: 0, expiresAtMillis: 1)
                    counter.count += 1
                    try writer.saveLimitCounter(counter)
                }
            }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            #expect(try store.read { try $0.limitCounter(key: "shared") }?.count == Self.writers)
        }
    }

    @Test("20 senders that count a number's verification sessions before adding one stop at the limit of 5",
          arguments: StoreKind.allCases)
    func smsThrottle(kind: StoreKind) throws {
        let number = "+15555550142"
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(bareAccount("uid-1")) }
            let results = concurrently(Self.writers, indexed: { index in
                try store.write { writer throws -> Outcome in
                    // Each sender inserts a session of its own (no key to collide on): only isolation keeps the count.
                    guard try writer.verificationSessions(phoneNumber: number, createdSince: 0).count < 5 else {
                        return .sawIt
                    }
                    try writer.insertVerificationSession(
                        verificationSession("session-\(index)", phoneNumber: number, createdAtMillis: Int64(index)))
                    return .inserted
                }
            })
            #expect(results.filter { (try? $0.get()) == .inserted }.count == 5)
            #expect(results.filter { (try? $0.get()) == .sawIt }.count == Self.writers - 5)
            #expect(try store.read { try $0.verificationSessions(phoneNumber: number, createdSince: 0) }.count == 5)
        }
    }

    @Test("concurrent writes whose bodies throw after writing leave nothing; the others are all kept",
          arguments: StoreKind.allCases)
    func throwingBodiesLeaveNothing(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            let results = concurrently(Self.writers, indexed: { index in
                try store.write { writer throws in
                    try writer.insertAccount(bareAccount("uid-\(index)"))
                    var counter = try writer.limitCounter(key: "shared")
                        ?? LimitCounter(key: "shared", windowStartMillis: 0, expiresAtMillis: 1)
                    counter.count += 1
                    try writer.saveLimitCounter(counter)
                    if index.isMultiple(of: 2) { throw Abort() }
                }
            })
            #expect(results.filter { (try? $0.get()) != nil }.count == Self.writers / 2)
            #expect(results.allSatisfy { result in
                if case .failure(let error) = result { error is Abort } else { true }
            })
            try store.read { reader throws in
                #expect(try reader.accountCount() == Self.writers / 2)
                #expect(try reader.accounts(after: nil, limit: Self.writers).allSatisfy { account in
                    Int(account.localID.dropFirst(4))!.isMultiple(of: 2) == false
                })
                #expect(try reader.limitCounter(key: "shared")?.count == Self.writers / 2)
            }
        }
    }
}
