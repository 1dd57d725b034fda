import Foundation
import Testing

/// A tenant's own accounts on the built `hearth serve --dev`: firebase-admin for Python's tenant client
/// (`tenant_mgt.auth_for_tenant`, emulator mode) and the client API with `tenantId`, each result asserted
/// (Tests/Python/tenant_accounts_sdk.py runs them in order): user management, custom tokens naming the tenant,
/// ID-token and session-cookie tenant checks, refresh without `tenantId`, one email in three scopes, every
/// operation with another scope's credentials, and the tenant's switches.
@Suite("tenant-scoped accounts against hearth serve --dev (e2e)", .blocking)
struct TenantAccountsSDKTests {
    @Test("auth_for_tenant, client calls with tenantId, isolation between tenants and the project, switches")
    func tenantAccounts() throws {
        let server = HearthProcess()
        try server.start()
        let settings: [String: Any] = ["base": server.baseURL, "project": "demo-hearth"]
        let steps = PythonSteps(try PythonClients.run(
            "tenant_accounts_sdk.py",
            [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]))
        let ids = steps.record("ids").compactMapValues { $0 as? String }
        let (a, b) = (ids["a"] ?? "?", ids["b"] ?? "?")
        #expect(a.hasPrefix("tenant-a-") && b.hasPrefix("tenant-b-"))

        // firebase-admin's tenant client.
        let alice: [String: Any] = ["uid": "alice", "email": "alice@example.com", "tenant": a, "name": NSNull()]
        #expect(steps.record("tenants")["a"] as? String == a)
        #expect(NSDictionary(dictionary: steps.record("create_user")) == NSDictionary(dictionary: alice))
        #expect(NSDictionary(dictionary: steps.record("get_user")) == NSDictionary(dictionary: alice))
        #expect(NSDictionary(dictionary: steps.record("get_user_by_email")) == NSDictionary(dictionary: alice))
        #expect(steps.refusal("get_user_other_tenant").hasPrefix("UserNotFoundError"))
        #expect(steps.refusal("get_user_project").hasPrefix("UserNotFoundError"))
        #expect(steps.record("update_user")["name"] as? String == "Alice of A")
        #expect(steps.refusal("update_user_other_tenant").hasPrefix("UserNotFoundError"))
        #expect(steps.value("list_users") as? [String] == ["alice"])
        #expect(steps.value("list_users_other_tenant") as? [String] == [])
        #expect(steps.value("list_users_project") as? [String] == [])

        // Custom tokens naming the tenant; ID tokens carry firebase.tenant.
        let signedIn = steps.record("custom_token_sign_in")
        #expect(signedIn["uid"] as? String == "carol" && signedIn["tenant"] as? String == a)
        #expect(signedIn["tier"] as? String == "gold")
        #expect(steps.value("custom_token_without_tenant") as? String == "TENANT_ID_MISMATCH")
        #expect(steps.value("custom_token_other_tenant") as? String == "TENANT_ID_MISMATCH")
        #expect(steps.value("project_custom_token_in_tenant") as? String == "TENANT_ID_MISMATCH")
        let verified = steps.record("verify_id_token")
        #expect(verified["uid"] as? String == "carol" && verified["tenant"] as? String == a)
        #expect(steps.refusal("verify_id_token_other_tenant").hasPrefix("TenantIdMismatchError"))
        #expect(steps.value("verify_id_token_project") as? String == a, "firebase-admin's project client checks no tenant")
        #expect(steps.refusal("verify_id_token_project_check_revoked").hasPrefix("UserNotFoundError"))
        let cookie = steps.record("create_session_cookie")
        #expect(cookie["uid"] as? String == "carol" && cookie["tenant"] as? String == a)
        #expect(steps.value("session_cookie_project_path") as? String == "TENANT_ID_MISMATCH")
        #expect(steps.value("session_cookie_other_tenant") as? String == "TENANT_ID_MISMATCH")
        let refreshed = steps.record("refresh")
        #expect(refreshed["uid"] as? String == "carol" && refreshed["tenant"] as? String == a)
        #expect(refreshed["marked"] as? Bool == true)

        // One email in two tenants and the project: three accounts, each signing in in its own scope only.
        let accounts = steps.record("same_email_sign_ups").compactMapValues { $0 as? [String: Any] }
        let uids = ["a", "b", "project"].map { accounts[$0]?["uid"] as? String ?? "" }
        #expect(Set(uids).count == 3 && !uids.contains(""))
        #expect(accounts["a"]?["tenant"] as? String == a && accounts["b"]?["tenant"] as? String == b)
        #expect(accounts["project"]?["tenant"] is NSNull, "the project's tokens name no tenant")
        let signIns = steps.record("same_email_sign_ins")
        for (index, scope) in ["a", "b", "project"].enumerated() {
            for owner in ["a", "b", "project"] {
                let result = signIns["\(scope)-with-\(owner)"]
                if scope == owner {
                    #expect(result as? String == uids[index], "\(scope) with its own password")
                } else {
                    #expect(result as? String == "INVALID_LOGIN_CREDENTIALS", "\(scope) with \(owner)'s password")
                }
            }
        }

        #expect(steps.value("legacy_sign_in") as? String == uids[0], "the iOS SDK's legacy name, in tenant A")
        let link = steps.record("email_link_sign_in")
        #expect(link["project"] as? String == "INVALID_OOB_CODE", "a tenant's code is not the project's")
        #expect(link["listedInProject"] as? Bool == false, "listed under the tenant's oobCodes only")
        #expect(link["tenant"] as? String == a && link["account"] as? String == a)

        // Tenant A's credentials used with tenant B or the project change nothing and read nothing.
        let isolation = steps.record("isolation")
        let expected: [String: String] = [
            "lookup": "TENANT_ID_MISMATCH", "update": "TENANT_ID_MISMATCH", "delete": "TENANT_ID_MISMATCH",
            "mfaEnrollment_start": "TENANT_ID_MISMATCH", "sendOobCode_verify": "TENANT_ID_MISMATCH",
            "signUp_link": "TENANT_ID_MISMATCH", "signInWithCustomToken": "TENANT_ID_MISMATCH",
        ]
        for (operation, code) in expected {
            for scope in ["other_tenant", "project"] {
                #expect(isolation["\(operation)/\(scope)"] as? String == code, "\(operation) with \(scope)")
            }
        }
        #expect(isolation["refresh_named/other_tenant"] as? String == "TENANT_ID_MISMATCH")
        #expect(isolation["refresh_unnamed"] as? String == a, "a refresh without tenantId is served in the token's scope")
        #expect(isolation["refresh_marker_other_tenant"] as? String == "INVALID_REFRESH_TOKEN")
        #expect(isolation["refresh_marker_removed"] as? String == "INVALID_REFRESH_TOKEN")
        for operation in ["admin_get_user/other_tenant", "admin_get_user/project", "admin_update_user/other_tenant",
                          "admin_delete_user/other_tenant", "admin_revoke/other_tenant"] {
            #expect(isolation[operation] as? String == "UserNotFoundError", "\(operation)")
        }
        #expect(NSDictionary(dictionary: isolation["admin_get_users/other_tenant"] as? [String: Any] ?? [:])
            == ["found": 0, "notFound": 1])
        #expect((isolation["admin_delete_users/other_tenant"] as? [String: Any])?["succeeded"] as? String == "1",
                "batchDelete of an unknown uid succeeds, as Firebase's")
        #expect((isolation["admin_reset_link/other_tenant"] as? [String: Any])?["succeeded"] as? String
            == "sent to B's own account")
        #expect(NSDictionary(dictionary: isolation["after/a_account"] as? [String: Any] ?? [:])
            == ["name": NSNull(), "email": "same@example.com"])
        #expect(isolation["after/a_lookup"] as? Bool == true)
        #expect(isolation["after/a_refresh"] as? Bool == true)

        #expect(steps.refusal("delete_user_other_tenant").hasPrefix("UserNotFoundError"))
        #expect(steps.value("delete_user") is NSNull)
        #expect(steps.refusal("get_deleted_user").hasPrefix("UserNotFoundError"))

        // Each switch refused with the emulator's code, and served once on.
        let switches = steps.record("switches")
        #expect(switches["anonymous_off"] as? String == "ADMIN_ONLY_OPERATION")
        #expect(switches["anonymous_on"] as? Bool == true)
        #expect(switches["email_link_off_send"] as? String == "OPERATION_NOT_ALLOWED")
        #expect(switches["email_link_off_sign_in"] as? String == "OPERATION_NOT_ALLOWED")
        #expect(switches["email_link_on_send"] as? Bool == true)
        #expect(switches["password_off_sign_up"] as? String == "OPERATION_NOT_ALLOWED")
        #expect(switches["password_off_sign_in"] as? String == "PASSWORD_LOGIN_DISABLED")
        #expect(switches["password_on_sign_up"] as? Bool == true)
        #expect(switches["disabled_sign_in"] as? String == "PROJECT_DISABLED")
        #expect(switches["disabled_refresh"] as? String == "PROJECT_DISABLED")
        #expect(switches["disabled_admin_still_served"] as? String == "same@example.com")
        #expect(switches["enabled_again"] as? String == uids[1])
        #expect(switches["missing_tenant"] as? String == "TENANT_NOT_FOUND")
        #expect(switches["missing_tenant_admin"] as? String == "TenantNotFoundError")
    }

    @Test("signInWithIdp (dev Google) and TOTP second factors in a tenant whose mfaConfig enables them: enrol, sign in, finish; other scopes refused; a tenant's own mfaConfig decides, not the project's")
    func googleAndSecondFactorInTenant() throws {
        let server = HearthProcess()
        try server.start()
        let owner = [("Authorization", "Bearer owner")]
        let totp: [String: Any] = [
            "state": "ENABLED", "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 1]]],
        ]
        let made = try server.postJSON(
            "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants", ["displayName": "Google-Tenant", "mfaConfig": totp],
            headers: owner)
        let tenant = try #require((made.json["name"] as? String)?.split(separator: "/").last.map(String.init), "\(made.text)")
        let client = MFATests.Client(server: server)
        func google(_ scope: [String: Any]) throws -> HTTPResult {
            let idToken = try DevGoogle(server: server).signIn(email: "gina@example.com").idToken
            return try server.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k", [
                "requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=\(idToken)",
                "returnSecureToken": true,
            ].merging(scope) { $1 })
        }
        // The project (--dev) enables both factors, but a tenant with the default mfaConfig (DISABLED) has none.
        let plain = try server.postJSON(
            "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants", ["displayName": "Plain-Tenant"], headers: owner)
        let plainTenant = try #require((plain.json["name"] as? String)?.split(separator: "/").last.map(String.init))
        let plainUser = try SignedIn(google(["tenantId": plainTenant]))
        for info in [["totpEnrollmentInfo": [:] as [String: Any]], ["phoneEnrollmentInfo": ["phoneNumber": "+15555550101"]]] {
            let refused = try client.v2("mfaEnrollment:start", ["idToken": plainUser.idToken, "tenantId": plainTenant].merging(info) { $1 })
            #expect(refused.status == 400 && refused.text.contains("OPERATION_NOT_ALLOWED"), "\(refused.text)")
        }
        // Enabled through the tenant API, TOTP enrolment starts at once on this instance.
        let patched = try server.request(
            "PATCH", "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants/\(plainTenant)?updateMask=mfaConfig",
            headers: owner + [("Content-Type", "application/json")],
            body: try JSONSerialization.data(withJSONObject: ["mfaConfig": totp]))
        #expect(patched.status == 200, "\(patched.text)")
        let allowed = try client.v2(
            "mfaEnrollment:start", ["idToken": plainUser.idToken, "tenantId": plainTenant, "totpEnrollmentInfo": [:]])
        #expect(allowed.status == 200, "\(allowed.text)")
        let inTenant = try SignedIn(google(["tenantId": tenant]))
        #expect((JWTParts.claims(inTenant.idToken)["firebase"] as? [String: Any])?["tenant"] as? String == tenant)
        let inProject = try SignedIn(google([:]))
        #expect(inProject.localID != inTenant.localID, "one Google identity, one account per scope")

        let scope: [String: Any] = ["tenantId": tenant]
        let start = try client.v2("mfaEnrollment:start", ["idToken": inTenant.idToken, "totpEnrollmentInfo": [:]].merging(scope) { $1 })
        #expect(start.status == 200, "\(start.text)")
        let info = try #require(start.json["totpSessionInfo"] as? [String: Any])
        let secret = try #require(info["sharedSecretKey"] as? String)
        let finalize = try client.v2("mfaEnrollment:finalize", [
            "idToken": inTenant.idToken,
            "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": MFATests.totpCode(secret, stepOffset: 0)],
        ].merging(scope) { $1 })
        #expect(finalize.status == 200, "\(finalize.text)")

        let stopped = try google(scope)
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String, "\(stopped.text)")
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        #expect(try google([:]).json["mfaPendingCredential"] == nil, "the project's account has no second factor")
        let body: [String: Any] = [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": MFATests.totpCode(secret, stepOffset: 1)],
        ]
        let inProjectScope = try client.v2("mfaSignIn:finalize", body)
        #expect(inProjectScope.status == 400 && inProjectScope.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL") == true,
                "\(inProjectScope.text)")
        let done = try client.v2("mfaSignIn:finalize", body.merging(scope) { $1 })
        #expect(done.status == 200, "\(done.text)")
        let claims = JWTParts.claims(try #require(done.json["idToken"] as? String))
        let firebase = claims["firebase"] as? [String: Any]
        #expect(firebase?["tenant"] as? String == tenant && firebase?["sign_in_second_factor"] as? String == "totp")
        #expect(claims["sub"] as? String == inTenant.localID)
    }
}
