import Foundation
import Testing

/// firebase-admin for Python (from PyPI) managing Identity Platform tenants on the built `hearth serve --dev`:
/// create_tenant, get_tenant, update_tenant, list_tenants with paging, delete_tenant and TenantNotFoundError, each
/// result asserted (Tests/Python/tenants_sdk.py runs them in order), and the audit events they left.
@Suite("firebase-admin tenant management against hearth serve --dev (e2e)", .blocking)
struct TenantAdminSDKTests {
    @Test("tenants: create, get, update, list in pages, delete, not found; a tenant's own paths served in its scope")
    func tenants() throws {
        let server = HearthProcess()
        try server.start()
        let settings: [String: Any] = ["base": server.baseURL, "project": "demo-hearth"]
        let steps = PythonSteps(try PythonClients.run(
            "tenants_sdk.py", [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]))
        let ids = steps.record("ids").compactMapValues { $0 as? String }
        let (alpha, beta, gamma) = (ids["a"] ?? "", ids["b"] ?? "", ids["c"] ?? "")
        let created = steps.record("create_tenant")
        #expect(created["id"] as? String == alpha)
        #expect(alpha.hasPrefix("alpha-tenant-") && alpha.count == "alpha-tenant-".count + 5)
        #expect(created["name"] as? String == "Alpha-Tenant")
        #expect(created["password"] as? Bool == true)
        #expect(created["emailLink"] as? Bool == false)
        let defaults = steps.record("create_tenant_defaults")
        #expect(defaults["id"] as? String == beta && beta.hasPrefix("beta-tenant-"))
        #expect(defaults["password"] as? Bool == false && defaults["emailLink"] as? Bool == false)
        #expect(steps.record("create_tenant_email_link")["emailLink"] as? Bool == true)
        #expect(NSDictionary(dictionary: steps.record("get_tenant")) == NSDictionary(dictionary: created))

        let updated = steps.record("update_tenant")
        #expect(updated["id"] as? String == alpha)
        #expect(updated["name"] as? String == "Alpha-Renamed")
        #expect(updated["emailLink"] as? Bool == true)
        #expect(updated["password"] as? Bool == true, "a field the mask leaves out keeps its value")
        #expect(NSDictionary(dictionary: steps.record("get_updated_tenant")) == NSDictionary(dictionary: updated))

        let ordered = [alpha, beta, gamma].sorted()
        let paged = steps.record("list_tenants_paged")
        #expect(paged["first"] as? [String] == Array(ordered.prefix(2)))
        #expect(paged["firstHasNext"] as? Bool == true)
        #expect(paged["second"] as? [String] == [ordered[2]])
        #expect(paged["secondHasNext"] as? Bool == false)
        #expect(paged["all"] as? [String] == ordered)

        #expect(steps.refusal("tenant_scoped_missing_user").hasPrefix("UserNotFoundError"), "served in the tenant's scope")
        #expect(steps.value("delete_tenant") is NSNull)
        #expect(steps.refusal("get_deleted_tenant").hasPrefix("TenantNotFoundError"))
        #expect(steps.refusal("delete_deleted_tenant").hasPrefix("TenantNotFoundError"))
        #expect(steps.refusal("update_missing_tenant").hasPrefix("TenantNotFoundError"))
        #expect(steps.value("list_after_delete") as? [String] == [alpha, gamma].sorted())

        let audit = steps.record("audit_events")
        #expect(audit["status"] as? Int == 200)
        #expect(audit["kinds"] as? [String]
            == ["tenant_created", "tenant_created", "tenant_created", "tenant_deleted", "tenant_updated"])
    }
}
