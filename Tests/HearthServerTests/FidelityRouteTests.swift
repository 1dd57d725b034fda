import Foundation
import HearthCore
import HearthHTTP
import Testing

@testable import HearthServer

/// Issue 20 §5: the Firebase paths Hearth answers as the emulator does, and 501 for every Firebase path it does not.
@Suite struct FidelityRouteTests {
    static let base = "/identitytoolkit.googleapis.com/v1/projects/demo-hearth"
    static let owner: HTTPHeaders = ["Authorization": "Bearer owner", "Content-Type": "application/json"]

    @Test("Firebase paths that are no route answer 501 NOT_IMPLEMENTED naming the path; others stay 404")
    func unimplementedFirebasePaths() throws {
        let fixture = try ServerFixture()
        let paths = [
            "/identitytoolkit.googleapis.com/v1/accounts:sendPasskeyChallenge",
            "/identitytoolkit.googleapis.com/v2/defaultSupportedIdps",
            "/identitytoolkit.googleapis.com/v2/passwordPolicy/unknown",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/signOutUser",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/somethingElse",
            "/securetoken.googleapis.com/v1/other",
        ]
        for path in paths {
            for method in [HTTPMethod.get, .post] {
                let response = fixture.call(method, path + "?key=k", headers: ["Content-Type": "application/json"], body: "{}")
                #expect(response.status == 501, "\(method) \(path)")
                #expect(response.error["status"] as? String == "NOT_IMPLEMENTED", "\(path)")
                let name = path.split(separator: "/").last.map(String.init) ?? ""
                #expect((response.error["message"] as? String)?.contains(name) == true, "\(path)")
            }
        }
        for path in ["/nothing/here", "/identitytoolkit.googleapis.com/v3/x", "/identitytoolkit.googleapis.com/v1/"] {
            #expect(fixture.call(.get, path).status == 404, "\(path)")
        }
    }

    @Test("getProjectConfig (v1 projects, v1 projects/{p}, legacy) answers projectId and authorizedDomains")
    func projectConfig() throws {
        let fixture = try ServerFixture()
        for path in [
            "/identitytoolkit.googleapis.com/v1/projects", "/identitytoolkit.googleapis.com/v1/projects/demo-hearth",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/getProjectConfig",
        ] {
            let response = fixture.call(.get, path + "?key=k")
            #expect(response.status == 200, "\(path)")
            #expect(response.json["projectId"] as? String == "demo-hearth")
            let domains = response.json["authorizedDomains"] as? [String] ?? []
            #expect(domains.contains("localhost") && domains.contains("127.0.0.1"), "\(domains)")
            #expect(fixture.call(.get, path).status != 200, "no API key: \(path)")
        }
    }

    @Test("recaptchaParams answers as the emulator: kind, placeholder token and site key")
    func recaptchaParams() throws {
        let fixture = try ServerFixture()
        for (method, path) in [
            (HTTPMethod.get, "/identitytoolkit.googleapis.com/v1/recaptchaParams"),
            (.get, "/www.googleapis.com/identitytoolkit/v3/relyingparty/getRecaptchaParam"),
        ] {
            let response = fixture.call(method, path + "?key=k")
            #expect(response.status == 200)
            #expect(response.json["kind"] as? String == "identitytoolkit#GetRecaptchaParamResponse")
            #expect(response.json["recaptchaStoken"] is String)
            #expect(response.json["recaptchaSiteKey"] is String)
        }
    }

    @Test("projects/{p}:queryAccounts answers as accounts:query; it needs an administrator")
    func queryAccountsAlias() throws {
        let fixture = try ServerFixture()
        for email in ["a@example.com", "b@example.com"] {
            #expect(fixture.postJSON(Self.base + "/accounts", #"{"email":"\#(email)"}"#, headers: Self.owner).status == 200)
        }
        let alias = fixture.postJSON(Self.base + ":queryAccounts", #"{"returnUserInfo":true}"#, headers: Self.owner)
        let query = fixture.postJSON(Self.base + "/accounts:query", #"{"returnUserInfo":true}"#, headers: Self.owner)
        #expect(alias.status == 200)
        #expect(alias.json["recordsCount"] as? String == "2")
        #expect((alias.json["userInfo"] as? [Any])?.count == 2)
        #expect(alias.json["recordsCount"] as? String == query.json["recordsCount"] as? String)
        #expect(fixture.postJSON(Self.base + ":queryAccounts?key=k", "{}").status == 401)
    }

    @Test("admin create enrols the phone factors of mfaInfo; lookup shows them; bad or repeated numbers change nothing")
    func createWithFactors() throws {
        let fixture = try ServerFixture()
        let created = fixture.postJSON(
            Self.base + "/accounts",
            #"{"localId":"u1","email":"m@example.com","emailVerified":true,"mfaInfo":[{"phoneInfo":"+15555550100","displayName":"work"},{"phoneInfo":"+15555550101"}]}"#,
            headers: Self.owner)
        #expect(created.status == 200, "\(created.text)")
        let lookup = fixture.postJSON(Self.base + "/accounts:lookup", #"{"localId":["u1"]}"#, headers: Self.owner)
        let user = (lookup.json["users"] as? [[String: Any]])?.first ?? [:]
        let factors = user["mfaInfo"] as? [[String: Any]] ?? []
        #expect(factors.count == 2, "\(lookup.text)")
        #expect(factors.first?["phoneInfo"] as? String == "+15555550100")
        #expect(factors.first?["displayName"] as? String == "work")
        #expect((factors.first?["mfaEnrollmentId"] as? String)?.isEmpty == false)
        #expect(factors.first?["enrolledAt"] is String)
        let bad: [(String, String)] = [
            (#"[{"phoneInfo":"5555550100"}]"#, "INVALID_MFA_PHONE_NUMBER"),
            (#"[{"displayName":"no phone"}]"#, "INVALID_MFA_PHONE_NUMBER"),
            (#"[{"phoneInfo":"+15555550100"},{"phoneInfo":"+15555550100"}]"#, "DUPLICATE_MFA_ENROLLMENT_ID"),
        ]
        for (factors, code) in bad {
            let refused = fixture.postJSON(
                Self.base + "/accounts", #"{"localId":"u2","email":"x@example.com","mfaInfo":\#(factors)}"#, headers: Self.owner)
            #expect(refused.status == 400, "\(factors)")
            #expect((refused.error["message"] as? String)?.hasPrefix(code) == true, "\(refused.text)")
        }
        let none = fixture.postJSON(Self.base + "/accounts:lookup", #"{"localId":["u2"]}"#, headers: Self.owner)
        #expect(none.json["users"] == nil)
    }

    @Test("sendOobCode refuses a linkDomain outside the authorized domains (INVALID_HOSTING_LINK_DOMAIN)")
    func linkDomain() throws {
        let fixture = try ServerFixture()
        #expect(fixture.postJSON(Self.base + "/accounts", #"{"email":"l@example.com"}"#, headers: Self.owner).status == 200)
        let refused = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=k",
            #"{"requestType":"PASSWORD_RESET","email":"l@example.com","linkDomain":"evil.example"}"#)
        #expect(refused.status == 400)
        #expect((refused.error["message"] as? String)?.hasPrefix("INVALID_HOSTING_LINK_DOMAIN") == true, "\(refused.text)")
        let accepted = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=k",
            #"{"requestType":"PASSWORD_RESET","email":"l@example.com","linkDomain":"localhost"}"#)
        #expect(accepted.status == 200, "\(accepted.text)")
    }
}

extension FidelityRouteTests {
    @Test("admin batchGet shows passwordHash (Hearth's PHC string) and an import's hash and salt, base64url")
    func batchGetHashes() throws {
        let fixture = try ServerFixture()
        #expect(fixture.postJSON(Self.base + "/accounts", #"{"localId":"own","email":"h@example.com","password":"secret-123"}"#,
                                 headers: Self.owner).status == 200)
        let imported = fixture.postJSON(
            Self.base + "/accounts:batchCreate",
            #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"c2VjcmV0","users":[{"localId":"imp","email":"i@example.com","passwordHash":"\#(String(repeating: "A", count: 43))=","salt":"c2FsdA=="}]}"#,
            headers: Self.owner)
        #expect(imported.status == 200 && (imported.json["error"] as? [Any])?.isEmpty == true, "\(imported.text)")
        let page = fixture.call(.get, Self.base + "/accounts:batchGet?maxResults=10", headers: Self.owner)
        let users = page.json["users"] as? [[String: Any]] ?? []
        let own = users.first { $0["localId"] as? String == "own" } ?? [:]
        let phc = (own["passwordHash"] as? String).flatMap(Self.decodeBase64URL).map { String(decoding: $0, as: UTF8.self) }
        #expect(phc?.hasPrefix("$argon2id$") == true, "\(own)")
        #expect(own["salt"] == nil)
        let imp = users.first { $0["localId"] as? String == "imp" } ?? [:]
        #expect((imp["passwordHash"] as? String).flatMap(Self.decodeBase64URL) == [UInt8](repeating: 0, count: 32), "\(imp)")
        #expect(imp["salt"] as? String == "c2FsdA")
        // Not in a user's own lookup.
        let lookup = fixture.postJSON(Self.base + "/accounts:lookup", #"{"localId":["own"]}"#, headers: Self.owner)
        #expect(!lookup.text.contains("argon2id") && !lookup.text.contains("\"salt\""))
    }

    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }

    @Test("a direct change of email mails the old address a RECOVER_EMAIL code; applying it restores the old email")
    func directEmailChangeRecovery() throws {
        let issuedLog = LogLines()
        // A direct change of email is only allowed without enumeration protection (as Firebase).
        let fixture = try ServerFixture(emailEnumerationProtection: false, issuedOOBCodes: IssuedOOBCodes(log: issuedLog.append))
        let key = "?key=k"
        let signUp = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp\(key)", #"{"email":"old@example.com","password":"secret-123"}"#)
        let idToken = try #require(signUp.json["idToken"] as? String)
        let changed = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:update\(key)", #"{"idToken":"\#(idToken)","email":"new@example.com"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        let listing = fixture.call(.get, "/emulator/v1/projects/demo-hearth/oobCodes")
        let codes = listing.json["oobCodes"] as? [[String: Any]] ?? []
        let recovery = try #require(codes.first { $0["requestType"] as? String == "RECOVER_EMAIL" }, "\(listing.text)")
        #expect(recovery["email"] as? String == "old@example.com")
        #expect(recovery["newEmail"] as? String == "new@example.com")
        let code = try #require(recovery["oobCode"] as? String)
        #expect(!fixture.log.all.contains { $0.contains(code) })
        let applied = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:update\(key)", #"{"oobCode":"\#(code)"}"#)
        #expect(applied.status == 200, "\(applied.text)")
        #expect(applied.json["email"] as? String == "old@example.com")
        let again = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:update\(key)", #"{"oobCode":"\#(code)"}"#)
        #expect((again.error["message"] as? String)?.hasPrefix("INVALID_OOB_CODE") == true)
        // An anonymous account given its first email gets none.
        let guest = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp\(key)", "{}")
        let guestToken = try #require(guest.json["idToken"] as? String)
        #expect(fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:update\(key)",
                                 #"{"idToken":"\#(guestToken)","email":"guest@example.com"}"#).status == 200)
        let after = fixture.call(.get, "/emulator/v1/projects/demo-hearth/oobCodes").json["oobCodes"] as? [[String: Any]] ?? []
        #expect(!after.contains { $0["email"] as? String == "guest@example.com" })
    }
}

extension FidelityRouteTests {
    @Test("legacy downloadAccount and uploadAccount answer as batchGet and batchCreate, for administrators only")
    func legacyAccountTransfer() throws {
        let fixture = try ServerFixture()
        let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
        let upload = fixture.postJSON(
            legacy + "/uploadAccount", #"{"targetProjectId":"demo-hearth","users":[{"localId":"up1","email":"up1@example.com"}]}"#,
            headers: Self.owner)
        #expect(upload.status == 200, "\(upload.text)")
        #expect((upload.json["error"] as? [Any])?.isEmpty == true)
        let download = fixture.postJSON(legacy + "/downloadAccount", #"{"maxResults":10}"#, headers: Self.owner)
        #expect(download.status == 200)
        #expect(download.json["kind"] as? String == "identitytoolkit#DownloadAccountResponse")
        #expect((download.json["users"] as? [[String: Any]])?.map { $0["localId"] as? String } == ["up1"])
        #expect(fixture.postJSON(legacy + "/downloadAccount?key=k", "{}").status == 401)
        let other = fixture.postJSON(legacy + "/downloadAccount", #"{"targetProjectId":"other"}"#, headers: Self.owner)
        #expect((other.error["message"] as? String)?.hasPrefix("PROJECT_NOT_FOUND") == true, "\(other.text)")
    }
}
