import Foundation
import Testing

/// The documents' flow against the real binary: Google sign-in through the dev IdP, then the exact
/// requests the Firebase iOS SDK sends.
@Suite("Sign-in flow (e2e)", .blocking)
struct SignInFlowTests {
    @Test("new user, returning user, lookup, refresh (JSON and form), update, delete")
    func fullFlow() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let google = DevGoogle(server: server)

        let tokens = try google.signIn(email: "ada@example.com")
        let first = try client.verifyAssertion(idToken: tokens.idToken, accessToken: tokens.accessToken)
        #expect(first.status == 200)
        #expect(first.json["isNewUser"] as? Bool == true)
        #expect(first.json["kind"] as? String == "identitytoolkit#VerifyAssertionResponse")
        #expect(first.json["expiresIn"] as? String == "3600")
        #expect(first.json["email"] as? String == "ada@example.com")
        #expect(first.json["providerId"] as? String == "google.com")
        #expect((first.json["federatedId"] as? String)?.hasPrefix("https://accounts.google.com/") == true)
        #expect(first.json["oauthAccessToken"] as? String == tokens.accessToken)
        let session = try SignedIn(first)

        let header = JWTParts.header(session.idToken)
        #expect(header["alg"] as? String == "RS256")
        #expect(header["kid"] is String)
        let claims = JWTParts.claims(session.idToken)
        #expect(claims["iss"] as? String == "https://securetoken.google.com/demo-hearth", "--dev's default issuer")
        #expect(claims["aud"] as? String == "demo-hearth")
        #expect(claims["user_id"] as? String == session.localID)
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "google.com")

        let again = try client.verifyAssertion(idToken: try google.signIn(email: "ada@example.com").idToken, accessToken: nil)
        #expect(again.json["isNewUser"] as? Bool == false)
        #expect(again.json["localId"] as? String == session.localID)

        let lookup = try client.getAccountInfo(idToken: session.idToken)
        #expect(lookup.status == 200)
        let user = try #require((lookup.json["users"] as? [[String: Any]])?.first)
        #expect(user["localId"] as? String == session.localID)
        #expect(user["email"] as? String == "ada@example.com")
        #expect(user["displayName"] as? String == "Ada")
        let provider = try #require((user["providerUserInfo"] as? [[String: Any]])?.first)
        #expect(provider["federatedId"] as? String == provider["rawId"] as? String)
        #expect(user["createdAt"] is String && user["lastLoginAt"] is String && user["validSince"] is String)

        let refreshed = try client.refresh(session.refreshToken)
        #expect(refreshed.status == 200)
        #expect(refreshed.json["access_token"] as? String == refreshed.json["id_token"] as? String)
        #expect(refreshed.json["expires_in"] as? String == "3600")
        #expect(refreshed.json["user_id"] as? String == session.localID)
        let refreshedToken = try #require(refreshed.json["id_token"] as? String)
        #expect(JWTParts.claims(refreshedToken)["auth_time"] as? Int == claims["auth_time"] as? Int)
        let viaForm = try client.refreshWithForm(session.refreshToken)
        #expect(viaForm.status == 200)

        let update = try client.setAccountInfo([
            "idToken": session.idToken, "displayName": "Ada Lovelace", "photoUrl": "https://example.com/ada.png",
            "returnSecureToken": true,
        ])
        #expect(update.status == 200)
        #expect(update.json["displayName"] as? String == "Ada Lovelace")
        #expect(update.json["localId"] as? String == session.localID)
        let cleared = try client.setAccountInfo(["idToken": session.idToken, "deleteAttribute": ["PHOTO_URL"]])
        #expect(cleared.json["photoUrl"] == nil)

        let deleted = try client.deleteAccount(idToken: session.idToken, localID: session.localID)
        #expect(deleted.status == 200)
        #expect(deleted.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
        let afterDelete = try client.refresh(session.refreshToken)
        #expect(afterDelete.status == 400)
        #expect(afterDelete.errorMessage == "USER_NOT_FOUND")
        #expect(try client.getAccountInfo(idToken: session.idToken).errorMessage == "USER_NOT_FOUND")
    }

    @Test("an access token alone signs in (tokeninfo + userinfo of the issuer); an unknown one is refused")
    func accessTokenOnly() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let tokens = try DevGoogle(server: server).signIn(email: "grace.hopper@example.com")
        let response = try client.verifyAssertion(idToken: nil, accessToken: tokens.accessToken)
        #expect(response.status == 200)
        #expect(response.json["email"] as? String == "grace.hopper@example.com")
        #expect(response.json["displayName"] as? String == "Grace Hopper")
        let refused = try client.verifyAssertion(idToken: nil, accessToken: "devat.not-a-real-token")
        #expect(refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    }

    @Test("the v1 paths answer like the legacy ones")
    func v1Paths() throws {
        let server = HearthProcess()
        try server.start()
        let tokens = try DevGoogle(server: server).signIn(email: "v1@example.com")
        let postBody = "providerId=google.com&id_token=\(tokens.idToken)"
        let response = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp",
            ["requestUri": "http://localhost", "postBody": postBody, "returnSecureToken": true],
            headers: [("x-goog-api-key", "web-key")])
        let session = try SignedIn(response)
        let lookup = try server.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", ["idToken": session.idToken])
        #expect(lookup.status == 200)
    }

    @Test("linking: unlink google.com, then link another Google account; a linked identity cannot be linked twice")
    func linking() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let google = DevGoogle(server: server)
        let first = try SignedIn(client.verifyAssertion(idToken: try google.signIn(email: "one@example.com").idToken, accessToken: nil))
        let other = try google.signIn(email: "two@example.com")

        let already = try client.verifyAssertion(idToken: other.idToken, accessToken: nil, linking: first.idToken)
        #expect(already.errorMessage?.hasPrefix("PROVIDER_ALREADY_LINKED") == true)

        let unlinked = try client.setAccountInfo(["idToken": first.idToken, "deleteProvider": ["google.com"]])
        #expect(unlinked.status == 200)
        let linked = try client.verifyAssertion(idToken: other.idToken, accessToken: nil, linking: first.idToken)
        #expect(linked.status == 200)
        #expect(linked.json["localId"] as? String == first.localID)
        #expect(linked.json["isNewUser"] == nil)

        let third = try SignedIn(client.verifyAssertion(idToken: try google.signIn(email: "three@example.com").idToken, accessToken: nil))
        let inUse = try client.verifyAssertion(idToken: try google.signIn(email: "two@example.com").idToken, accessToken: nil, linking: third.idToken)
        #expect(inUse.status == 200)
        #expect(inUse.json["errorMessage"] as? String == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(inUse.json["idToken"] == nil)
    }

    @Test("restart: accounts, sessions and keys survive")
    func restart() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let session = try SignedIn(client.verifyAssertion(idToken: try DevGoogle(server: server).signIn(email: "keep@example.com").idToken, accessToken: nil))
        let jwksBefore = try server.request("GET", "/.well-known/jwks.json").json
        try server.restart()
        #expect(server.waitForLine { $0 == "event=stopped" })
        #expect(try server.request("GET", "/.well-known/jwks.json").json["keys"] as? NSArray == jwksBefore["keys"] as? NSArray)
        #expect(try client.getAccountInfo(idToken: session.idToken).status == 200)
        #expect(try client.refresh(session.refreshToken).status == 200)
    }
}
