import Foundation
import Testing

/// The `console` settings: refused at startup when unusable, and in production the console's sign-in at Google as its
/// own client, with `Secure` cookies behind an https public URL (raw requests to the real binary).
@Suite("Console settings (e2e)", .blocking)
struct ConsoleSettingsTests {
    @Test("each unusable console setting is refused with a message naming it", arguments: [
        (#"{"console": {"clientId": "c.apps.googleusercontent.com"}}"#, "console.clientSecret (or HEARTH_CONSOLE_CLIENT_SECRET) is needed"),
        (#"{"console": {"clientId": "other", "clientSecret": "s"}}"#, "console.clientId must be one of googleClientIds"),
        (#"{"console": {"clientSecret": "s"}}"#, "console: set clientId"),
        (#"{"console": {"sessionHours": 0}}"#, "console.sessionHours must be between 1 and 336"),
        (#"{"console": {"requireSignin": true}}"#, "unknown setting 'console.requireSignin'"),
        (#"{"console": {"clientId": "c", "clientSecret": "s", "provider": "oidc.none"}}"#, "console.provider must be google.com or a provider in oidcProviders"),
        (#"{"console": {"clientId": "c.apps.googleusercontent.com", "clientSecret": "s", "authorizationUri": "http://accounts.example.com/auth"}}"#,
         "console.authorizationUri must be an absolute https URL"),
    ])
    func refused(console: String, message: String) throws {
        var config = try #require(try JSONSerialization.jsonObject(with: Data(console.utf8)) as? [String: Any])
        config["googleClientIds"] = ["c.apps.googleusercontent.com"]
        let result = try EmailSettingsTests.serve(config)
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test("in production the console signs in at Google as its client (PKCE, state, nonce, Secure Lax flow cookie); pages need a session, changes a session and token")
    func productionSignIn() throws {
        let server = HearthProcess(
            arguments: ["--project-id", "console-prod", "--public-url", "https://hearth.example.com"],
            environment: [
                "HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "console.apps.googleusercontent.com",
                "HEARTH_CONFIG": try Self.writeConfig(#"{"console": {"clientId": "console.apps.googleusercontent.com", "sessionHours": 2}}"#),
                "HEARTH_CONSOLE_CLIENT_SECRET": "shh",
            ])
        try server.start()
        let start = try server.request("GET", "/console/sign-in")
        #expect(start.status == 302)
        let location = try #require(start.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.scheme == "https" && location.host == "accounts.google.com" && location.path == "/o/oauth2/v2/auth")
        let query = Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(query["client_id"] == "console.apps.googleusercontent.com")
        #expect(query["redirect_uri"] == "https://hearth.example.com/console/callback")
        #expect(query["response_type"] == "code" && query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43)
        #expect(query["state"]?.isEmpty == false && query["nonce"]?.isEmpty == false && query["scope"] == "openid email profile")
        #expect(!(location.string ?? "").contains("shh"))
        let flow = try #require(start.header("Set-Cookie"))
        #expect(flow.hasPrefix("hearth_console_flow=\(query["state"] ?? "-")."))
        #expect(flow.hasSuffix("Path=/console; Max-Age=600; HttpOnly; SameSite=Lax; Secure"))

        let page = try server.request("GET", "/console/users")
        #expect(page.status == 401 && page.text.contains("Sign in with Google"))
        for headers in [[("Origin", "https://hearth.example.com")], [("Origin", "https://evil.example"), ("Cookie", "hearth_console=x")]] {
            let change = try server.request(
                "POST", "/console/keys/rotate", headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("csrf=x".utf8))
            #expect(change.status == 403)
        }
        #expect(!server.lines.joined().contains("shh"))
    }

    @Test("in production an administrator signs in through an oidc.* provider: the console exchanges the code as its client and signs in with signInWithIdp; only a hearthAdmin account gets a session")
    func openIDSignIn() throws {
        let idp = HearthProcess()
        try idp.start()
        let issuer = "\(idp.baseURL)/dev/google"
        let server = try OpenIDProviderTests.server(config: [
            "oidcProviders": [["providerId": "oidc.staff", "issuer": issuer, "clientIds": [DevGoogle.clientID]]],
            "console": [
                "provider": "oidc.staff", "clientId": DevGoogle.clientID, "clientSecret": "console-secret",
                "authorizationUri": "\(issuer)/o/oauth2/v2/auth", "tokenUri": "\(issuer)/token",
            ],
        ])
        func signIn() throws -> HTTPResult {
            try ConsoleSessionTests.consoleSignIn(server: server, idp: idp, email: "staff@example.com")
        }
        let refused = try signIn()
        #expect(refused.status == 403 && refused.text.contains("Not an administrator"), "\(refused.status) \(refused.text)")
        #expect(refused.header("Set-Cookie")?.hasPrefix("hearth_console=") != true)
        let found = try server.runCommand(["users", "find", "--email", "staff@example.com"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any], "\(found.output)")
        let uid = try #require(record["localId"] as? String)
        #expect((record["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String == "oidc.staff")
        #expect(try server.runCommand(["users", "set-claims", uid, #"{"hearthAdmin": true}"#]).status == 0)

        let admitted = try signIn()
        #expect(admitted.status == 200, "\(admitted.text)")
        // (The raw client keeps the last Set-Cookie: the session's, after the flow cookie's deletion.)
        let session = String(try #require(admitted.header("Set-Cookie")).prefix { $0 != ";" })
        #expect(session.hasPrefix("hearth_console="))
        let page = try server.request("GET", "/console/users", headers: [("Cookie", session)])
        #expect(page.status == 200 && page.text.contains("staff@example.com"), "\(page.status)")
        #expect(!server.lines.joined().contains("console-secret"))
    }

    static func writeConfig(_ text: String) throws -> String {
        let file = HearthProcess.temporaryDirectory().appendingPathComponent("hearth.json")
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
