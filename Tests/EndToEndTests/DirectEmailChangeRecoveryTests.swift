import Foundation
import Testing

/// Issue 20 §5: a direct change of email (`accounts:update` with `email`, allowed without enumeration protection as in
/// Firebase) mails the old address a `RECOVER_EMAIL` code; applying it restores the old email.
@Suite("direct email change recovery against hearth serve --dev (e2e)", .blocking)
struct DirectEmailChangeRecoveryTests {
    @Test("the old address gets a RECOVER_EMAIL code (dev oobCodes listing); applying it brings the email back")
    func recovery() throws {
        let server = HearthProcess(environment: ["HEARTH_EMAIL_ENUMERATION_PROTECTION": "0"])
        try server.start()
        let v1 = "/identitytoolkit.googleapis.com/v1"
        let signUp = try server.postJSON(
            "\(v1)/accounts:signUp?key=k", ["email": "mover@example.com", "password": "secret-123", "returnSecureToken": true])
        let idToken = try #require(signUp.json["idToken"] as? String, "\(signUp.text)")
        let changed = try server.postJSON("\(v1)/accounts:update?key=k", ["idToken": idToken, "email": "moved@example.com"])
        #expect(changed.status == 200, "\(changed.text)")
        let listing = try server.request("GET", "/emulator/v1/projects/demo-hearth/oobCodes")
        let codes = listing.json["oobCodes"] as? [[String: Any]] ?? []
        let recovery = try #require(
            codes.first { $0["requestType"] as? String == "RECOVER_EMAIL" && $0["email"] as? String == "mover@example.com" },
            "\(listing.text)")
        #expect(recovery["newEmail"] as? String == "moved@example.com")
        #expect((recovery["oobLink"] as? String)?.contains("mode=recoverEmail") == true)
        let code = try #require(recovery["oobCode"] as? String)
        let applied = try server.postJSON("\(v1)/accounts:update?key=k", ["oobCode": code])
        #expect(applied.status == 200, "\(applied.text)")
        #expect(applied.json["email"] as? String == "mover@example.com")
        let lookup = try server.postJSON(
            "\(v1)/projects/demo-hearth/accounts:lookup", ["email": ["mover@example.com"]],
            headers: [("Authorization", "Bearer owner")])
        #expect((lookup.json["users"] as? [[String: Any]])?.first?["email"] as? String == "mover@example.com")
        let again = try server.postJSON("\(v1)/accounts:update?key=k", ["oobCode": code])
        #expect(((again.json["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("INVALID_OOB_CODE") == true)
    }
}
