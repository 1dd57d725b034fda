import Foundation
import HearthCore
import Testing

/// Provider configurations made through the admin API, proved on each `StoreKind`: scoped (each scope its own set, the
/// same id once per scope), every field round-trips (the client secret too, sealed by the SQL stores), a clear
/// duplicate error, pages by id in byte order per kind, updates that replace, deletes that say whether there was one.
@Suite("Store conformance: provider configurations")
struct ProviderConfigConformanceTests {
    private func oidc(_ id: String, secret: String? = "s3cret-client-secret", createdAt: Int64 = 100) -> ProviderConfigRecord {
        ProviderConfigRecord(
            kind: .oauth, id: id, displayName: "Corp \(id)", enabled: true, clientID: "client-\(id)",
            issuer: "https://issuer.example/\(id)", clientSecret: secret, idTokenResponse: true,
            codeResponse: secret != nil, createdAtMillis: createdAt, updatedAtMillis: createdAt + 1)
    }

    @Test("a configuration round-trips with every field; another scope does not see it", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == nil)
            let bare = ProviderConfigRecord(kind: .defaultSupported, id: "google.com", createdAtMillis: 5, updatedAtMillis: 5)
            try store.write { writer throws in
                try writer.insertProviderConfig(oidc("oidc.corp"))
                try writer.insertProviderConfig(bare)
            }
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == oidc("oidc.corp"))
            #expect(try store.read { try $0.providerConfig(kind: .defaultSupported, id: "google.com") } == bare)
            #expect(try store.read { try $0.providerConfig(kind: .defaultSupported, id: "oidc.corp") } == nil, "by kind")
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "OIDC.corp") } == nil)
            let tenant = store.scoped(to: try .tenant("t-1"))
            #expect(try tenant.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == nil)
            #expect(try tenant.read { try $0.providerConfigs(kind: .oauth, after: nil, limit: 10) } == [])
        }
    }

    @Test("an id is stored once per scope and kind: duplicateProviderConfig, and the same id in a tenant", arguments: StoreKind.allCases)
    func duplicates(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertProviderConfig(oidc("oidc.corp")) }
            #expect(throws: StoreError(.duplicateProviderConfig)) {
                try store.write { try $0.insertProviderConfig(oidc("oidc.corp", secret: nil, createdAt: 900)) }
            }
            let tenant = store.scoped(to: try .tenant("t-1"))
            try tenant.write { try $0.insertProviderConfig(oidc("oidc.corp", secret: "tenant-secret-value", createdAt: 7)) }
            #expect(try tenant.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") }
                == oidc("oidc.corp", secret: "tenant-secret-value", createdAt: 7))
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == oidc("oidc.corp"))
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateProviderConfig)) { try writer.insertProviderConfig(oidc("oidc.corp")) }
                try writer.insertProviderConfig(oidc("oidc.other"))
            }
            #expect(try store.read { try $0.providerConfigs(kind: .oauth, after: nil, limit: 10) }.map(\.id)
                == ["oidc.corp", "oidc.other"])
        }
    }

    @Test("pages by id in UTF-8 byte order, per kind, after a cursor", arguments: StoreKind.allCases)
    func pages(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let ids = ["oidc.b", "oidc.a-10", "oidc.a-9", "oidc.é", "oidc.Z", "oidc.a-1"]
            try store.write { writer throws in
                for id in ids { try writer.insertProviderConfig(oidc(id)) }
                try writer.insertProviderConfig(
                    ProviderConfigRecord(kind: .defaultSupported, id: "apple.com", createdAtMillis: 1, updatedAtMillis: 1))
            }
            let ordered = ["oidc.Z", "oidc.a-1", "oidc.a-10", "oidc.a-9", "oidc.b", "oidc.é"]
            try store.read { reader throws in
                #expect(try reader.providerConfigs(kind: .oauth, after: nil, limit: 100).map(\.id) == ordered)
                #expect(try reader.providerConfigs(kind: .oauth, after: nil, limit: 2).map(\.id) == ["oidc.Z", "oidc.a-1"])
                #expect(try reader.providerConfigs(kind: .oauth, after: "oidc.a-1", limit: 2).map(\.id)
                    == ["oidc.a-10", "oidc.a-9"])
                #expect(try reader.providerConfigs(kind: .oauth, after: "oidc.a", limit: 0).map(\.id) == ["oidc.a-1"])
                #expect(try reader.providerConfigs(kind: .oauth, after: "oidc.z", limit: 5).map(\.id) == ["oidc.é"])
                #expect(try reader.providerConfigs(kind: .oauth, after: "oidc.é", limit: 5) == [])
                #expect(try reader.providerConfigs(kind: .defaultSupported, after: nil, limit: 5).map(\.id) == ["apple.com"])
            }
        }
    }

    @Test("an update replaces every field (the secret cleared too); an unknown id is notFound; delete says whether there was one", arguments: StoreKind.allCases)
    func updateAndDelete(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertProviderConfig(oidc("oidc.corp")) }
            var changed = oidc("oidc.corp")
            changed.displayName = nil
            changed.enabled = false
            changed.clientID = "client-2"
            changed.issuer = "https://other.example"
            changed.clientSecret = nil
            changed.codeResponse = false
            changed.updatedAtMillis = 5_000
            try store.write { try $0.updateProviderConfig(changed) }
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == changed)
            #expect(throws: StoreError(.notFound)) { try store.write { try $0.updateProviderConfig(oidc("oidc.ghost")) } }
            let tenant = store.scoped(to: try .tenant("t-1"))
            #expect(throws: StoreError(.notFound)) { try tenant.write { try $0.updateProviderConfig(changed) } }
            #expect(try tenant.write { try $0.deleteProviderConfig(kind: .oauth, id: "oidc.corp") } == false)
            #expect(try store.write { try $0.deleteProviderConfig(kind: .defaultSupported, id: "oidc.corp") } == false)
            #expect(try store.write { try $0.deleteProviderConfig(kind: .oauth, id: "oidc.corp") } == true)
            #expect(try store.write { try $0.deleteProviderConfig(kind: .oauth, id: "oidc.corp") } == false)
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == nil)
        }
    }

    @Test("a write that throws after inserting leaves no configuration", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.insertProviderConfig(oidc("oidc.corp"))
                    throw Abort()
                }
            }
            #expect(try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == nil)
        }
    }
}
