import Foundation
import HearthAdmin
import HearthHTTP
import HearthProtocol
import HearthVerify
import Testing

/// Console sessions against a production server (no `--dev`) whose console signs in through an `oidc.*` provider
/// (a second, development Hearth's dev IdP): an app's session cookie is no console session and a console session is
/// no app cookie (issue 18 §5), and revocations count to the millisecond (issue 18 §7).
@Suite("Console sessions and session cookies (e2e)", .blocking)
struct ConsoleSessionTests {
    static let projectID = "providers-e2e"

    /// The production server, the IdP its console signs in with, and HearthAdmin with a service account's key.
    struct Setup {
        let idp: HearthProcess
        let server: HearthProcess
        let keyFile: ServiceAccountTests.KeyFile
        let auth: AdminAuth

        init() throws {
            idp = HearthProcess()
            try idp.start()
            let issuer = "\(idp.baseURL)/dev/google"
            server = try OpenIDProviderTests.server(config: [
                "oidcProviders": [["providerId": "oidc.staff", "issuer": issuer, "clientIds": [DevGoogle.clientID]]],
                "console": [
                    "provider": "oidc.staff", "clientId": DevGoogle.clientID, "clientSecret": "console-secret",
                    "authorizationUri": "\(issuer)/o/oauth2/v2/auth", "tokenUri": "\(issuer)/token",
                ],
            ])
            keyFile = try ServiceAccountTests.KeyFile(server, extra: ["--project-id", ConsoleSessionTests.projectID])
            auth = AdminAuth(
                serverURL: try #require(URL(string: server.baseURL)), credential: try .serviceAccount(json: Data(contentsOf: keyFile.path)),
                idTokenIssuer: "\(server.baseURL)/\(ConsoleSessionTests.projectID)")
        }

        func stop() {
            server.stop()
            idp.stop()
            keyFile.remove()
        }

        /// The console's whole sign-in for `email` at the IdP: the callback's answer.
        func consoleSignIn(_ email: String) throws -> HTTPResult {
            try ConsoleSessionTests.consoleSignIn(server: server, idp: idp, email: email)
        }

        /// An ID token for `uid` from a custom token the service account signed, as an app's backend makes one.
        func idToken(_ uid: String) async throws -> String {
            try CustomTokenClient(server: server, apiKey: OpenIDProviderTests.apiKey)
                .signIn(try await auth.createCustomToken(uid: uid)).idToken
        }
    }

    /// The console's whole sign-in through `idp` (the dev IdP of a development Hearth) for `email`, the person choosing
    /// their account headlessly (`login_hint`, `prompt=none`): the callback's answer (its last `Set-Cookie` is the
    /// session's).
    static func consoleSignIn(server: HearthProcess, idp: HearthProcess, email: String) throws -> HTTPResult {
        let start = try server.request("GET", "/console/sign-in")
        let location = try #require(start.header("Location"))
        #expect(location.hasPrefix("\(idp.baseURL)/dev/google/o/oauth2/v2/auth?"))
        let flow = String(try #require(start.header("Set-Cookie")).prefix { $0 != ";" })
        let hint = email.replacingOccurrences(of: "@", with: "%40")
        let approved = try idp.request("GET", String(location.dropFirst(idp.baseURL.count)) + "&login_hint=\(hint)&prompt=none")
        let back = try #require(approved.header("Location"), "\(approved.status) \(approved.text)")
        #expect(back.hasPrefix("\(server.baseURL)/console/callback?"))
        return try server.request("GET", String(back.dropFirst(server.baseURL.count)), headers: [("Cookie", flow)])
    }

    /// The `hearth_console` cookie a successful console sign-in set.
    static func session(of callback: HTTPResult) throws -> String {
        let cookie = String(try #require(callback.header("Set-Cookie"), "\(callback.status) \(callback.text)").prefix { $0 != ";" })
        #expect(cookie.hasPrefix("hearth_console="), "\(callback.status) \(callback.text)")
        return String(cookie.dropFirst("hearth_console=".count))
    }

    /// Makes `email` (signed in once through the console's provider) an administrator; its uid.
    static func makeAdministrator(_ email: String, _ setup: Setup) async throws -> String {
        let uid = try await setup.auth.getUser(email: email).uid
        try await setup.auth.setCustomUserClaims(uid: uid, ["hearthAdmin": true])
        return uid
    }

    @Test("an administrator's app session cookie (createSessionCookie, from a custom-token sign-in) opens no console page and makes no console change; a console session is neither an app's cookie nor an ID token; a real console sign-in works")
    func appCookieIsNoConsoleSession() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let server = setup.server
        var admin = CreateUserRequest()
        admin.uid = "app-admin"
        admin.email = "app-admin@example.com"
        _ = try await setup.auth.createUser(admin)
        try await setup.auth.setCustomUserClaims(uid: "app-admin", ["hearthAdmin": true])
        let appCookie = try await setup.auth.createSessionCookie(idToken: try await setup.idToken("app-admin"), expiresIn: 1_209_600)
        #expect(try await setup.auth.verifySessionCookie(appCookie, checkRevoked: true).uid == "app-admin")

        // Every console route, as the production router lists it, answers the app's cookie as it answers no cookie.
        let consoleRoutes = try CrossOriginRouteTests.productionRoutes().filter { $0.pattern.hasPrefix("/console") }
        #expect(consoleRoutes.count > 15)
        for route in consoleRoutes {
            let path = route.pattern.replacingOccurrences(of: "{uid}", with: "app-admin").replacingOccurrences(of: "{factor}", with: "x")
            let method = route.method.rawValue
            let body = method == "POST" ? Data("csrf=x&claims=%7B%7D".utf8) : Data()
            func answer(cookie: String?) throws -> HTTPResult {
                var headers = [("Origin", server.baseURL), ("Content-Type", "application/x-www-form-urlencoded")]
                if let cookie { headers.append(("Cookie", "hearth_console=\(cookie)")) }
                return try server.request(method, path, headers: headers, body: body)
            }
            let withAppCookie = try answer(cookie: appCookie)
            let withNone = try answer(cookie: nil)
            #expect(withAppCookie.status == withNone.status, "\(method) \(path): \(withAppCookie.status) \(withAppCookie.text.prefix(200))")
            #expect(!withAppCookie.text.contains("app-admin@example.com"), "\(method) \(path)")
            if withNone.status == 401 {
                #expect(withAppCookie.text.contains("Your console session has ended"), "\(method) \(path)")
            }
            if method == "POST", withNone.status == 403 {
                #expect(withAppCookie.text.contains("Sign in to the console first; nothing was changed."), "\(method) \(path)")
            }
        }
        let kept = try await setup.auth.getUser(uid: "app-admin")
        #expect(kept.customClaims == ["hearthAdmin": true] && !kept.disabled, "no console change was made")

        // A real console sign-in still works, and its session is not an app's cookie or an ID token.
        #expect(try setup.consoleSignIn("staff@example.com").status == 403, "not an administrator yet")
        _ = try await Self.makeAdministrator("staff@example.com", setup)
        let console = try Self.session(of: try setup.consoleSignIn("staff@example.com"))
        let page = try server.request("GET", "/console/users", headers: [("Cookie", "hearth_console=\(console)")])
        #expect(page.status == 200 && page.text.contains("staff@example.com"), "\(page.status)")
        #expect(JWTParts.claims(console)["iss"] as? String == "hearth:console-session")
        #expect(JWTParts.claims(console)["aud"] as? String == "hearth:console:\(Self.projectID)")
        #expect(await refusal { try await setup.auth.verifySessionCookie(console) }?.code == .invalidSessionCookie)
        #expect(await refusal { try await setup.auth.verifyIDToken(console) }?.code == .invalidIDToken)
        #expect(await refusal { try await setup.auth.createSessionCookie(idToken: console, expiresIn: 600) }?.code == .invalidIDToken)
        let lookup = try FirebaseIOSClient(server: server, apiKey: OpenIDProviderTests.apiKey).getAccountInfo(idToken: console)
        #expect(lookup.status == 400 && lookup.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(lookup.text)")
    }

    /// Runs `attempt` until it reports that the two times it compares fell in the same second (at most 20 times; a
    /// second boundary between two steps a few milliseconds apart is rare); every attempt asserts its refusal itself.
    static func untilSameSecond(_ attempt: () async throws -> Bool) async throws {
        for _ in 0..<20 {
            if try await attempt() { return }
        }
        Issue.record("no attempt fell within one second")
    }

    @Test("a revocation in the same second refuses, to the millisecond: an ID token of that second made into a session cookie after it, a session cookie made before it (HearthAdmin's check), and a console session signed before it")
    func sameSecondRevocation() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        var user = CreateUserRequest()
        user.uid = "revoked-user"
        _ = try await setup.auth.createUser(user)
        func validSinceSecond(_ uid: String) async throws -> Int64 {
            Int64(try #require(try await setup.auth.getUser(uid: uid).tokensValidAfterTime).timeIntervalSince1970)
        }
        func issuedAt(_ token: String) -> Int64 { (JWTParts.claims(token)["iat"] as? NSNumber)?.int64Value ?? -1 }

        // The exchange cannot launder an ID token minted before the revocation in its second.
        try await Self.untilSameSecond {
            let idToken = try await setup.idToken("revoked-user")
            try await setup.auth.revokeRefreshTokens(uid: "revoked-user")
            let refused = await refusal { try await setup.auth.createSessionCookie(idToken: idToken, expiresIn: 1_209_600) }
            #expect(refused?.code == .idTokenExpired, "\(String(describing: refused))")
            return try await validSinceSecond("revoked-user") == issuedAt(idToken)
        }
        // A cookie made before the revocation, in its second, is revoked for HearthAdmin's check.
        try await Self.untilSameSecond {
            let cookie = try await setup.auth.createSessionCookie(idToken: try await setup.idToken("revoked-user"), expiresIn: 1_209_600)
            try await setup.auth.revokeRefreshTokens(uid: "revoked-user")
            let refused = await refusal { try await setup.auth.verifySessionCookie(cookie, checkRevoked: true) }
            #expect(refused?.code == .sessionCookieRevoked, "\(String(describing: refused))")
            return try await validSinceSecond("revoked-user") == issuedAt(cookie)
        }
        // A console session signed before the revocation, in its second, is signed out.
        _ = try setup.consoleSignIn("staff@example.com")
        let staff = try await Self.makeAdministrator("staff@example.com", setup)
        try await Self.untilSameSecond {
            let console = try Self.session(of: try setup.consoleSignIn("staff@example.com"))
            try await setup.auth.revokeRefreshTokens(uid: staff)
            let page = try setup.server.request("GET", "/console/users", headers: [("Cookie", "hearth_console=\(console)")])
            #expect(page.status == 401 && page.text.contains("Your console session has ended"), "\(page.status)")
            return try await validSinceSecond(staff) == issuedAt(console)
        }
        // After a revocation, a new sign-in in the same second still makes a cookie and a console session.
        try await setup.auth.revokeRefreshTokens(uid: "revoked-user")
        let fresh = try await setup.auth.createSessionCookie(idToken: try await setup.idToken("revoked-user"), expiresIn: 600)
        #expect(try await setup.auth.verifySessionCookie(fresh, checkRevoked: true).uid == "revoked-user")
        let console = try Self.session(of: try setup.consoleSignIn("staff@example.com"))
        #expect(try setup.server.request("GET", "/console/users", headers: [("Cookie", "hearth_console=\(console)")]).status == 200)
    }
}
