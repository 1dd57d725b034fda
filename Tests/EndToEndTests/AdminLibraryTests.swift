import Foundation
import HearthAdmin
import HearthVerify
import Testing

/// HearthAdmin against a real `hearth serve --dev`, through URLSession: the parts that need no admin endpoint.
/// (The admin calls are tested end to end once the server's admin endpoints are in.)
@Suite("HearthAdmin against the server (e2e)")
struct AdminLibraryTests {
    @Test("verifyIDToken accepts a real ID token (keys fetched from the server's JWKS) and refuses a tampered one")
    func verifiesRealTokens() async throws {
        let server = HearthProcess()
        try server.start()
        let google = try DevGoogle(server: server).signIn(email: "admin-lib@example.com")
        let signedIn = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(idToken: google.idToken, accessToken: nil))
        let issuer = (JWTParts.claims(signedIn.idToken)["iss"] as? String) ?? ""
        let auth = AdminAuth(
            serverURL: try #require(URL(string: server.baseURL)), projectID: "demo-hearth", credential: .owner,
            idTokenIssuer: issuer)

        let verified = try await auth.verifyIDToken(signedIn.idToken)
        #expect(verified.uid == signedIn.localID)
        #expect(verified.email == "admin-lib@example.com")

        var tampered = signedIn.idToken
        tampered.removeLast(2)
        tampered += tampered.hasSuffix("AA") ? "BB" : "AA"
        await #expect(throws: HearthAdminError(.invalidIDToken, message: "")) {
            _ = try await auth.verifyIDToken(tampered)
        }
    }
}
