import Foundation
import HearthProtocol
import HearthVerify
import JOSE
import Testing

@testable import HearthAdmin

/// The tenant manager's requests (`/v2/projects/<p>/tenants…`) and a tenant's client (`/v1/…/tenants/<t>/…`).
@Suite("Tenants")
struct TenantTests {
    let harness = Harness()
    static let v2Base = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v2/projects/demo-hearth"

    static func tenantJSON(_ id: String, displayName: String = "Acme") -> JSONValue {
        [
            "name": .string("projects/demo-hearth/tenants/\(id)"), "displayName": .string(displayName),
            "allowPasswordSignup": true, "enableEmailLinkSignin": false, "disableAuth": false,
            "enableAnonymousUser": true, "mfaConfig": ["state": "DISABLED", "enabledProviders": []],
            "testPhoneNumbers": ["+15555550100": "123456"],
        ]
    }

    @Test("create, get, update (mask of the set properties), delete and list send Identity Platform's requests")
    func managerRequests() async throws {
        let manager = harness.auth().tenantManager
        harness.transport.enqueue("tenants", json: Self.tenantJSON("acme-x4k2q"))
        let created = try await manager.createTenant(
            TenantProperties(displayName: "Acme", allowPasswordSignup: true, enableAnonymousUser: true))
        #expect(created.tenantID == "acme-x4k2q" && created.displayName == "Acme")
        #expect(created.allowPasswordSignup && created.enableAnonymousUser && !created.disableAuth)
        #expect(created.testPhoneNumbers == ["+15555550100": "123456"])
        #expect(created.mfaConfig?["state"] == "DISABLED")

        harness.transport.enqueue("acme-x4k2q", json: Self.tenantJSON("acme-x4k2q"))
        harness.transport.enqueue("acme-x4k2q", json: Self.tenantJSON("acme-x4k2q", displayName: "Acme-Two"))
        harness.transport.enqueue("acme-x4k2q", json: [:])
        #expect(try await manager.tenant(id: "acme-x4k2q") == created)
        let updated = try await manager.updateTenant(
            id: "acme-x4k2q", TenantProperties(displayName: "Acme-Two", disableAuth: false))
        #expect(updated.displayName == "Acme-Two")
        try await manager.deleteTenant(id: "acme-x4k2q")

        harness.transport.enqueue(
            "tenants", json: ["tenants": [Self.tenantJSON("a-11111"), Self.tenantJSON("b-22222")], "nextPageToken": "b-22222"])
        let page = try await manager.listTenantsPage(pageSize: 2, pageToken: "0")
        #expect(page.tenants.map(\.tenantID) == ["a-11111", "b-22222"] && page.nextPageToken == "b-22222")

        let requests = harness.transport.requests
        #expect(requests.map(\.method) == ["POST", "GET", "PATCH", "DELETE", "GET"])
        #expect(requests.map(\.url.absoluteString) == [
            "\(Self.v2Base)/tenants", "\(Self.v2Base)/tenants/acme-x4k2q",
            "\(Self.v2Base)/tenants/acme-x4k2q?updateMask=disableAuth%2CdisplayName", "\(Self.v2Base)/tenants/acme-x4k2q",
            "\(Self.v2Base)/tenants?pageSize=2&pageToken=0",
        ])
        #expect(requests[0].json == ["displayName": "Acme", "allowPasswordSignup": true, "enableAnonymousUser": true])
        #expect(requests[2].json == ["displayName": "Acme-Two", "disableAuth": false])
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer owner" })
    }

    @Test("bad ids, an empty update and a bad page size are refused without sending; server codes map")
    func refusals() async throws {
        let manager = harness.auth().tenantManager
        for id in ["", "a/b", "../x", "a b", String(repeating: "a", count: 129)] {
            #expect(await adminError { _ = try await manager.tenant(id: id) }?.code == .invalidTenantID, "\(id)")
            #expect((try? manager.auth(forTenant: id)) == nil, "\(id)")
        }
        #expect(await adminError { _ = try await manager.updateTenant(id: "a-1", TenantProperties()) }?.code == .invalidArgument)
        #expect(await adminError { _ = try await manager.listTenantsPage(pageSize: 0) }?.code == .invalidArgument)
        #expect(harness.transport.requests.isEmpty)
        harness.transport.enqueue("ghost-11111", status: 400, json: ["error": ["code": 400, "message": "TENANT_NOT_FOUND"]])
        #expect(await adminError { _ = try await manager.tenant(id: "ghost-11111") }?.code == .tenantNotFound)
    }

    @Test("a tenant's client calls the tenant's paths, accepts only its tokens, and mints custom tokens with tenant_id")
    func tenantClient() async throws {
        let project = harness.auth()
        let acme = try project.tenantManager.auth(forTenant: "acme-x4k2q")
        #expect(acme.tenantID == "acme-x4k2q" && project.tenantID == nil)
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup())
        _ = try await acme.getUser(uid: "uid-1")
        #expect(harness.transport.requests.first?.url.absoluteString
            == Fixture.projectBase + "/tenants/acme-x4k2q/accounts:lookup")

        let acmeToken = Fixture.token(tenant: "acme-x4k2q")
        #expect(try await acme.verifyIDToken(acmeToken).tenantID == "acme-x4k2q")
        #expect(await adminError { _ = try await acme.verifyIDToken(Fixture.token()) }?.code == .tenantIDMismatch)
        #expect(await adminError { _ = try await acme.verifyIDToken(Fixture.token(tenant: "other-22222")) }?.code
            == .tenantIDMismatch)
        #expect(try await project.verifyIDToken(acmeToken).tenantID == "acme-x4k2q", "the project's client takes any, as firebase-admin")
        let cookie = Fixture.token(issuer: "https://session.firebase.google.com/demo-hearth", tenant: "other-22222")
        #expect(await adminError { _ = try await acme.verifySessionCookie(cookie) }?.code == .tenantIDMismatch)

        let custom = try await acme.createCustomToken(uid: "uid-7")
        let payload = try JSONValue(parsing: try InsecureJWT.decodeWithoutVerifying(custom).payload)
        #expect(payload["tenant_id"] == "acme-x4k2q" && payload["uid"] == "uid-7")
        let projectCustom = try await project.createCustomToken(uid: "uid-7")
        let projectPayload = try JSONValue(parsing: try InsecureJWT.decodeWithoutVerifying(projectCustom).payload)
        #expect(projectPayload["tenant_id"] == nil)
    }
}
