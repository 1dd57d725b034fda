import Foundation
import HearthAdmin
import HearthProtocol
import Testing

/// HearthAdmin's `TenantManager` driving the built `hearth serve --dev`: every tenant call, each result asserted.
@Suite("HearthAdmin tenants against the server (e2e)", .blocking)
struct AdminLibraryTenantTests {
    @Test("createTenant, tenant(id:), updateTenant, listTenantsPage in pages, deleteTenant, and tenantNotFound after")
    func tenantLifecycle() async throws {
        let (server, auth) = try AdminLibraryTests.developmentServer()
        defer { server.stop() }
        let manager = auth.tenantManager
        let acme = try await manager.createTenant(
            TenantProperties(
                displayName: "Acme", allowPasswordSignup: true, testPhoneNumbers: ["+15555550100": "123456"]))
        #expect(acme.tenantID.hasPrefix("acme-") && acme.displayName == "Acme")
        #expect(acme.allowPasswordSignup && !acme.enableEmailLinkSignin && !acme.disableAuth && !acme.enableAnonymousUser)
        #expect(acme.testPhoneNumbers == ["+15555550100": "123456"])
        #expect(acme.mfaConfig?["state"] == "DISABLED")
        #expect(try await manager.tenant(id: acme.tenantID) == acme)

        let renamed = try await manager.updateTenant(
            id: acme.tenantID, TenantProperties(displayName: "Acme-Two", enableAnonymousUser: true))
        #expect(renamed.displayName == "Acme-Two" && renamed.enableAnonymousUser)
        #expect(renamed.allowPasswordSignup, "a property the update leaves out stays")
        #expect(renamed.testPhoneNumbers == ["+15555550100": "123456"])

        let beta = try await manager.createTenant(TenantProperties(displayName: "Beta"))
        let first = try await manager.listTenantsPage(pageSize: 1)
        let next = try #require(first.nextPageToken)
        let second = try await manager.listTenantsPage(pageSize: 1, pageToken: next)
        #expect((first.tenants + second.tenants).map(\.tenantID) == [acme.tenantID, beta.tenantID].sorted())
        #expect(second.nextPageToken == nil)

        try await manager.deleteTenant(id: acme.tenantID)
        #expect(await refusal { _ = try await manager.tenant(id: acme.tenantID) }?.code == .tenantNotFound)
        #expect(await refusal { try await manager.deleteTenant(id: acme.tenantID) }?.code == .tenantNotFound)
        #expect(await refusal { _ = try await manager.createTenant(TenantProperties(displayName: "x")) }?.code
            == .invalidDisplayName)
        #expect(try await manager.listTenantsPage().tenants.map(\.tenantID) == [beta.tenantID])
    }
}
