import HearthCore
import HearthProtocol
import Testing

/// The administrator's account updates on every store, through `AdminService`: they run with row locks, so
/// concurrent updates of one account wait for each other and lose nothing, and two accounts taking one email meet
/// at its unique key.
@Suite("Store conformance: account updates")
struct AdminUpdateConformanceTests {
    @Test(
        "20 admin updates of one account at once, each moving validSince: it ends at the latest, never moved back",
        arguments: StoreKind.allCases)
    func concurrentValidSince(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try SessionHarness(store: store)
            let base = harness.time.nowSeconds + 3_600
            // The first writers ask for the latest times, so an update that overwrote without the lock would lose them.
            let results = concurrently(20, indexed: { index in
                var request = AdminUpdateAccountRequest(localId: SessionHarness.localID)
                request.validSince = base + Int64(20 - index)
                return try harness.platform.admin.update(request, by: .commandLine)
            })
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            let account = try #require(try store.read { try $0.account(localID: SessionHarness.localID) })
            #expect(account.validSinceMillis == (base + 20) * 1000)
        }
    }

    @Test(
        "two accounts updated to one email at once: one gets it, the other answers EMAIL_EXISTS and keeps its own",
        arguments: StoreKind.allCases)
    func emailRace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let harness = try SessionHarness(store: store)
            try store.write { writer in
                try writer.insertAccount(Account(localID: "uid-a", email: "a@example.com", createdAtMillis: 0, validSinceMillis: 0))
                try writer.insertAccount(Account(localID: "uid-b", email: "b@example.com", createdAtMillis: 0, validSinceMillis: 0))
            }
            for round in 0..<5 {
                let email = "shared-\(round)@example.com"
                let results = concurrently(2, indexed: { index in
                    var request = AdminUpdateAccountRequest(localId: index == 0 ? "uid-a" : "uid-b")
                    request.email = email
                    return try harness.platform.admin.update(request, by: .commandLine)
                })
                let refusals = results.compactMap { result -> ErrorCode? in
                    guard case .failure(let error as WireError) = result else { return nil }
                    return error.code
                }
                #expect(refusals == [.emailExists], "round \(round): \(results)")
                let owners = try store.read { reader in
                    try ["uid-a", "uid-b"].filter { try reader.account(localID: $0)?.email == email }
                }
                #expect(owners.count == 1, "round \(round)")
                // Give the address back, so the next round starts from two accounts without it.
                for localID in owners {
                    var request = AdminUpdateAccountRequest(localId: localID)
                    request.email = "\(localID)-\(round)@example.com"
                    _ = try harness.platform.admin.update(request, by: .commandLine)
                }
            }
        }
    }
}
