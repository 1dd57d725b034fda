import Foundation
import HearthCrypto
import Testing

/// Apple's tokens through the built `hearth serve --dev` and its dev Apple, with the requests real clients send:
/// the iOS SDK's `revokeToken` (an authorization code, exchanged by Hearth and revoked), a web-style sign-in whose
/// `code` Hearth exchanges and keeps, and the revocation of that kept token when the account is deleted by the
/// user or by an administrator. `/dev/apple/revocations` shows what the dev Apple revoked.
@Suite("Apple token lifecycle (e2e)", .blocking)
struct AppleTokenLifecycleTests {
    /// An Apple sign-in at the dev Apple: the form_post fields, the raw nonce the app kept, and Apple's `sub`.
    struct AppleAnswer {
        var fields: [String: String]
        var rawNonce: String
        var subject: String
        var code: String { fields["code"] ?? "" }
        var idToken: String { fields["id_token"] ?? "" }
    }

    static func appleSignIn(_ server: HearthProcess, email: String) throws -> AppleAnswer {
        let rawNonce = "raw-" + UUID().uuidString
        let hashed = SHA256.hash(rawNonce).map { String(format: "%02x", $0) }.joined()
        let fields = try DevApple(server: server).signIn(email: email, nonce: hashed)
        let idToken = try #require(fields["id_token"])
        let subject = try #require(JWTParts.claims(idToken)["sub"] as? String)
        #expect(fields["code"]?.isEmpty == false)
        return AppleAnswer(fields: fields, rawNonce: rawNonce, subject: subject)
    }

    /// What `GET /dev/apple/revocations` lists.
    static func revocations(_ server: HearthProcess) throws -> [[String: Any]] {
        let answer = try server.request("GET", "/dev/apple/revocations")
        guard answer.status == 200 else { throw RawHTTP.Failure(description: "revocations: \(answer.status) \(answer.text)") }
        return answer.json["revocations"] as? [[String: Any]] ?? []
    }

    /// The revocations of `subject`'s tokens, once there is one: the maintenance task revokes them just after the
    /// request that queued them answered. Waits at most 30 seconds (a bound against hangs, not a timing check).
    static func revocations(of subject: String, _ server: HearthProcess) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let found = try revocations(server).filter { $0["sub"] as? String == subject }
            if !found.isEmpty || Date() > deadline { return found }
            usleep(50_000)
        }
    }

    /// `signInWithIdp` as a web app sends it after Apple's form_post reached `requestUri`: the postBody carries
    /// Apple's ID token, the raw nonce and the authorization code.
    static func webSignIn(_ server: HearthProcess, _ apple: AppleAnswer) throws -> SignedIn {
        try SignedIn(webSignInAnswer(server, apple))
    }

    /// The answer to ``webSignIn(_:_:)``'s request, whatever it is.
    static func webSignInAnswer(_ server: HearthProcess, _ apple: AppleAnswer) throws -> HTTPResult {
        var postBody = URLComponents()
        postBody.queryItems = [
            URLQueryItem(name: "providerId", value: "apple.com"), URLQueryItem(name: "id_token", value: apple.idToken),
            URLQueryItem(name: "nonce", value: apple.rawNonce), URLQueryItem(name: "code", value: apple.code),
        ]
        return try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=AIzaSyTest-web-key",
            [
                "requestUri": DevApple.redirectURI, "postBody": postBody.percentEncodedQuery ?? "",
                "returnSecureToken": true, "returnIdpCredential": true,
            ],
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web")])
    }

    @Test("iOS revokeToken with a fresh authorization code: {} and the dev Apple revokes that person's token for the client")
    func iosRevokeToken() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let first = try Self.appleSignIn(server, email: "ios.revoke@example.com")
        let session = try SignedIn(client.verifyAppleAssertion(idToken: first.idToken, rawNonce: first.rawNonce, firstName: "Ios"))
        #expect(try Self.revocations(server).isEmpty, "a native sign-in's code is not exchanged")

        // Before deleting the account, the app signs in with Apple again and revokes with the fresh code.
        let again = try Self.appleSignIn(server, email: "ios.revoke@example.com")
        #expect(again.subject == first.subject)
        let revoked = try client.revokeToken(providerID: "apple.com", token: again.code, idToken: session.idToken)
        #expect(revoked.status == 200, "\(revoked.text)")
        #expect(revoked.json.isEmpty && revoked.text.hasPrefix("{"), "\(revoked.text)")
        let listed = try Self.revocations(of: first.subject, server)
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["clientId"] as? String == DevApple.clientID)
        #expect(listed.first?["tokenType"] as? String == "refresh_token")
        #expect(!server.lines.joined().contains(again.code), "the code is never logged")
    }

    @Test("revokeToken refuses a used or forged code, another person's code, a guest, another provider, a missing or invalid ID token, an unknown type, no token; never a 500, nothing revoked")
    func revokeTokenRefusals() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let apple = try Self.appleSignIn(server, email: "ios.refused@example.com")
        let session = try SignedIn(client.verifyAppleAssertion(idToken: apple.idToken, rawNonce: apple.rawNonce))
        // A code Hearth already exchanged is used up.
        let used = try Self.appleSignIn(server, email: "ios.refused@example.com").code
        #expect(try client.revokeToken(providerID: "apple.com", token: used, idToken: session.idToken).status == 200)
        let before = try Self.revocations(of: apple.subject, server).count
        #expect(before == 1)
        // (The revocation ended the person's authorization and every code with it: this one comes after.)
        let fresh = try Self.appleSignIn(server, email: "ios.refused@example.com")

        let cases: [(String, String, String?, String)] = [
            ("used code", "apple.com", session.idToken, "INVALID_IDP_RESPONSE"),
            ("forged code", "apple.com", session.idToken, "INVALID_IDP_RESPONSE"),
            ("other provider", "google.com", session.idToken, "INVALID_PROVIDER_ID"),
            ("no ID token", "apple.com", nil, "MISSING_ID_TOKEN"),
            ("invalid ID token", "apple.com", session.idToken + "x", "INVALID_ID_TOKEN"),
        ]
        for (name, provider, idToken, expected) in cases {
            let token = name == "used code" ? used : name == "forged code" ? "c." + UUID().uuidString : fresh.code
            let answer = try client.revokeToken(providerID: provider, token: token, idToken: idToken)
            #expect(answer.status == 400, "\(name): \(answer.status) \(answer.text)")
            #expect(answer.errorMessage?.hasPrefix(expected) == true, "\(name): \(answer.text)")
            #expect((answer.json["error"] as? [String: Any])?["code"] as? Int == 400, "\(name)")
        }
        // Another person's code: Apple's answer names another Apple ID, so nothing of theirs is revoked.
        let stranger = try Self.appleSignIn(server, email: "ios.stranger@example.com")
        let theirs = try client.revokeToken(providerID: "apple.com", token: stranger.code, idToken: session.idToken)
        #expect(theirs.status == 400 && theirs.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(theirs.text)")
        // A guest has no Apple ID to revoke for: refused before the code is spent.
        let guest = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(client.apiKey)", ["returnSecureToken": true])
        let guestToken = try #require(guest.json["idToken"] as? String)
        let byGuest = try client.revokeToken(providerID: "apple.com", token: fresh.code, idToken: guestToken)
        #expect(byGuest.status == 400 && byGuest.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(byGuest.text)")
        // Bodies the SDK never sends: an unknown token type, no token.
        for (name, body) in [
            ("unknown tokenType", ["providerId": "apple.com", "tokenType": "9", "token": fresh.code, "idToken": session.idToken]),
            ("no token", ["providerId": "apple.com", "tokenType": "3", "idToken": session.idToken]),
        ] {
            let answer = try server.postJSON("/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=\(client.apiKey)", body)
            #expect(answer.status == 400, "\(name): \(answer.status) \(answer.text)")
            #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT", "\(name): \(answer.text)")
        }
        #expect(try Self.revocations(server).filter { $0["sub"] as? String == apple.subject }.count == before)
        #expect(try Self.revocations(server).filter { $0["sub"] as? String == stranger.subject }.isEmpty)
        // The fresh code was never spent by the refused requests: it still revokes.
        #expect(try client.revokeToken(providerID: "apple.com", token: fresh.code, idToken: session.idToken).status == 200)
    }

    @Test("a web sign-in carrying the code keeps Apple's refresh token; accounts:delete by the user revokes it at the dev Apple")
    func userDeletionRevokesKeptToken() throws {
        let server = HearthProcess()
        try server.start()
        let apple = try Self.appleSignIn(server, email: "web.delete@example.com")
        let session = try Self.webSignIn(server, apple)
        #expect(try Self.revocations(server).isEmpty)

        let deleted = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:delete?key=AIzaSyTest-web-key", ["idToken": session.idToken])
        #expect(deleted.status == 200, "\(deleted.text)")
        let listed = try Self.revocations(of: apple.subject, server)
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["clientId"] as? String == DevApple.clientID)
        #expect(listed.first?["tokenType"] as? String == "refresh_token")
        // The person's authorization went with it: the next sign-in is a first one again (the name is sent).
        #expect(try Self.appleSignIn(server, email: "web.delete@example.com").fields["user"] != nil)
    }

    @Test("the admin API's accounts:delete and accounts:batchDelete (firebase-admin's delete_user, delete_users) revoke the kept Apple refresh tokens too")
    func adminDeletionRevokesKeptToken() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let single = try Self.appleSignIn(server, email: "admin.delete@example.com")
        let singleSession = try Self.webSignIn(server, single)
        let deleted = try admin.post("/accounts:delete", #"{"localId": "\#(singleSession.localID)"}"#)
        #expect(deleted.status == 200, "\(deleted.text)")
        let listed = try Self.revocations(of: single.subject, server)
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["tokenType"] as? String == "refresh_token")

        let batch = try Self.appleSignIn(server, email: "admin.batch@example.com")
        let batchSession = try Self.webSignIn(server, batch)
        let batchDeleted = try admin.post("/accounts:batchDelete", #"{"localIds": ["\#(batchSession.localID)"], "force": true}"#)
        #expect(batchDeleted.status == 200, "\(batchDeleted.text)")
        #expect(try Self.revocations(of: batch.subject, server).count == 1)
    }

    @Test("with one HTTP worker thread, the code exchanges of a sign-in and of revokeToken reach the dev Apple (not over HTTP to the busy thread)")
    func singleWorkerThread() throws {
        let server = HearthProcess(arguments: ["--dev", "--threads", "1"])
        try server.start()
        let apple = try Self.appleSignIn(server, email: "one.thread@example.com")
        let session = try Self.webSignIn(server, apple)
        let again = try Self.appleSignIn(server, email: "one.thread@example.com")
        let revoked = try FirebaseIOSClient(server: server).revokeToken(providerID: "apple.com", token: again.code, idToken: session.idToken)
        #expect(revoked.status == 200, "\(revoked.text)")
        // The code's token and the one kept at sign-in: both revoked (the second finds the authorization gone).
        #expect(try Self.revocations(of: apple.subject, server).count >= 1)
    }

    @Test("a web sign-in with a code the dev Apple refuses is INVALID_IDP_RESPONSE and makes no account")
    func refusedCodeAtSignIn() throws {
        let server = HearthProcess()
        try server.start()
        var apple = try Self.appleSignIn(server, email: "web.refused@example.com")
        apple.fields["code"] = "c.forged"
        let answer = try Self.webSignInAnswer(server, apple)
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(answer.text)")
        #expect(try FirebaseAdminClient(server: server).lookUp(#"{"email": ["web.refused@example.com"]}"#) == nil)
    }
}
