import Foundation
import Testing

/// Revocation, disabling, key rotation and the key documents, driven through the CLI and the wire.
@Suite("Sessions and keys (e2e)", .blocking)
struct SessionControlTests {
    @Test("revoked users must sign in again: refresh is TOKEN_EXPIRED; disabled users get USER_DISABLED")
    func revokeAndDisable() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let google = DevGoogle(server: server)
        let session = try SignedIn(client.verifyAssertion(idToken: try google.signIn(email: "rev@example.com").idToken, accessToken: nil))

        let revoke = try server.runCommand(["users", "revoke", session.localID])
        #expect(revoke.status == 0, "\(revoke.output)")
        let refresh = try client.refresh(session.refreshToken)
        #expect(refresh.status == 400)
        #expect(refresh.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)

        let fresh = try SignedIn(client.verifyAssertion(idToken: try google.signIn(email: "rev@example.com").idToken, accessToken: nil))
        let refreshed = try client.refresh(fresh.refreshToken)
        #expect(refreshed.status == 200)
        let current = try #require(refreshed.json["refresh_token"] as? String)  // rotated

        #expect(try server.runCommand(["users", "disable", session.localID]).status == 0)
        #expect(try client.refresh(current).errorMessage == "USER_DISABLED")
        #expect(try client.getAccountInfo(idToken: fresh.idToken).errorMessage == "USER_DISABLED")
        let blocked = try client.verifyAssertion(idToken: try google.signIn(email: "rev@example.com").idToken, accessToken: nil)
        #expect(blocked.errorMessage == "USER_DISABLED")
        #expect(try server.runCommand(["users", "enable", session.localID]).status == 0)
        #expect(try client.refresh(current).status == 200)
        #expect(try server.runCommand(["users", "show", "no-such-user"]).status == 1)
    }

    @Test("key rotation: old tokens still verify, new tokens use the new kid, both keys are published")
    func rotation() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let session = try SignedIn(client.verifyAssertion(idToken: try DevGoogle(server: server).signIn(email: "rot@example.com").idToken, accessToken: nil))
        let oldKid = try #require(JWTParts.header(session.idToken)["kid"] as? String)

        let rotate = try server.runCommand(["keys", "rotate"])
        #expect(rotate.status == 0, "\(rotate.output)")
        let list = try server.runCommand(["keys", "list"])
        #expect(list.output.contains(oldKid))
        #expect(list.output.contains("current") && list.output.contains("published"))

        var newKid = oldKid
        var refreshToken = session.refreshToken
        for _ in 0..<40 where newKid == oldKid {
            let refreshed = try client.refresh(refreshToken)
            refreshToken = refreshed.json["refresh_token"] as? String ?? refreshToken
            newKid = (JWTParts.header(refreshed.json["id_token"] as? String ?? "")["kid"] as? String) ?? oldKid
            if newKid == oldKid { Thread.sleep(forTimeInterval: 0.25) }
        }
        #expect(newKid != oldKid, "the server should sign with the rotated key within seconds")
        #expect(try client.getAccountInfo(idToken: session.idToken).status == 200)
        let kids = (try server.request("GET", "/.well-known/jwks.json").json["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String }
        #expect(Set(kids) == [oldKid, newKid])
    }

    @Test("key documents: JWKS at two paths, the X.509 map and discovery, all cacheable")
    func keyDocuments() throws {
        let server = HearthProcess()
        try server.start()
        let jwks = try server.request("GET", "/.well-known/jwks.json")
        #expect(jwks.status == 200)
        #expect(jwks.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
        let keys = try #require(jwks.json["keys"] as? [[String: Any]])
        #expect(keys.first?["alg"] as? String == "RS256")
        #expect(keys.first?["kty"] as? String == "RSA")
        let same = try server.request("GET", "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
        #expect(same.json["keys"] as? NSArray == jwks.json["keys"] as? NSArray)
        let x509 = try server.request("GET", "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
        #expect(x509.header("Cache-Control")?.contains("max-age") == true)
        let kid = try #require(keys.first?["kid"] as? String)
        #expect((x509.json[kid] as? String)?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        let discovery = try server.request("GET", "/demo-hearth/.well-known/openid-configuration")
        #expect(discovery.json["issuer"] as? String == "https://securetoken.google.com/demo-hearth", "the issuer tokens name")
        #expect(discovery.json["jwks_uri"] as? String == "\(server.baseURL)/.well-known/jwks.json")
    }

    @Test("the issuer: securetoken.google.com/<project> with --dev (or --firebase-issuer), <public-url>/<project> with --hearth-issuer or HEARTH_FIREBASE_ISSUER=0",
          arguments: [
              (["--dev"], [:], "https://securetoken.google.com/demo-hearth"),
              (["--dev", "--firebase-issuer"], [:], "https://securetoken.google.com/demo-hearth"),
              (["--dev", "--hearth-issuer"], [:], "<public-url>/demo-hearth"),
              (["--dev"], ["HEARTH_FIREBASE_ISSUER": "0"], "<public-url>/demo-hearth"),
          ] as [([String], [String: String], String)])
    func issuer(arguments: [String], environment: [String: String], expected: String) throws {
        let server = HearthProcess(arguments: arguments, environment: environment)
        try server.start()
        let session = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(
            idToken: try DevGoogle(server: server).signIn(email: "fi@example.com").idToken, accessToken: nil))
        let issuer = expected.replacingOccurrences(of: "<public-url>", with: server.baseURL)
        #expect(JWTParts.claims(session.idToken)["iss"] as? String == issuer)
        #expect(server.lines.contains { $0.contains("(iss \(issuer))") }, "the banner names the issuer")
    }
}
