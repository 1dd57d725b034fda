import Foundation
import Testing

/// Bad input gets a clear error in Firebase's envelope — never a 500, a crash or a hang.
@Suite("Wire behaviour (e2e)", .blocking)
struct WireBehaviourTests {
    @Test("malformed JSON, wrong types, oversize bodies, unknown routes, missing API key")
    func badInput() throws {
        let server = HearthProcess()
        try server.start()
        let path = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=k"

        let malformed = try server.request("POST", path, headers: [("Content-Type", "application/json")], body: Data("{\"requestUri\":".utf8))
        #expect(malformed.status == 400)
        #expect((malformed.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")

        let wrongType = try server.postJSON(path, ["requestUri": ["not", "a", "string"]])
        #expect(wrongType.status == 400)

        let array = try server.request("POST", path, headers: [("Content-Type", "application/json")], body: Data("[]".utf8))
        #expect(array.status == 400)

        let huge = Data(repeating: UInt8(ascii: "a"), count: 1_048_577)
        let oversize = try server.request("POST", path, headers: [("Content-Type", "application/json")], body: huge)
        #expect(oversize.status == 413)
        #expect((oversize.json["error"] as? [String: Any])?["code"] as? Int == 413)

        // A Firebase path that is no route is 501 naming it (issue 20 §5); a path outside Firebase's prefixes is 404.
        let unrouted = try server.request("GET", "/identitytoolkit.googleapis.com/v1/accounts:nope?key=k")
        #expect(unrouted.status == 501)
        #expect((unrouted.json["error"] as? [String: Any])?["status"] as? String == "NOT_IMPLEMENTED")
        #expect(unrouted.errorMessage?.contains("accounts:nope") == true)
        let unknown = try server.request("GET", "/nothing/here")
        #expect(unknown.status == 404)
        #expect((unknown.json["error"] as? [String: Any])?["status"] as? String == "NOT_FOUND")

        let noKey = try server.postJSON("/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo", ["idToken": "x"])
        #expect(noKey.status == 403)
        #expect(noKey.errorMessage == "The request is missing a valid API key.")

        let badToken = try server.postJSON("/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo?key=k", ["idToken": "x.y.z"])
        #expect(badToken.status == 400)
        #expect(badToken.errorMessage == "INVALID_ID_TOKEN")

        let badRefresh = try server.postJSON("/securetoken.googleapis.com/v1/token?key=k", ["grantType": "refresh_token", "refreshToken": "nope"])
        #expect(badRefresh.errorMessage == "INVALID_REFRESH_TOKEN")

        let notImplemented = try server.postJSON("/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPhoneNumber?key=k", [:])
        #expect(notImplemented.status == 501)

        // Still healthy afterwards.
        #expect(try server.request("GET", "/").json["hearth"] != nil)
        #expect(!server.lines.contains { $0.contains("status=500") })
    }

    @Test("CORS: preflights are answered and origins reflected")
    func cors() throws {
        let server = HearthProcess()
        try server.start()
        let preflight = try server.request(
            "OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
            headers: [
                ("Origin", "http://localhost:5173"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type,x-client-version"),
            ])
        #expect(preflight.status == 204 || preflight.status == 200)
        #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(preflight.header("Access-Control-Allow-Headers")?.lowercased().contains("x-client-version") == true)
        let simple = try server.request("GET", "/.well-known/jwks.json", headers: [("Origin", "https://app.example")])
        #expect(simple.header("Access-Control-Allow-Origin") == "https://app.example")
    }

    @Test("--dev: a foreign web page cannot wipe accounts, read SMS codes or drive the dev IdP; loopback pages can")
    func foreignOrigins() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let session = try SignedIn(client.verifyAssertion(
            idToken: try DevGoogle(server: server).signIn(email: "kept@example.com").idToken, accessToken: nil))
        let evil = ("Origin", "https://evil.example")
        let wipePath = "/emulator/v1/projects/demo-hearth/accounts"
        let preflight = try server.request(
            "OPTIONS", wipePath,
            headers: [evil, ("Access-Control-Request-Method", "DELETE"), ("Access-Control-Request-Private-Network", "true")])
        #expect(preflight.status == 403)
        #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        #expect(preflight.header("Access-Control-Allow-Private-Network") == nil)
        let wipe = try server.request("DELETE", wipePath, headers: [evil])
        #expect(wipe.status == 403)
        #expect((wipe.json["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED", "\(wipe.text)")
        #expect(try client.getAccountInfo(idToken: session.idToken).status == 200, "nothing was wiped")
        let codes = try server.request("GET", "/emulator/v1/projects/demo-hearth/verificationCodes", headers: [evil])
        #expect(codes.status == 403)
        let chooser = try server.request(
            "POST", "/dev/google/o/oauth2/v2/auth",
            headers: [evil, ("Content-Type", "application/x-www-form-urlencoded")], body: Data("action=add".utf8))
        #expect(chooser.status == 403)

        // A page on the developer's own machine is trusted.
        let local = try server.request(
            "OPTIONS", wipePath,
            headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "DELETE"),
                      ("Access-Control-Request-Private-Network", "true")])
        #expect(local.status == 204)
        #expect(local.header("Access-Control-Allow-Private-Network") == "true")
        // The client endpoints stay open to any origin, as Firebase's, without a private-network grant.
        let lookup = try server.request(
            "OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
            headers: [evil, ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Private-Network", "true")])
        #expect(lookup.status == 204)
        #expect(lookup.header("Access-Control-Allow-Origin") == "https://evil.example")
        #expect(lookup.header("Access-Control-Allow-Private-Network") == nil)
    }

    @Test("request logs carry no query strings, tokens or bodies")
    func logsHaveNoSecrets() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let tokens = try DevGoogle(server: server).signIn(email: "log@example.com")
        let session = try SignedIn(client.verifyAssertion(idToken: tokens.idToken, accessToken: tokens.accessToken))
        _ = try client.refresh(session.refreshToken)
        let log = server.lines.joined(separator: "\n")
        #expect(log.contains("/securetoken.googleapis.com/v1/token"))
        for secret in [tokens.idToken, tokens.accessToken, session.idToken, session.refreshToken, client.apiKey] {
            #expect(!log.contains(secret))
        }
        let requestLines = server.lines.filter { $0.contains("status=") }
        #expect(!requestLines.isEmpty)
        #expect(!requestLines.contains { $0.contains("key=") || $0.contains("?") })
    }

    @Test("the emulator helper wipes accounts in --dev")
    func emulatorReset() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let session = try SignedIn(client.verifyAssertion(idToken: try DevGoogle(server: server).signIn(email: "wipe@example.com").idToken, accessToken: nil))
        let wipe = try server.request("DELETE", "/emulator/v1/projects/demo-hearth/accounts")
        #expect(wipe.status == 200)
        #expect(try client.getAccountInfo(idToken: session.idToken).errorMessage == "USER_NOT_FOUND")
    }
}
