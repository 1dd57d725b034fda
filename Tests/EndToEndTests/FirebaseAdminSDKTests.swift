import Foundation
import Testing

/// firebase-admin for Python (from PyPI, emulator mode) managing users on the built `hearth serve --dev`: every call
/// a backend makes, each result asserted (Tests/Python/admin_sdk.py runs them in order).
@Suite("firebase-admin against hearth serve --dev (e2e)", .blocking)
struct FirebaseAdminSDKTests {
    @Test("user management, claims, revocation, import and paging, custom tokens, session cookies")
    func adminSDK() throws {
        let server = HearthProcess()
        try server.start()
        let user = try SignedIn(MFATests.Client(server: server).signIn("admin-sdk-user@example.com"))
        let settings: [String: Any] = [
            "base": server.baseURL, "project": "demo-hearth", "bulkUsers": 2500,
            "signedIn": ["uid": user.localID, "idToken": user.idToken, "refreshToken": user.refreshToken],
        ]
        let steps = PythonSteps(try PythonClients.run(
            "admin_sdk.py", [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]))
        func value(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
            steps.value(step, sourceLocation: sourceLocation)
        }
        func record(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
            steps.record(step, sourceLocation: sourceLocation)
        }
        func refusal(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
            steps.refusal(step, sourceLocation: sourceLocation)
        }

        #expect(value("verify_id_token") as? String == user.localID)
        #expect(value("verify_id_token_check_revoked") as? String == user.localID)
        let signedIn = record("get_user")
        #expect(signedIn["uid"] as? String == user.localID)
        #expect(signedIn["email"] as? String == "admin-sdk-user@example.com")
        #expect(signedIn["providers"] as? [String] == ["google.com"])
        #expect((signedIn["lastSignIn"] as? Int ?? 0) > 0)

        let grace = record("create_user")
        #expect(grace["uid"] as? String == "grace")
        #expect(grace["email"] as? String == "grace@example.com")
        #expect(grace["phone"] as? String == "+15555550100")
        #expect(grace["name"] as? String == "Grace Hopper")
        #expect(grace["photo"] as? String == "https://example.com/grace.png")
        #expect(grace["verified"] as? Bool == true)
        #expect(grace["disabled"] as? Bool == false)
        #expect(refusal("create_user_duplicate_email").contains("EmailAlreadyExistsError"))
        #expect(record("get_user_by_email")["uid"] as? String == "grace")
        #expect(record("get_user_by_phone_number")["uid"] as? String == "grace")
        let found = record("get_users")
        #expect(found["found"] as? [String] == [user.localID, "grace"].sorted())
        #expect(found["notFound"] as? Int == 1)
        let updated = record("update_user")
        #expect(updated["name"] as? String == "Rear Admiral Hopper")
        #expect(updated["disabled"] as? Bool == true)
        #expect(updated["photo"] is NSNull)
        #expect(refusal("get_user_missing").contains("UserNotFoundError"))

        #expect(record("set_custom_user_claims")["admin"] as? Bool == true)
        let tokenClaims = record("claims_in_refreshed_token")
        #expect(tokenClaims["admin"] as? Bool == true)
        #expect(tokenClaims["level"] as? Int == 3)
        let revoked = record("revoke_refresh_tokens")
        #expect(revoked["refreshStatus"] as? Int == 400)
        #expect((revoked["refreshError"] as? String)?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(revoked["checkRevoked"] as? String == "RevokedIdTokenError")
        #expect(revoked["withoutCheck"] as? Bool == true)
        #expect(value("check_revoked_disabled_user") as? String == "UserDisabledError")

        let listed = record("import_and_list_users")
        #expect(listed["imported"] as? Int == 2500)
        #expect(listed["bulkListed"] as? Int == 2500)
        #expect(listed["pages"] as? Int == 3)
        #expect(listed["distinct"] as? Bool == true)
        let sample = listed["sample"] as? [String: Any] ?? [:]
        #expect(sample["email"] as? String == "bulk-42@example.com")
        #expect((sample["claims"] as? [String: Any])?["cohort"] as? Int == 0)
        #expect(sample["providers"] as? [String] == ["google.com"])

        #expect(refusal("delete_user").contains("UserNotFoundError"))
        let deleted = record("delete_users")
        #expect(deleted["success"] as? Int == 3)
        #expect(deleted["failure"] as? Int == 0)

        let custom = record("custom_token_sign_in")
        #expect(custom["uid"] as? String == "custom-user")
        #expect(custom["premium"] as? Bool == true)
        #expect(custom["provider"] as? String == "custom")
        #expect(custom["isNewUser"] as? Bool == true)
        let cookie = record("session_cookie")
        #expect(cookie["uid"] as? String == "cookie-user")
        #expect(cookie["iss"] as? String == "https://session.firebase.google.com/demo-hearth")

        // Issue 20 §5: mfaInfo at creation, the hashes administrators list.
        let factors = record("create_user_with_factors")
        let enrolled = factors["factors"] as? [[String: Any]] ?? []
        #expect(enrolled.count == 1)
        #expect(enrolled.first?["phone"] as? String == "+15555550111")
        #expect(enrolled.first?["name"] as? String == "work")
        #expect(enrolled.first?["id"] as? Bool == true)
        #expect(enrolled.first?["enrolled"] as? Bool == true)
        #expect(factors["refused"] as? Int == 400)
        #expect((factors["refusal"] as? String)?.hasPrefix("INVALID_MFA_PHONE_NUMBER") == true)
        let hash = record("exported_password_hash")
        #expect(hash["phc"] as? String == "argon2id")
    }
}
