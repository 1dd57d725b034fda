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

        // A tenant whose scope has an account is kept.
        let scope = try StoreScope.tenant(id)
        try test.store.scoped(to: scope).write { try $0.insertAccount(Account(localID: "u1", createdAtMillis: 1, validSinceMillis: 1)) }
        #expect(wireErrorCode { try tenants.delete(id: id, by: .system) } == .operationNotAllowed)
        #expect(try tenants.get(id: id) == created)
    }
}
