import Foundation
import HearthCore
import Testing

/// Service accounts, proved on each `StoreKind`: a key id is stored once and forever, an email is unique
/// among live accounts only, revocation is one-way, and listing is oldest first.
@Suite("Store conformance: service accounts")
struct ServiceAccountConformanceTests {
    private func account(_ keyID: String, email: String = "backend@p.iam.hearth", createdAt: Int64 = 100, revokedAt: Int64? = nil)
        -> ServiceAccountRecord
    {
        ServiceAccountRecord(
            keyID: keyID, email: email, clientID: "100000000000000000001",
            publicKeyPEM: "-----BEGIN PUBLIC KEY-----\n\(keyID)\n-----END PUBLIC KEY-----\n", createdAt: createdAt,
            revokedAt: revokedAt)
    }

    @Test("service accounts round-trip and are found by key id and, while live, by email ignoring case",
          arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.serviceAccounts() } == [])
            try store.write { writer throws in
                try writer.insertServiceAccount(account("k-200", email: "b@p.iam.hearth", createdAt: 200))
                try writer.insertServiceAccount(account("k-100", email: "Mixed.Case@P.iam.hearth", createdAt: 100))
                try writer.insertServiceAccount(account("k-200b", email: "c@p.iam.hearth", createdAt: 200))
            }
            try store.read { reader throws in
                #expect(try reader.serviceAccounts().map(\.keyID) == ["k-100", "k-200", "k-200b"])
                #expect(try reader.serviceAccount(keyID: "k-100") == account("k-100", email: "mixed.case@p.iam.hearth"))
                #expect(try reader.serviceAccount(keyID: "K-100") == nil)
                #expect(try reader.serviceAccount(email: "MIXED.case@p.IAM.hearth")?.keyID == "k-100")
                #expect(try reader.serviceAccount(email: "nobody@p.iam.hearth") == nil)
            }
        }
    }

    @Test("revocation is one-way; a revoked account is found by key id only, and its email can be used again",
          arguments: StoreKind.allCases)
    func revocation(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertServiceAccount(account("k1")) }
            #expect(try store.write { try $0.revokeServiceAccount(keyID: "k1", at: 500) })
            #expect(try store.write { try $0.revokeServiceAccount(keyID: "k1", at: 900) } == false)
            #expect(try store.write { try $0.revokeServiceAccount(keyID: "ghost", at: 900) } == false)
            #expect(try store.read { try $0.serviceAccount(keyID: "k1") } == account("k1", revokedAt: 500))
            #expect(try store.read { try $0.serviceAccount(email: "backend@p.iam.hearth") } == nil)

            try store.write { try $0.insertServiceAccount(account("k2", createdAt: 600)) }
            #expect(try store.read { try $0.serviceAccount(email: "backend@p.iam.hearth") }?.keyID == "k2")
            #expect(try store.read { try $0.serviceAccounts() }.map(\.keyID) == ["k1", "k2"])
        }
    }

    @Test("a key id is stored once, even after revocation; a live email once", arguments: StoreKind.allCases)
    func uniqueness(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertServiceAccount(account("k1")) }
            #expect(throws: StoreError(.duplicateEmail)) {
                try store.write { try $0.insertServiceAccount(account("k2", email: "BACKEND@p.iam.hearth")) }
            }
            #expect(throws: StoreError(.duplicateKeyID)) {
                try store.write { try $0.insertServiceAccount(account("k1", email: "other@p.iam.hearth")) }
            }
            try store.write { try $0.revokeServiceAccount(keyID: "k1", at: 500) }
            #expect(throws: StoreError(.duplicateKeyID)) {
                try store.write { try $0.insertServiceAccount(account("k1", email: "other@p.iam.hearth")) }
            }
            #expect(try store.read { try $0.serviceAccounts() } == [account("k1", revokedAt: 500)])
        }
    }

    @Test("service accounts outlive deleting every user account", arguments: StoreKind.allCases)
    func independentOfAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertServiceAccount(account("k1")) }
            try store.write { try $0.deleteAllAccounts() }
            #expect(try store.read { try $0.serviceAccounts() }.count == 1)
        }
    }
}
