import Foundation
import Testing

/// Administrators with a second factor sign in to the console with their authenticator app's code (raw requests to
/// `hearth serve --dev` requiring sign-in, the dev Google answering headlessly).
@Suite("Console sign-in with a second factor (e2e)", .blocking)
struct ConsoleSecondFactorTests {
    /// The console's sign-in up to its callback for `email`: the callback's answer.
    static func callback(_ server: HearthProcess, email: String) throws -> HTTPResult {
        let start = try server.request("GET", "/console/sign-in")
        let location = try #require(start.header("Location"))
        let flow = String(try #require(start.header("Set-Cookie")).prefix { $0 != ";" })
        let hint = email.replacingOccurrences(of: "@", with: "%40")
        let approved = try server.request("GET", String(location.dropFirst(server.baseURL.count)) + "&login_hint=\(hint)&prompt=none")
        let back = try #require(approved.header("Location"), "\(approved.status) \(approved.text)")
        return try server.request("GET", String(back.dropFirst(server.baseURL.count)), headers: [("Cookie", flow)])
    }

    static func field(_ name: String, in page: HTTPResult) throws -> String {
        let marker = #"name="\#(name)" value=""#
        let start = try #require(page.text.range(of: marker), "\(page.text)").upperBound
        return String(page.text[start...].prefix { $0 != "\"" })
    }

    @Test("an administrator with an authenticator app finishes with its code (a wrong code or a missing token is refused); one with a phone factor is refused")
    func secondFactor() throws {
        let server = HearthProcess(environment: ["HEARTH_CONSOLE_REQUIRE_SIGN_IN": "true"])
        try server.start()
        let client = MFATests.Client(server: server)
        let admin = try SignedIn(client.signIn("mfa.admin@example.com"))
        let secret = try client.enrollTOTP(admin)
        #expect(try server.runCommand(["users", "set-claims", admin.localID, #"{"hearthAdmin": true}"#]).status == 0)

        let form = try Self.callback(server, email: "mfa.admin@example.com")
        #expect(form.status == 200 && form.text.contains(#"id="code""#), "\(form.status) \(form.text)")
        let pending = String(try #require(form.header("Set-Cookie")).prefix { $0 != ";" })
        #expect(pending.hasPrefix("hearth_console_mfa=") && form.header("Set-Cookie")?.contains("SameSite=Strict") == true)
        let token = try Self.field("csrf", in: form)
        let enrollment = try Self.field("enrollment", in: form)
        func post(_ body: String) throws -> HTTPResult {
            try server.request(
                "POST", "/console/second-factor",
                headers: [("Cookie", pending), ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", server.baseURL)],
                body: Data(body.utf8))
        }
        let right = MFATests.totpCode(secret, stepOffset: 1)
        let wrong = String(format: "%06d", (Int(right)! + 1) % 1_000_000)
        #expect(try post("enrollment=\(enrollment)&code=\(right)").status == 403, "no token")
        let refused = try post("csrf=\(token)&enrollment=\(enrollment)&code=\(wrong)")
        #expect(refused.status == 400 && refused.text.contains(#"role="alert">Not signed in"#), "\(refused.text)")
        #expect(refused.header("Set-Cookie")?.hasPrefix("hearth_console=") != true)
        let accepted = try post("csrf=\(token)&enrollment=\(enrollment)&code=\(right)")
        #expect(accepted.status == 200, "\(accepted.text)")
        let session = String(try #require(accepted.header("Set-Cookie")).prefix { $0 != ";" })
        #expect(session.hasPrefix("hearth_console="))
        let page = try server.request("GET", "/console/users", headers: [("Cookie", session)])
        #expect(page.status == 200 && page.text.contains("mfa.admin@example.com"))

        let phone = try SignedIn(client.signIn("phone.admin@example.com"))
        let enrolled = try FirebaseAdminClient(server: server).post(
            "/accounts:update", #"{"localId": "\#(phone.localID)", "mfa": {"enrollments": [{"phoneInfo": "+15550104444"}]}}"#)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        #expect(try server.runCommand(["users", "set-claims", phone.localID, #"{"hearthAdmin": true}"#]).status == 0)
        let phoneRefused = try Self.callback(server, email: "phone.admin@example.com")
        #expect(phoneRefused.status == 403 && phoneRefused.text.contains("authenticator-app (TOTP) codes"), "\(phoneRefused.text)")
    }
}
