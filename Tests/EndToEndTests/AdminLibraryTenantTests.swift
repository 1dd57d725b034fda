import Foundation
import HearthAdmin
import HearthProtocol
import HearthVerify
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

    @Test("auth(forTenant:) against the server: the tenant's users only, its custom tokens sign in there, its tokens only")
    func tenantUsers() async throws {
        let (server, auth) = try AdminLibraryTests.developmentServer()
        defer { server.stop() }
        let tenant = try await auth.tenantManager.createTenant(TenantProperties(displayName: "Users-Tenant"))
        let tenantAuth = try auth.tenantManager.auth(forTenant: tenant.tenantID)
        var request = CreateUserRequest()
        request.email = "both@example.com"
        let inTenant = try await tenantAuth.createUser(request)
        let inProject = try await auth.createUser(request)
        #expect(inTenant.uid != inProject.uid, "one email, one account per scope")
        #expect(inTenant.tenantID == tenant.tenantID && inProject.tenantID == nil)
        #expect(try await tenantAuth.getUser(email: "both@example.com").uid == inTenant.uid)
        #expect(await refusal { _ = try await auth.getUser(uid: inTenant.uid) }?.code == .userNotFound)
        #expect(await refusal { _ = try await tenantAuth.getUser(uid: inProject.uid) }?.code == .userNotFound)

        // The tenant's custom token carries tenant_id: it signs in only where it says (the client names the tenant).
        let token = try await tenantAuth.createCustomToken(uid: inTenant.uid)
        let signedIn = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
            ["token": token, "returnSecureToken": true, "tenantId": tenant.tenantID])
        let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.text)")
        let atProject = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k", ["token": token, "returnSecureToken": true])
        #expect(atProject.errorMessage?.hasPrefix("TENANT_ID_MISMATCH") == true, "\(atProject.text)")
        let verified = try await tenantAuth.verifyIDToken(idToken, checkRevoked: true)
        #expect(verified.uid == inTenant.uid && verified.tenantID == tenant.tenantID)
        // As firebase-admin: the project's client verifies any of its tenants' tokens and says whose it is.
        #expect(try await auth.verifyIDToken(idToken).tenantID == tenant.tenantID)
        let other = try await auth.tenantManager.createTenant(TenantProperties(displayName: "Other-Tenant"))
        #expect(await refusal { _ = try await auth.tenantManager.auth(forTenant: other.tenantID).verifyIDToken(idToken) }?.code
            == .tenantIDMismatch)

        try await tenantAuth.deleteUser(uid: inTenant.uid)
        #expect(await refusal { _ = try await tenantAuth.getUser(uid: inTenant.uid) }?.code == .userNotFound)
        #expect(try await auth.getUser(uid: inProject.uid).email == "both@example.com", "the project's stays")
    }
}
