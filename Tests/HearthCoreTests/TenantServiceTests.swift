import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Tenants: Identity Platform's id and field rules, and the tenant service")
struct TenantServiceTests {
    private func fields(_ values: [String: JSONValue]) throws -> TenantFields {
        try TenantFields(fields: RequestFields(values))
    }

    @Test("display names: 4 to 20 characters, a letter first, then letters, digits and hyphens")
    func displayNames() throws {
        for good in ["abcd", "Tenant-1", "a-b-c-d", "A1234567890123456789"] {
            #expect(throws: Never.self) { try TenantRules.checkDisplayName(good) }
        }
        for bad in ["abc", "1abc", "-abc", "A12345678901234567890", "tenant one", "ténant", "ten_ant", ""] {
            #expect(wireErrorCode { try TenantRules.checkDisplayName(bad) } == .invalidDisplayName, "\(bad)")
        }
    }

    @Test("tenant ids: 1 to 128 letters, digits and hyphens; generated ids are the display name and five characters")
    func ids() throws {
        for good in ["a", "tenant-1-x4k2q", String(repeating: "t", count: 128)] {
            #expect(throws: Never.self) { try TenantRules.checkID(good) }
        }
        for bad in ["", String(repeating: "t", count: 129), "a/b", "a b", "ü", "a.b", "a_b"] {
            #expect(wireErrorCode { try TenantRules.checkID(bad) } == .invalidTenantID, "\(bad)")
        }
        let id = TenantRules.newID(displayName: "My-Tenant")
        #expect(id.hasPrefix("my-tenant-") && id.count == "my-tenant-".count + 5)
        #expect(id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
        #expect(TenantRules.newID(displayName: "My-Tenant") != id)
    }

    @Test("create, get, list in pages, update with a mask, delete; each change audited")
    func lifecycle() throws {
        let test = try TestPlatform()
        let tenants = test.platform.tenants
        let created = try tenants.create(
            try fields(["displayName": "Tenant-One", "allowPasswordSignup": true]), by: .system)
        let id = String(created.name.split(separator: "/").last ?? "")
        #expect(created.name == "projects/\(TestPlatform.projectID)/tenants/\(id)")
        #expect(id.hasPrefix("tenant-one-"))
        #expect(created.settings.displayName == "Tenant-One" && created.settings.allowPasswordSignup == true)
        #expect(created.settings.enableEmailLinkSignin == false && created.settings.disableAuth == false)
        #expect(created.settings.mfaConfig == ["enabledProviders": [], "state": "DISABLED"])
        #expect(try tenants.get(id: id) == created)

        for name in ["Tenant-Two", "Tenant-Three"] { _ = try tenants.create(try fields(["displayName": .string(name)]), by: .system) }
        let first = try tenants.list(ListTenantsRequest(pageSize: 2))
        #expect(first.tenants.count == 2)
        let next = try #require(first.nextPageToken)
        let second = try tenants.list(ListTenantsRequest(pageSize: 2, pageToken: next))
        #expect(second.tenants.count == 1 && second.nextPageToken == nil)
        let all = (first.tenants + second.tenants).map(\.name)
        #expect(all == all.sorted() && Set(all).count == 3)

        let updated = try tenants.update(
            id: id, try fields(["displayName": "Renamed", "enableEmailLinkSignin": true, "disableAuth": true]),
            updateMask: "displayName,enableEmailLinkSignin", by: .system)
        #expect(updated.settings.displayName == "Renamed" && updated.settings.enableEmailLinkSignin == true)
        #expect(updated.settings.allowPasswordSignup == true)
        #expect(updated.settings.disableAuth == false, "a field outside the mask is left as it was")
        let mfa = try tenants.update(
            id: id, try fields(["mfaConfig": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]]]),
            updateMask: "mfaConfig.state", by: .system)
        #expect(mfa.settings.mfaConfig == ["enabledProviders": [], "state": "ENABLED"])

        try tenants.delete(id: id, by: .system)
        #expect(wireErrorCode { _ = try tenants.get(id: id) } == .tenantNotFound)
        #expect(wireErrorCode { try tenants.delete(id: id, by: .system) } == .tenantNotFound)

        let kinds = try test.store.read { try $0.auditEvents(AuditQuery(limit: 100)) }.map(\.kind)
        #expect(kinds.filter { $0 == .tenantCreated }.count == 3)
        #expect(kinds.filter { $0 == .tenantUpdated }.count == 2)
        #expect(kinds.filter { $0 == .tenantDeleted }.count == 1)
        let updates = try test.store.read { try $0.auditEvents(AuditQuery(kind: .tenantUpdated, limit: 10)) }
        #expect(
            Set(updates.map(\.detail))
                == ["tenant=\(id) fields=displayName,enableEmailLinkSignin", "tenant=\(id) fields=mfaConfig"])
    }

    @Test("bad input is refused with a stable code and changes nothing")
    func refusals() throws {
        let test = try TestPlatform()
        let tenants = test.platform.tenants
        #expect(wireErrorCode { _ = try tenants.create(try fields([:]), by: .system) } == .invalidDisplayName)
        #expect(wireErrorCode { _ = try tenants.create(try fields(["displayName": "no"]), by: .system) } == .invalidDisplayName)
        #expect(wireErrorCode { _ = try fields(["displayName": "Tenant-One", "color": "red"]) } == .invalidArgument)
        #expect(wireErrorCode { _ = try fields(["mfaConfig": "ENABLED"]) } == .invalidArgument)
        for bad: [String: JSONValue] in [
            ["mfaConfig": ["state": "SOMETIMES"]], ["mfaConfig": ["enabledProviders": ["EMAIL"]]],
            ["mfaConfig": ["color": "red"]], ["testPhoneNumbers": ["555": "123456"]],
            ["testPhoneNumbers": ["+15555550100": "12345"]], ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": "yes"]],
            ["passwordPolicyConfig": ["passwordPolicyEnforcementState": "MAYBE"]],
            ["passwordPolicyConfig": ["passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 2]]]]],
        ] {
            var values = bad
            values["displayName"] = "Tenant-One"
            #expect(wireErrorCode { _ = try tenants.create(try fields(values), by: .system) } == .invalidArgument, "\(bad)")
        }
        #expect(try tenants.list(ListTenantsRequest()).tenants.isEmpty)

        let created = try tenants.create(try fields([
            "displayName": "Tenant-One", "testPhoneNumbers": ["+15555550100": "123456"],
            "passwordPolicyConfig": [
                "passwordPolicyEnforcementState": "ENFORCE",
                "passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 8, "containsNumericCharacter": true]]],
            ],
        ]), by: .system)
        let id = String(created.name.split(separator: "/").last ?? "")
        #expect(created.settings.testPhoneNumbers == ["+15555550100": "123456"])
        for mask in ["color", "displayName,", "mfaConfig.", "testPhoneNumbers.x", "displayName.x", "mfaConfig.a.b"] {
            #expect(
                wireErrorCode { _ = try tenants.update(id: id, TenantFields(), updateMask: mask, by: .system) }
                    == .invalidArgument, "\(mask)")
        }
        #expect(wireErrorCode { _ = try tenants.update(id: "ghost", TenantFields(), updateMask: "disableAuth", by: .system) }
            == .tenantNotFound)
        #expect(wireErrorCode { _ = try tenants.get(id: "not/an/id") } == .invalidTenantID)
        #expect(wireErrorCode { _ = try tenants.list(ListTenantsRequest(pageToken: "bad token")) } == .invalidPageSelection)
        for size in ["0", "1001", "-1", "ten"] {
            #expect(wireErrorCode { _ = try ListTenantsRequest(fields: RequestFields(["pageSize": .string(size)])) }
                == .invalidPageSelection)
        }
        #expect(try tenants.get(id: id) == created)

    }

    @Test("deleting a tenant deletes its users (queueing their provider tokens' revocation), sessions, codes, provider configurations and SAML assertions, not the project's")
    func deletionPurgesTheScope() throws {
        let test = try TestPlatform()
        let tenants = test.platform.tenants
        let created = try tenants.create(try fields(["displayName": "Doomed"]), by: .system)
        let id = String(created.name.split(separator: "/").last ?? "")
        let doomed = test.store.scoped(to: try .tenant(id))
        let apple = LinkedIdentity(providerID: "apple.com", rawID: "a-1", providerRefreshToken: ProviderRefreshToken(token: "apple-refresh-token", clientID: "com.example.app"))
        for scoped in [test.store, doomed] {
            try scoped.write { writer in
                for index in 0..<3 {
                    try writer.insertAccount(
                        Account(localID: "u\(index)", createdAtMillis: 1, validSinceMillis: 1, providers: index == 0 ? [apple] : []))
                }
                try writer.insertOOBCode(
                    OOBCodeRecord(
                        codeHash: "code-\(scoped.scope.tenantID)", kind: .verifyEmail, localID: "u1", email: "u1@example.com",
                        createdAtMillis: 1, expiresAtMillis: .max))
                for kind in [ProviderConfigRecord.Kind.oauth, .saml] {
                    try writer.insertProviderConfig(
                        ProviderConfigRecord(kind: kind, id: kind == .oauth ? "oidc.corp" : "saml.corp", createdAtMillis: 1, updatedAtMillis: 1))
                }
                _ = try writer.insertSAMLAssertion(providerID: "saml.corp", assertionID: "_a", expiresAtMillis: .max)
            }
        }

        try tenants.delete(id: id, by: .system)
        #expect(wireErrorCode { _ = try tenants.get(id: id) } == .tenantNotFound)
        #expect(try doomed.read { try $0.accountCount() } == 0)
        #expect(try doomed.read { try $0.oobCode(hash: "code-\(id)") } == nil)
        #expect(try doomed.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") } == nil)
        #expect(try doomed.read { try $0.providerConfig(kind: .saml, id: "saml.corp") } == nil)
        #expect(try doomed.write { try $0.insertSAMLAssertion(providerID: "saml.corp", assertionID: "_a", expiresAtMillis: 1) },
                "its recorded assertions went too")
        #expect(try test.store.read { try $0.providerConfig(kind: .saml, id: "saml.corp") } != nil, "the project's stay")
        #expect(try test.store.read { try $0.accountCount() } == 3, "the project's users stay")
        #expect(try test.store.read { try $0.oobCode(hash: "code-") } != nil)
        let queued = try test.store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 10) }
        #expect(queued.map(\.localID) == ["u0"], "the deleted Apple user's token is queued for revocation, once")
        let deleted = try test.store.read { try $0.auditEvents(AuditQuery(kind: .tenantDeleted, limit: 10)) }
        #expect(deleted.map(\.detail) == ["tenant=\(id)"])
    }

    @Test("a purge that a crash interrupted is finished by the maintenance task, in batches")
    func interruptedPurge() throws {
        let test = try TestPlatform()
        let created = try test.platform.tenants.create(try fields(["displayName": "Crashed"]), by: .system)
        let id = String(created.name.split(separator: "/").last ?? "")
        let crashed = test.store.scoped(to: try .tenant(id))
        try crashed.write { writer in
            for index in 0..<5 { try writer.insertAccount(Account(localID: "u\(index)", createdAtMillis: 1, validSinceMillis: 1)) }
            try writer.insertRefreshSession(
                RefreshSession(
                    sessionID: "s-1", localID: "u1", signInProvider: "password", authTime: 1, startedAtMillis: 1,
                    currentTokenHash: "h-1"))
        }
        // The record went, the process died before the purge.
        #expect(try test.store.write { try $0.deleteTenant(id: id) })
        let report = try MaintenanceTaskTests.task(test, batchSize: 2).runPass()
        #expect(report.deletedTenantRecords == 6)
        #expect(try crashed.read { try $0.accountCount() } == 0)
        #expect(try crashed.read { try $0.refreshSession(id: "s-1") } == nil)
        #expect(try MaintenanceTaskTests.task(test).runPass().deletedTenantRecords == 0)
    }
}
