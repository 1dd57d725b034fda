import Foundation
import Testing

/// The admin endpoints driven as firebase-admin-python drives them in emulator mode, against the built
/// `hearth serve --dev`.
@Suite("Admin API (e2e)", .blocking)
struct AdminAPITests {
    /// A user signed in through the dev IdP, with the Google subject the account is linked to.
    private func signIn(_ server: HearthProcess, email: String) throws -> (session: SignedIn, subject: String) {
        let google = try DevGoogle(server: server).signIn(email: email)
        let session = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(idToken: google.idToken, accessToken: nil))
        let subject = try #require(JWTParts.claims(google.idToken)["sub"] as? String)
        return (session, subject)
    }

    @Test("create_user, then get_user by uid, email and phone number, with Firebase's field formats")
    func createAndGet() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let created = try admin.post(
            "/accounts",
            #"{"localId": "admin-uid-1", "displayName": "Ada Admin", "email": "Ada@Example.com", "phoneNumber": "+15555550100", "photoUrl": "https://example.com/ada.png", "emailVerified": true, "disabled": false}"#)
        #expect(created.status == 200, "\(created.text)")
        #expect(created.json["localId"] as? String == "admin-uid-1")
        #expect(created.json["kind"] as? String == "identitytoolkit#SignupNewUserResponse")

        let byUID = try #require(try admin.lookUp(#"{"localId": ["admin-uid-1"]}"#))
        #expect(byUID["email"] as? String == "ada@example.com")
        #expect(byUID["emailVerified"] as? Bool == true)
        #expect(byUID["displayName"] as? String == "Ada Admin")
        #expect(byUID["photoUrl"] as? String == "https://example.com/ada.png")
        #expect(byUID["phoneNumber"] as? String == "+15555550100")
        #expect(byUID["disabled"] == nil, "false is left out")
        let createdAt = try #require(byUID["createdAt"] as? String)
        let validSince = try #require(byUID["validSince"] as? String)
        #expect(Int64(createdAt).map { $0 > 1_000_000_000_000 } == true, "milliseconds as a string")
        #expect(Int64(validSince) == Int64(createdAt).map { $0 / 1000 }, "seconds as a string")
        #expect(byUID["lastLoginAt"] == nil && byUID["passwordHash"] == nil && byUID["tenantId"] == nil)
        let providers = try #require(byUID["providerUserInfo"] as? [[String: Any]])
        #expect(providers.map { $0["providerId"] as? String } == ["phone"])

        #expect(try admin.lookUp(#"{"email": ["ADA@example.com"]}"#)?["localId"] as? String == "admin-uid-1")
        #expect(try admin.lookUp(#"{"phoneNumber": ["+15555550100"]}"#)?["localId"] as? String == "admin-uid-1")
        #expect(try admin.lookUp(#"{"localId": ["nobody"]}"#) == nil)

        let duplicate = try admin.post("/accounts", #"{"localId": "admin-uid-1"}"#)
        #expect(duplicate.errorMessage == "DUPLICATE_LOCAL_ID")
        let taken = try admin.post("/accounts", #"{"email": "ada@example.com"}"#)
        #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS") == true)
        let weak = try admin.post("/accounts", #"{"email": "new@example.com", "password": "short"}"#)
        #expect(weak.errorMessage?.hasPrefix("WEAK_PASSWORD") == true)
    }

    @Test("get_users: uids, emails, phone numbers and federated ids combined; a signed-in user's record")
    func getUsersCombined() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let (session, subject) = try signIn(server, email: "fed@example.com")
        _ = try admin.post("/accounts", #"{"localId": "by-phone", "phoneNumber": "+15555550177"}"#)
        _ = try admin.post("/accounts", #"{"localId": "by-email", "email": "mail@example.com"}"#)
        let result = try admin.post(
            "/accounts:lookup",
            #"{"localId": ["by-email", "missing"], "email": ["mail@example.com", "none@example.com"], "phoneNumber": ["+15555550177"], "federatedUserId": [{"providerId": "google.com", "rawId": "\#(subject)"}]}"#)
        #expect(result.status == 200, "\(result.text)")
        let users = try #require(result.json["users"] as? [[String: Any]])
        #expect(users.compactMap { $0["localId"] as? String } == ["by-email", "by-phone", session.localID])
        let federated = users[2]
        #expect(federated["lastLoginAt"] as? String != nil)
        #expect((federated["lastRefreshAt"] as? String).map { $0.hasSuffix("Z") } ?? true)
        let google = (federated["providerUserInfo"] as? [[String: Any]])?.first
        #expect(google?["providerId"] as? String == "google.com" && google?["rawId"] as? String == subject)
        let none = try admin.post("/accounts:lookup", #"{"localId": ["missing"]}"#)
        #expect(none.status == 200 && none.json["users"] == nil)
    }

    @Test("list_users pages through every account by uid with an opaque nextPageToken")
    func listUsersPaging() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let uids = (0..<25).map { String(format: "list-%02d", $0) }
        for uid in uids.shuffled() {
            #expect(try admin.post("/accounts", #"{"localId": "\#(uid)"}"#).status == 200)
        }
        var listed: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try admin.listUsers(maxResults: 10, pageToken: token)
            #expect(page.status == 200, "\(page.text)")
            #expect(page.json["kind"] as? String == "identitytoolkit#DownloadAccountResponse")
            listed += (page.json["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
            token = page.json["nextPageToken"] as? String
            if let token { #expect(!uids.contains(token), "the token is opaque") }
            pages += 1
        } while token != nil && pages < 10
        #expect(listed == uids)
        #expect(pages == 3)
        let bad = try admin.listUsers(maxResults: 10, pageToken: "not-a-token!")
        #expect(bad.status == 400)
    }

    @Test("update_user: claims reach the next refreshed ID token; disabling stops refreshes; profile changes")
    func updateUser() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let client = FirebaseIOSClient(server: server)
        let (session, _) = try signIn(server, email: "claims@example.com")
        let uid = session.localID

        let claims = try admin.post("/accounts:update", #"{"localId": "\#(uid)", "customAttributes": "{\"admin\": true, \"level\": 3}"}"#)
        #expect(claims.status == 200, "\(claims.text)")
        #expect(claims.json["localId"] as? String == uid)
        let refreshed = try client.refresh(session.refreshToken)
        let idToken = try #require(refreshed.json["id_token"] as? String)
        #expect(JWTParts.claims(idToken)["admin"] as? Bool == true)
        #expect(JWTParts.claims(idToken)["level"] as? Int == 3)
        let refreshToken = try #require(refreshed.json["refresh_token"] as? String)
        #expect(try admin.lookUp(#"{"localId": ["\#(uid)"]}"#)?["customAttributes"] as? String == #"{"admin": true, "level": 3}"#)

        let forbidden = try admin.post("/accounts:update", #"{"localId": "\#(uid)", "customAttributes": "{\"sub\": \"x\"}"}"#)
        #expect(forbidden.errorMessage == "FORBIDDEN_CLAIM : sub")
        let large = try admin.post(
            "/accounts:update", #"{"localId": "\#(uid)", "customAttributes": "{\"k\": \"\#(String(repeating: "x", count: 1000))\"}"}"#)
        #expect(large.errorMessage?.hasPrefix("CLAIMS_TOO_LARGE") == true)
        let notObject = try admin.post("/accounts:update", #"{"localId": "\#(uid)", "customAttributes": "[1, 2]"}"#)
        #expect(notObject.errorMessage?.hasPrefix("INVALID_CLAIMS") == true)

        let profile = try admin.post(
            "/accounts:update",
            #"{"localId": "\#(uid)", "displayName": "Renamed", "emailVerified": true, "phoneNumber": "+15555550188", "deleteAttribute": ["PHOTO_URL"]}"#)
        #expect(profile.json["displayName"] as? String == "Renamed", "\(profile.text)")
        let record = try #require(try admin.lookUp(#"{"localId": ["\#(uid)"]}"#))
        #expect(record["phoneNumber"] as? String == "+15555550188" && record["photoUrl"] == nil)

        let disable = try admin.post("/accounts:update", #"{"localId": "\#(uid)", "disableUser": true}"#)
        #expect(disable.status == 200)
        #expect(try admin.lookUp(#"{"localId": ["\#(uid)"]}"#)?["disabled"] as? Bool == true)
        #expect(try client.refresh(refreshToken).errorMessage == "USER_DISABLED")
        _ = try admin.post("/accounts:update", #"{"localId": "\#(uid)", "disableUser": false}"#)
        #expect(try client.refresh(refreshToken).status == 200)

        let missing = try admin.post("/accounts:update", #"{"localId": "nobody", "disableUser": true}"#)
        #expect(missing.errorMessage == "USER_NOT_FOUND")
    }

    @Test("revoke_refresh_tokens (validSince as a number): the refresh then fails with TOKEN_EXPIRED")
    func revokeRefreshTokens() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let client = FirebaseIOSClient(server: server)
        let (session, _) = try signIn(server, email: "revoke@example.com")
        let now = Int(Date().timeIntervalSince1970)
        let revoke = try admin.post("/accounts:update", #"{"localId": "\#(session.localID)", "validSince": \#(now)}"#)
        #expect(revoke.status == 200, "\(revoke.text)")
        #expect(try client.refresh(session.refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        let validSince = try #require(try admin.lookUp(#"{"localId": ["\#(session.localID)"]}"#)?["validSince"] as? String)
        #expect(Int(validSince).map { $0 >= now } == true)
        let again = try signIn(server, email: "revoke@example.com").session
        #expect(try client.refresh(again.refreshToken).status == 200)
    }

    @Test("delete_user answers kind, ends the user's sessions, and a second delete is USER_NOT_FOUND")
    func deleteUser() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let (session, _) = try signIn(server, email: "gone@example.com")
        let deleted = try admin.post("/accounts:delete", #"{"localId": "\#(session.localID)"}"#)
        #expect(deleted.status == 200)
        #expect(deleted.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
        #expect(try admin.lookUp(#"{"localId": ["\#(session.localID)"]}"#) == nil)
        #expect(try FirebaseIOSClient(server: server).refresh(session.refreshToken).errorMessage == "USER_NOT_FOUND")
        #expect(try admin.post("/accounts:delete", #"{"localId": "\#(session.localID)"}"#).errorMessage == "USER_NOT_FOUND")
    }

    @Test("delete_users: without force enabled users are reported and kept; with force all go")
    func deleteUsers() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        _ = try admin.post("/accounts", #"{"localId": "enabled-1"}"#)
        _ = try admin.post("/accounts", #"{"localId": "disabled-1", "disabled": true}"#)
        let unforced = try admin.post("/accounts:batchDelete", #"{"localIds": ["enabled-1", "disabled-1", "unknown"], "force": false}"#)
        #expect(unforced.status == 200, "\(unforced.text)")
        let errors = try #require(unforced.json["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["index"] as? Int == 0 && errors.first?["localId"] as? String == "enabled-1")
        #expect((errors.first?["message"] as? String)?.hasPrefix("NOT_DISABLED") == true)
        #expect(try admin.lookUp(#"{"localId": ["enabled-1"]}"#) != nil)
        #expect(try admin.lookUp(#"{"localId": ["disabled-1"]}"#) == nil)

        let forced = try admin.post("/accounts:batchDelete", #"{"localIds": ["enabled-1"], "force": true}"#)
        #expect(forced.status == 200 && forced.json["errors"] == nil)
        #expect(try admin.lookUp(#"{"localId": ["enabled-1"]}"#) == nil)
        let tooMany = try admin.post("/accounts:batchDelete", #"{"localIds": [], "force": true}"#)
        #expect(tooMany.errorMessage?.hasPrefix("LOCAL_ID_LIST_EXCEEDS_LIMIT") == true)
    }

    @Test("no bearer, a wrong bearer, or an API key alone: 401 UNAUTHENTICATED and nothing happens")
    func unauthorized() throws {
        let server = HearthProcess()
        try server.start()
        let create = #"{"localId": "intruder"}"#
        for authorization in [nil, "Bearer not-owner", "Bearer ya29.a0AfH6SM"] {
            let caller = FirebaseAdminClient(server: server, authorization: authorization)
            for query in ["", "?key=AIzaSyTest-iOS-key"] {
                let result = try caller.post("/accounts", create, query: query)
                #expect(result.status == 401, "\(authorization ?? "none") \(query): \(result.text)")
                let error = result.json["error"] as? [String: Any]
                #expect(error?["status"] as? String == "UNAUTHENTICATED")
                #expect(error?["code"] as? Int == 401)
            }
            #expect(try caller.listUsers(maxResults: 10).status == 401)
        }
        let keyHeader = try server.request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-hearth/accounts",
            headers: [("Content-Type", "application/json"), ("x-goog-api-key", "AIzaSyTest-iOS-key")], body: Data(create.utf8))
        #expect(keyHeader.status == 401)
        #expect(try FirebaseAdminClient(server: server).lookUp(#"{"localId": ["intruder"]}"#) == nil)
        let otherProject = try FirebaseAdminClient(server: server, projectID: "someone-else").post("/accounts", create)
        #expect(otherProject.errorMessage?.hasPrefix("PROJECT_NOT_FOUND") == true)
    }

    @Test("import_users without hashes, reporting bad rows; then accounts:query filters, sorts and counts")
    func importAndQuery() throws {
        let server = HearthProcess()
        try server.start()
        let admin = FirebaseAdminClient(server: server)
        let imported = try admin.post(
            "/accounts:batchCreate",
            #"{"users": [{"localId": "imp-b", "email": "b@example.com", "displayName": "Bee", "emailVerified": true, "customAttributes": "{\"tier\": \"gold\"}", "createdAt": 1600000000000, "lastLoginAt": 1600000100000, "providerUserInfo": [{"rawId": "gh-7", "providerId": "github.com", "displayName": "bee", "email": "b@github.example"}]}, {"localId": "imp-a", "phoneNumber": "+15555550142", "disabled": true}, {"localId": "imp-bad", "customAttributes": "{\"aud\": \"x\"}"}]}"#)
        #expect(imported.status == 200, "\(imported.text)")
        #expect(imported.json["kind"] as? String == "identitytoolkit#UploadAccountResponse")
        let errors = try #require(imported.json["error"] as? [[String: Any]])
        #expect(errors.count == 1 && errors.first?["index"] as? Int == 2)
        #expect(errors.first?["message"] as? String == "Custom claims provided include a reserved claim.")

        let bee = try #require(try admin.lookUp(#"{"federatedUserId": [{"providerId": "github.com", "rawId": "gh-7"}]}"#))
        #expect(bee["localId"] as? String == "imp-b")
        #expect(bee["createdAt"] as? String == "1600000000000" && bee["lastLoginAt"] as? String == "1600000100000")
        #expect(bee["customAttributes"] as? String == #"{"tier": "gold"}"#)

        let all = try admin.post("/accounts:query", #"{"returnUserInfo": true, "sortBy": "USER_ID", "order": "DESC"}"#)
        #expect(all.json["recordsCount"] as? String == "2", "\(all.text)")
        #expect((all.json["userInfo"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } == ["imp-b", "imp-a"])
        let filtered = try admin.post("/accounts:query", #"{"expression": [{"phoneNumber": "+15555550142"}], "limit": "10", "offset": "0"}"#)
        #expect((filtered.json["userInfo"] as? [[String: Any]])?.first?["localId"] as? String == "imp-a")
        let count = try admin.post("/accounts:query", #"{"returnUserInfo": false}"#)
        #expect(count.json["recordsCount"] as? String == "2" && count.json["userInfo"] == nil)

        let withHash = try admin.post(
            "/accounts:batchCreate",
            #"{"users": [{"localId": "hashed", "passwordHash": "aGFzaA==", "salt": "c2FsdA=="}], "hashAlgorithm": "BCRYPT"}"#)
        #expect((withHash.json["error"] as? [[String: Any]])?.first?["index"] as? Int == 0)
        #expect(try admin.lookUp(#"{"localId": ["hashed"]}"#) == nil)
    }
}
