import Foundation
import Testing

/// portfolio-api's `GET /admin/users`: every user and their portfolios, for callers with the `admin` claim only.
@Suite("Portfolio admin route (e2e)", .blocking)
struct PortfolioAdminTests {
    /// Signs `email` in through the dev IdP, as the iOS SDK would, and has portfolio-api make their starter portfolio.
    static func signIn(_ email: String, on stack: PortfolioStack) throws -> SignedIn {
        let google = try DevGoogle(server: stack.hearth).signIn(email: email)
        let signedIn = try SignedIn(FirebaseIOSClient(server: stack.hearth).verifyAssertion(idToken: google.idToken, accessToken: nil))
        let list = try RawHTTP.send(
            port: stack.api.port, method: "GET", path: "/portfolioList", headers: [("Authorization", "Bearer \(signedIn.idToken)")])
        #expect(list.status == 200, "\(list.text)")
        return signedIn
    }

    static func adminUsers(_ idToken: String?, on stack: PortfolioStack) throws -> HTTPResult {
        try RawHTTP.send(
            port: stack.api.port, method: "GET", path: "/admin/users",
            headers: idToken.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    @Test("a caller without the admin claim gets 403; without a token, 401")
    func nonAdminRefused() throws {
        let stack = try PortfolioStack()
        let ada = try Self.signIn("ada@example.com", on: stack)
        let refused = try Self.adminUsers(ada.idToken, on: stack)
        #expect(refused.status == 403)
        #expect(refused.text.contains("admin"))
        #expect(!refused.text.contains("ada@example.com"))
        #expect(try Self.adminUsers(nil, on: stack).status == 401)
    }

    /// Needs Hearth's admin endpoints (`accounts:update` with `customAttributes`, `accounts:batchGet`) from issue 8.
    @Test("a caller whose refreshed token has admin: true lists every user with their portfolios")
    func adminListsEveryone() throws {
        let stack = try PortfolioStack()
        let ada = try Self.signIn("ada@example.com", on: stack)
        let grace = try Self.signIn("grace@example.com", on: stack)

        // What `hearth users set-claims UID '{"admin":true}'` and HearthAdmin's setCustomUserClaims send.
        let granted = try stack.hearth.postJSON(
            "/identitytoolkit.googleapis.com/v1/projects/demo-hearth/accounts:update",
            ["localId": ada.localID, "customAttributes": #"{"admin":true}"#], headers: [("Authorization", "Bearer owner")])
        #expect(granted.status == 200, "\(granted.text)")
        // The claim reaches ID tokens at the next refresh; the old token is still not an admin's.
        #expect(try Self.adminUsers(ada.idToken, on: stack).status == 403)
        let refreshed = try FirebaseIOSClient(server: stack.hearth).refresh(ada.refreshToken)
        let adminToken = try #require(refreshed.json["id_token"] as? String, "\(refreshed.text)")

        let listed = try Self.adminUsers(adminToken, on: stack)
        #expect(listed.status == 200, "\(listed.text)")
        let users = try #require(listed.json["users"] as? [[String: Any]])
        #expect(Set(users.compactMap { $0["uid"] as? String }) == [ada.localID, grace.localID])
        let graceEntry = try #require(users.first { $0["uid"] as? String == grace.localID })
        #expect(graceEntry["email"] as? String == "grace@example.com")
        let portfolios = try #require(graceEntry["portfolio"] as? [[String: Any]])
        #expect(portfolios.map { $0["portfolioName"] as? String } == ["My First Portfolio"])
    }
}
