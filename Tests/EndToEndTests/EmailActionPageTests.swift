import Foundation
import Testing

/// The action page email links open (`/emulator/action` in `--dev`, `/__/auth/action` always): a real headless
/// Chromium completes a password reset and an email verification; opening a link uses nothing; sign-in links go
/// only to the continue URL their code was issued with.
@Suite("Email action page (e2e)", .blocking)
struct EmailActionPageTests {
    @Test("a browser resets a password and verifies an email through the page")
    func browserCompletesActions() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        // Two accounts: a reset voids the other codes of its account.
        let resetUID = try clients.createUser(["localId": "page-reset", "email": "reset@example.com"])
        let uid = try clients.createUser(["localId": "page-user", "email": "page@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "reset@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": try clients.session(uid: uid).idToken])
        let (_, resetLink) = try clients.code("PASSWORD_RESET", for: "reset@example.com")
        let (_, verifyLink) = try clients.code("VERIFY_EMAIL", for: "page@example.com")

        try PythonClients.browser.get()
        let answer = try PythonClients.run("action_page.py", [resetLink, EmailActionTests.strongPassword, verifyLink])
        #expect(answer["resetTitle"] as? String == "Reset your password")
        #expect(answer["reset"] as? String == "You can now sign in with your new password.")
        #expect(answer["verifyTitle"] as? String == "Verify your email")
        #expect((answer["verify"] as? String)?.hasPrefix("Your email has been verified.") == true)
        #expect(try clients.lookup(resetUID)["passwordUpdatedAt"] != nil)
        #expect(try clients.lookup(uid)["emailVerified"] as? Bool == true)
        #expect(try clients.oobCodes().isEmpty)
    }

    @Test("opening a link (as a mail scanner does) uses no code; the page cannot be framed and sends no Referer elsewhere")
    func openingUsesNothing() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let uid = try clients.createUser(["localId": "scanned", "email": "scan@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": try clients.session(uid: uid).idToken])
        let (code, link) = try clients.code("VERIFY_EMAIL", for: "scan@example.com")
        let path = String(link.dropFirst(server.baseURL.count))
        for _ in 0..<3 {
            let page = try server.request("GET", path)
            #expect(page.status == 200)
            #expect(page.header("Referrer-Policy") == "same-origin")
            #expect(page.header("Cache-Control") == "no-store")
            #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(page.header("X-Frame-Options") == "DENY")
            #expect(page.header("X-Content-Type-Options") == "nosniff")
        }
        #expect(try clients.lookup(uid)["emailVerified"] as? Bool != true)
        // The production path serves the same page.
        #expect(try server.request("GET", "/__/auth/action?mode=verifyEmail&oobCode=\(code)").status == 200)
        let posted = try server.request(
            "POST", "/__/auth/action", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("oobCode=\(code)".utf8))
        #expect(posted.status == 200)
        #expect(try clients.lookup(uid)["emailVerified"] as? Bool == true)
        #expect(try server.request("POST", "/__/auth/action", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data("oobCode=\(code)".utf8)).status == 400)
    }

    @Test("a sign-in link redirects (303) to its code's continue URL with the link's parameters, never to one from the request")
    func signInRedirect() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        _ = try clients.web("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "hop@example.com", "continueUrl": "https://app.example.com/done"])
        let (code, link) = try clients.code("EMAIL_SIGNIN", for: "hop@example.com")
        let path = String(link.dropFirst(server.baseURL.count))
        let redirected = try server.request("GET", path)
        #expect(redirected.status == 303)
        let location = try #require(redirected.header("Location"))
        #expect(location.hasPrefix("https://app.example.com/done?"))
        #expect(location.contains("oobCode=\(code)") && location.contains("mode=signIn"))
        let tampered = try server.request("GET", "/emulator/action?mode=signIn&oobCode=\(code)&continueUrl=https%3A%2F%2Fevil.example%2F")
        #expect(tampered.header("Location")?.hasPrefix("https://app.example.com/done?") == true)
        #expect(try server.request("GET", "/emulator/action?mode=signIn&oobCode=forged&continueUrl=https%3A%2F%2Fevil.example%2F").status == 400)
        #expect(try clients.oobCodes().count == 1)  // redirecting used nothing
    }
}
