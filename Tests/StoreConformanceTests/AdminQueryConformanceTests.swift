import HearthCore
import Testing

/// The queries the admin API runs: lookup by phone number and paging through every account.
@Suite("Store conformance: admin queries")
struct AdminQueryConformanceTests {
    @Test("accounts are found by exact phone number", arguments: StoreKind.allCases)
    func accountByPhoneNumber(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(fullAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
            }
            try store.read { reader throws in
                #expect(try reader.account(phoneNumber: "+15555550100") == fullAccount("uid-1"))
                #expect(try reader.account(phoneNumber: "+15555550101") == nil)
                #expect(try reader.account(phoneNumber: "15555550100") == nil)
            }
        }
    }

    @Test("a phone number several accounts share finds the one whose id sorts first", arguments: StoreKind.allCases)
    func sharedPhoneNumber(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for localID in ["m", "b", "z"] {
                    var account = bareAccount(localID)
                    account.phoneNumber = "+15555550199"
                    try writer.insertAccount(account)
                }
            }
            #expect(try store.read { try $0.account(phoneNumber: "+15555550199") }?.localID == "b")
        }
    }

    @Test("pages list every account once, ordered by localId in UTF-8 byte order", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) throws {
        // By bytes, "Z" sorts before "a", "10" before "9", and "é" (U+00E9) after "z".
        let ids = ["b", "a", "Z", "é", "z", "f", "10", "9", "李"]
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for id in ids { try writer.insertAccount(bareAccount(id)) }
            }
            var listed: [String] = []
            var cursor: String?
            while true {
                let page = try store.read { try $0.accounts(after: cursor, limit: 4) }
                listed += page.map(\.localID)
                guard page.count == 4, let last = page.last else { break }
                cursor = last.localID
            }
            #expect(listed == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(listed.first == "10")
            #expect(listed.last == "李")
        }
    }

    @Test("a page loads whole accounts", arguments: StoreKind.allCases)
    func pageLoadsWholeAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertAccount(fullAccount("uid-1")) }
            #expect(try store.read { try $0.accounts(after: nil, limit: 10) } == [fullAccount("uid-1")])
            #expect(try store.read { try $0.accounts(after: "uid-1", limit: 10) } == [])
        }
    }

    @Test(
        "pages load the identities and enrolments of each of their accounts, and only theirs", arguments: StoreKind.allCases)
    func pagesLoadEveryAccountWhole(kind: StoreKind) throws {
        var second = fullAccount("uid-4", email: "grace@example.com")
        second.providers = [
            LinkedIdentity(providerID: "google.com", rawID: "4"), LinkedIdentity(providerID: "apple.com", rawID: "4"),
        ]
        second.mfaEnrollments = [phoneEnrollment("enrol-4")]
        let accounts = [
            fullAccount("uid-1"), enrolledAccount("uid-2", [totpEnrollment("enrol-2a"), bareEnrollment("enrol-2b")]),
            bareAccount("uid-3"), second,
        ]
        try withStore(kind) { store throws in
            try store.write { writer in for account in accounts { try writer.insertAccount(account) } }
            #expect(try store.read { try $0.accounts(after: nil, limit: 2) } == Array(accounts[0..<2]))
            #expect(try store.read { try $0.accounts(after: "uid-1", limit: 2) } == Array(accounts[1..<3]))
            #expect(try store.read { try $0.accounts(after: "uid-2", limit: 2) } == Array(accounts[2..<4]))
            #expect(try store.read { try $0.accounts(after: nil, limit: 10) } == accounts)
        }
    }

    @Test("an account added before the cursor does not shift the next page", arguments: StoreKind.allCases)
    func stableUnderInserts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                for id in ["b", "d", "f", "h"] { try writer.insertAccount(bareAccount(id)) }
            }
            let first = try store.read { try $0.accounts(after: nil, limit: 2) }
            #expect(first.map(\.localID) == ["b", "d"])
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("a"))
                try writer.insertAccount(bareAccount("c"))
                try writer.insertAccount(bareAccount("e"))
            }
            let second = try store.read { try $0.accounts(after: first.last?.localID, limit: 2) }
            #expect(second.map(\.localID) == ["e", "f"])
        }
    }
}
