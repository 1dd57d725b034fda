import Foundation
import HearthCore
import Testing

/// Tenant records, proved on each `StoreKind`: project-wide (the same from every scope), an id stored once, pages by
/// id in byte order, updates that replace the record, deletion of the record alone, and the batched deletion of a scope's state.
@Suite("Store conformance: tenants")
struct TenantConformanceTests {
    private func tenant(_ id: String, createdAt: Int64 = 100) -> Tenant {
        Tenant(
            id: id, displayName: "Tenant-\(id.prefix(8))", allowPasswordSignup: true, enableEmailLinkSignin: false,
            disableAuth: true, enableAnonymousUser: false, mfaConfig: #"{"enabledProviders":[],"state":"DISABLED"}"#,
            testPhoneNumbers: #"{"+15555550100":"123456"}"#, passwordPolicyConfig: nil,
            emailPrivacyConfig: #"{"enableImprovedEmailPrivacy":true}"#,
            smsRegionConfig: #"{"allowlistOnly":{"allowedRegions":["CA"]}}"#, createdAtMillis: createdAt,
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
            changed.smsRegionConfig = #"{"allowByDefault":{"disallowedRegions":["GB"]}}"#
            changed.updatedAtMillis = 5_000
            try store.write { try $0.updateTenant(changed) }
            #expect(try store.read { try $0.tenant(id: "t-1") } == changed)
            #expect(throws: StoreError(.notFound)) { try store.write { try $0.updateTenant(tenant("ghost")) } }
            #expect(try store.read { try $0.tenant(id: "ghost") } == nil)
        }
    }

    @Test("deleting a tenant removes its record only; its scope's records stay for the purge", arguments: StoreKind.allCases)
    func deletion(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertTenant(tenant("empty-1"))
                try writer.insertTenant(tenant("busy-1"))
            }
            try store.write { try $0.insertAccount(fullAccount("uid-p", email: "p@example.com")) }
            let busy = store.scoped(to: try .tenant("busy-1"))
            try busy.write { try $0.insertAccount(fullAccount("uid-b", email: "b@example.com")) }

            #expect(try store.write { try $0.deleteTenant(id: "empty-1") })
            #expect(try store.write { try $0.deleteTenant(id: "empty-1") } == false)
            #expect(try store.read { try $0.tenant(id: "empty-1") } == nil)

            #expect(try store.write { try $0.deleteTenant(id: "busy-1") })
            #expect(try store.read { try $0.tenants(after: nil, limit: 10) } == [])
            #expect(try busy.read { try $0.account(localID: "uid-b") } != nil, "the purge deletes it, not deleteTenant")
            #expect(try store.read { try $0.scopes() } == [.project, try .tenant("busy-1")])
            #expect(try store.read { try $0.account(localID: "uid-p") } != nil)
        }
    }

    @Test("deleteScopeState deletes a tenant's sessions, codes, verification sessions, counters, provider configurations and SAML assertions in batches, never the project's",
          arguments: StoreKind.allCases)
    func scopeState(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let doomed = store.scoped(to: try .tenant("doomed-1"))
            for scoped in [store, doomed] {
                let tag = scoped.scope.isProject ? "p" : "t"
                try scoped.write { writer throws in
                    try writer.insertAccount(fullAccount("uid-1", email: "ada@example.com"))
                    try writer.insertRefreshSession(refreshSession("\(tag)-rt1"))
                    try writer.insertRefreshSession(refreshSession("\(tag)-rt2"))
                    try writer.insertOOBCode(
                        OOBCodeRecord(
                            codeHash: "\(tag)-code", kind: .verifyEmail, localID: "uid-1", email: "ada@example.com",
                            createdAtMillis: 1, expiresAtMillis: 9_000_000_000_000))
                    try writer.insertOOBCode(
                        OOBCodeRecord(
                            codeHash: "\(tag)-signin", kind: .emailSignIn, localID: nil, email: "new@example.com",
                            createdAtMillis: 1, expiresAtMillis: 9_000_000_000_000))
                    try writer.insertVerificationSession(verificationSession("\(tag)-vs"))
                    try writer.saveLimitCounter(
                        LimitCounter(key: "\(tag)-counter", windowStartMillis: 0, expiresAtMillis: 9_000_000_000_000))
                    try writer.insertProviderConfig(SAMLAssertionConformanceTests.samlConfig("saml.idp"))
                    _ = try writer.insertSAMLAssertion(
                        providerID: "saml.idp", assertionID: "_\(tag)", expiresAtMillis: 9_000_000_000_000)
                }
            }
            #expect(try store.write { try $0.deleteScopeState(limit: 100) } == 0, "the project's are never deleted")

            var batches: [Int] = []
            while batches.last.map({ $0 == 2 }) ?? true {
                batches.append(try doomed.write { try $0.deleteScopeState(limit: 2) })
            }
            #expect(batches == [2, 2, 2, 2, 0])
            try doomed.read { reader throws in
                #expect(try reader.refreshSession(id: "t-rt1") == nil)
                #expect(try reader.oobCode(hash: "t-code") == nil)
                #expect(try reader.oobCode(hash: "t-signin") == nil)
                #expect(try reader.verificationSession(hash: "t-vs") == nil)
                #expect(try reader.limitCounter(key: "t-counter") == nil)
                #expect(try reader.providerConfig(kind: .saml, id: "saml.idp") == nil)
                #expect(try reader.account(localID: "uid-1") != nil, "accounts are not part of it")
            }
            try store.read { reader throws in
                #expect(try reader.refreshSession(id: "p-rt1") != nil)
                #expect(try reader.refreshSession(id: "p-rt2") != nil)
                #expect(try reader.oobCode(hash: "p-code") != nil)
                #expect(try reader.oobCode(hash: "p-signin") != nil)
                #expect(try reader.verificationSession(hash: "p-vs") != nil)
                #expect(try reader.limitCounter(key: "p-counter") != nil)
                #expect(try reader.providerConfig(kind: .saml, id: "saml.idp") != nil)
            }
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
