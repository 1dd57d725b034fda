import Foundation
import HearthCore
import Testing

/// Tenant records, proved on each `StoreKind`: project-wide (the same from every scope), an id stored once, pages by
/// id in byte order, updates that replace the record, and deletion refused while the tenant's scope has accounts.
@Suite("Store conformance: tenants")
struct TenantConformanceTests {
    private func tenant(_ id: String, createdAt: Int64 = 100) -> Tenant {
        Tenant(
            id: id, displayName: "Tenant-\(id.prefix(8))", allowPasswordSignup: true, enableEmailLinkSignin: false,
            disableAuth: true, enableAnonymousUser: false, mfaConfig: #"{"enabledProviders":[],"state":"DISABLED"}"#,
            testPhoneNumbers: #"{"+15555550100":"123456"}"#, passwordPolicyConfig: nil,
            emailPrivacyConfig: #"{"enableImprovedEmailPrivacy":true}"#, createdAtMillis: createdAt,
            updatedAtMillis: createdAt + 1)
    }

    @Test("a tenant round-trips with every field, and is the same from every scope", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.tenant(id: "alpha-x1y2z") } == nil)
            let bare = Tenant(id: "bare-00000", createdAtMillis: 5, updatedAtMillis: 5)
            try store.write { writer throws in
                try writer.insertTenant(tenant("alpha-x1y2z"))
                try writer.insertTenant(bare)
            }
            #expect(try store.read { try $0.tenant(id: "alpha-x1y2z") } == tenant("alpha-x1y2z"))
            #expect(try store.read { try $0.tenant(id: "bare-00000") } == bare)
            #expect(try store.read { try $0.tenant(id: "ALPHA-x1y2z") } == nil)
            let scoped = store.scoped(to: try .tenant("alpha-x1y2z"))
            #expect(try scoped.read { try $0.tenant(id: "alpha-x1y2z") } == tenant("alpha-x1y2z"))
            #expect(try scoped.read { try $0.tenants(after: nil, limit: 10) }.map(\.id) == ["alpha-x1y2z", "bare-00000"])
        }
    }

    @Test("a tenant id is stored once", arguments: StoreKind.allCases)
    func uniqueness(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertTenant(tenant("t-1")) }
            #expect(throws: StoreError(.duplicateTenant)) {
                try store.write { try $0.insertTenant(tenant("t-1", createdAt: 900)) }
            }
            // From another scope too: tenants are project-wide.
            #expect(throws: StoreError(.duplicateTenant)) {
                try store.scoped(to: try .tenant("t-1")).write { try $0.insertTenant(tenant("t-1", createdAt: 900)) }
            }
            // The failed insert left the writer usable and changed nothing.
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateTenant)) { try writer.insertTenant(tenant("t-1", createdAt: 900)) }
                try writer.insertTenant(tenant("t-2"))
            }
            #expect(try store.read { try $0.tenants(after: nil, limit: 10) } == [tenant("t-1"), tenant("t-2")])
        }
    }

    @Test("tenants page by id in byte order, after a cursor, at most limit (at least 1)", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let ids = ["b-2", "a-10", "A-1", "a-9", "é-1", "z-0", "a-1"]
            try store.write { writer throws in for id in ids { try writer.insertTenant(tenant(id)) } }
            let ordered = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            try store.read { reader throws in
                #expect(try reader.tenants(after: nil, limit: 100).map(\.id) == ordered)
                #expect(try reader.tenants(after: nil, limit: 3).map(\.id) == Array(ordered.prefix(3)))
                #expect(try reader.tenants(after: "a-1", limit: 2).map(\.id) == ["a-10", "a-9"])
                #expect(try reader.tenants(after: "a-0", limit: 0).map(\.id) == ["a-1"])
                #expect(try reader.tenants(after: "z-0", limit: 5).map(\.id) == ["é-1"], "UTF-8 byte order, not ASCII")
                #expect(try reader.tenants(after: "é-1", limit: 5) == [])
            }
            var seen: [String] = []
            var cursor: String?
            while true {
                let page = try store.read { try $0.tenants(after: cursor, limit: 2) }
                seen += page.map(\.id)
                guard page.count == 2 else { break }
                cursor = page.last?.id
            }
            #expect(seen == ordered)
        }
    }

    @Test("an update replaces the stored tenant; an unknown id is notFound", arguments: StoreKind.allCases)
    func update(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { try $0.insertTenant(tenant("t-1")) }
            var changed = tenant("t-1")
            changed.displayName = nil
            changed.allowPasswordSignup = false
            changed.disableAuth = false
            changed.enableEmailLinkSignin = true
            changed.enableAnonymousUser = true
            changed.mfaConfig = #"{"enabledProviders":["PHONE_SMS"],"state":"ENABLED"}"#
            changed.testPhoneNumbers = nil
            changed.passwordPolicyConfig = #"{"passwordPolicyEnforcementState":"ENFORCE"}"#
            changed.emailPrivacyConfig = nil
            changed.updatedAtMillis = 5_000
            try store.write { try $0.updateTenant(changed) }
            #expect(try store.read { try $0.tenant(id: "t-1") } == changed)
            #expect(throws: StoreError(.notFound)) { try store.write { try $0.updateTenant(tenant("ghost")) } }
            #expect(try store.read { try $0.tenant(id: "ghost") } == nil)
        }
    }

    @Test("deleting a tenant removes its record; one whose scope has accounts is kept (tenantNotEmpty)",
          arguments: StoreKind.allCases)
    func deletion(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertTenant(tenant("empty-1"))
                try writer.insertTenant(tenant("busy-1"))
            }
            // An account in the project, and one in another tenant's scope, do not keep `empty-1`.
            try store.write { try $0.insertAccount(fullAccount("uid-p", email: "p@example.com")) }
            let busy = store.scoped(to: try .tenant("busy-1"))
            try busy.write { try $0.insertAccount(fullAccount("uid-b", email: "b@example.com")) }

            #expect(try store.write { try $0.deleteTenant(id: "empty-1") })
            #expect(try store.write { try $0.deleteTenant(id: "empty-1") } == false)
            #expect(try store.read { try $0.tenant(id: "empty-1") } == nil)

            #expect(throws: StoreError(.tenantNotEmpty)) { try store.write { try $0.deleteTenant(id: "busy-1") } }
            #expect(try store.read { try $0.tenant(id: "busy-1") } == tenant("busy-1"))
            try busy.write { writer throws in #expect(try writer.deleteAccount(localID: "uid-b")) }
            #expect(try store.write { try $0.deleteTenant(id: "busy-1") })
            #expect(try store.read { try $0.tenants(after: nil, limit: 10) } == [])
            #expect(try store.read { try $0.account(localID: "uid-p") } != nil)
        }
    }

    @Test("a tenant survives reopening the store", arguments: StoreKind.persistentCases)
    func persistence(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try kind.open(directory.path)
            defer { store.close() }
            try store.write { try $0.insertTenant(tenant("kept-1")) }
        }
        let reopened = try kind.open(directory.path)
        defer { reopened.close() }
        #expect(try reopened.read { try $0.tenant(id: "kept-1") } == tenant("kept-1"))
    }
}
