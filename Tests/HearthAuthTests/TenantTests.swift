import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Auth.tenantID: every account call names the tenant; refresh does not")
struct TenantTests {
    /// An ID token of a user of tenant `tenant`.
    static func tenantIDToken(_ tenant: String, issuedAt: Double = Fixture.startTime) -> String {
        Fixture.idToken(
            issuedAt: issuedAt,
            extra: ["firebase": ["sign_in_provider": "google.com", "tenant": .string(tenant)]])
    }

    @Test("with a tenant set, sign-in and the profile load send tenantId; the user knows its tenant; refresh sends none")
    func tenantCalls() async throws {
        let harness = Harness()
        #expect(harness.auth.tenantID == nil)
        harness.auth.tenantID = "acme-x4k2q"
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse(idToken: Self.tenantIDToken("acme-x4k2q")))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        #expect(user.tenantID == "acme-x4k2q")
        for endpoint in ["verifyAssertion", "getAccountInfo"] {
            let request = try #require(harness.transport.requests(to: endpoint).first, "\(endpoint)")
            #expect(request.json?["tenantId"] == "acme-x4k2q", "\(endpoint)")
        }

        harness.transport.enqueue(
            "token", json: Fixture.refreshResponse(idToken: Self.tenantIDToken("acme-x4k2q", issuedAt: Fixture.startTime + 1)))
        _ = try await user.getIDToken(forcingRefresh: true)
        let refresh = try #require(harness.transport.requests(to: "token").first)
        #expect(!String(decoding: refresh.body ?? Data(), as: UTF8.self).contains("tenant"), "Secure Token calls name no tenant")
        #expect(user.tenantID == "acme-x4k2q")
    }

    @Test("without a tenant no call names one, and the user is the project's")
    func projectCalls() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        #expect(user.tenantID == nil)
        #expect(harness.transport.requests.allSatisfy { $0.json?["tenantId"] == nil })
    }

    @Test("signInAnonymously returns the current guest only when it belongs to this instance's tenant")
    func guestOfAnotherTenant() async throws {
        let harness = Harness()
        func enqueueGuest(_ token: String) {
            harness.transport.enqueue(
                "signupNewUser",
                json: [
                    "kind": "identitytoolkit#SignupNewUserResponse", "idToken": .string(token), "refreshToken": "guest-refresh",
                    "expiresIn": "3600", "localId": .string(Fixture.uid),
                ])
            harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(displayName: .null, providers: []))
        }
        enqueueGuest(Fixture.idToken(provider: "anonymous"))
        let projectGuest = try await harness.auth.signInAnonymously().user
        #expect(try await harness.auth.signInAnonymously().user === projectGuest)
        #expect(harness.transport.requests(to: "signupNewUser").count == 1)

        harness.auth.tenantID = "acme-x4k2q"
        enqueueGuest(Self.tenantIDToken("acme-x4k2q"))
        let tenantGuest = try await harness.auth.signInAnonymously().user
        #expect(tenantGuest !== projectGuest && tenantGuest.tenantID == "acme-x4k2q")
        let signUps = harness.transport.requests(to: "signupNewUser")
        #expect(signUps.map { $0.json?["tenantId"] } == [nil, "acme-x4k2q"])
    }
}
