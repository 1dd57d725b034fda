import Foundation
import Testing

/// Provider configurations through the admin API on the built `hearth serve --dev`: firebase-admin for Python (from
/// PyPI) creating, reading, updating, listing in pages and deleting OIDC configurations for the project and through
/// `tenant_mgt.auth_for_tenant` (Tests/Python/provider_configs_sdk.py), `defaultSupportedIdpConfigs` with the REST
/// shapes Identity Platform documents, and a sign-in through an API-made `oidc.*` provider whose issuer is a second
/// `hearth serve --dev` (its dev Google look-alike, found by discovery), then disabled and deleted.
@Suite("Provider configurations through the admin API against hearth serve --dev (e2e)", .blocking)
struct ProviderConfigAdminSDKTests {
    static let owner = [("Authorization", "Bearer owner"), ("Content-Type", "application/json")]
    static let v2 = "/identitytoolkit.googleapis.com/v2/projects/demo-hearth"

    static func send(_ server: HearthProcess, _ method: String, _ path: String, _ body: [String: Any]? = nil) throws
        -> HTTPResult
    {
        try server.request(
            method, path, headers: owner, body: try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data())
    }

    @Test("firebase-admin: create, get, update, list in pages, delete, ConfigurationNotFoundError; the same per tenant")
    func pythonSDK() throws {
        let server = HearthProcess()
        try server.start()
        let settings: [String: Any] = ["base": server.baseURL, "project": "demo-hearth", "issuer": "https://alpha.example.com"]
        let steps = PythonSteps(try PythonClients.run(
            "provider_configs_sdk.py",
            [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]))

        let created = steps.record("create")
        #expect(created["id"] as? String == "oidc.alpha" && created["name"] as? String == "Alpha")
        #expect(created["enabled"] as? Bool == true && created["clientId"] as? String == "alpha-client")
        #expect(created["issuer"] as? String == "https://alpha.example.com")
        #expect(created["secret"] as? String == "****7Q2Z", "the secret is answered masked")
        #expect(created["idToken"] as? Bool == true && created["code"] as? Bool == true)
        let defaults = steps.record("create_defaults")
        #expect(defaults["enabled"] as? Bool == false && defaults["name"] is NSNull && defaults["secret"] is NSNull)
        #expect(defaults["idToken"] as? Bool == true && defaults["code"] as? Bool == false)
        #expect(steps.record("create_third")["enabled"] as? Bool == true)
        #expect(steps.refusal("create_duplicate").contains("CONFIGURATION_EXISTS"))
        #expect(steps.refusal("create_http_issuer").contains("INVALID_CONFIG"))
        #expect(NSDictionary(dictionary: steps.record("get")) == NSDictionary(dictionary: created))

        let updated = steps.record("update")
        #expect(updated["name"] as? String == "Alpha Renamed" && updated["enabled"] as? Bool == false)
        #expect(updated["clientId"] as? String == "alpha-client" && updated["code"] as? Bool == true,
                "fields the mask leaves out keep their values")
        #expect(NSDictionary(dictionary: steps.record("get_updated")) == NSDictionary(dictionary: updated))
        let enabled = steps.record("update_enable")
        #expect(enabled["enabled"] as? Bool == true && enabled["code"] as? Bool == false && enabled["secret"] as? String == "****7Q2Z")

        let paged = steps.record("list_paged")
        #expect(paged["first"] as? [String] == ["oidc.alpha", "oidc.beta"])
        #expect(paged["firstHasNext"] as? Bool == true)
        #expect(paged["second"] as? [String] == ["oidc.gamma"])
        #expect(paged["secondHasNext"] as? Bool == false)
        #expect(paged["all"] as? [String] == ["oidc.alpha", "oidc.beta", "oidc.gamma"])

        #expect(steps.value("delete") is NSNull)
        #expect(steps.refusal("get_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.refusal("delete_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.refusal("update_missing").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.value("list_after_delete") as? [String] == ["oidc.alpha", "oidc.gamma"])

        let tenantCreated = steps.record("tenant_create")
        #expect(tenantCreated["id"] as? String == "oidc.alpha" && tenantCreated["clientId"] as? String == "tenant-client")
        #expect(NSDictionary(dictionary: steps.record("tenant_get")) == NSDictionary(dictionary: tenantCreated))
        #expect(steps.record("tenant_update")["name"] as? String == "Tenant Alpha")
        #expect(steps.value("tenant_list") as? [String] == ["oidc.alpha"])
        #expect(steps.refusal("tenant_get_project_only").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.value("tenant_delete") is NSNull)
        #expect(steps.refusal("tenant_get_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.record("project_alpha_after_tenant")["clientId"] as? String == "alpha-client",
                "the tenant's changes leave the project's configuration alone")
        #expect(steps.refusal("missing_tenant").contains("TENANT_NOT_FOUND"))

        let audit = steps.record("audit_events")
        #expect(audit["status"] as? Int == 200)
        #expect(audit["kinds"] as? [String]
            == ["provider_config_created", "provider_config_created", "provider_config_created",
                "provider_config_deleted", "provider_config_updated", "provider_config_updated"],
            "the project's log; the tenant's changes are in the tenant's")
    }

    @Test("defaultSupportedIdpConfigs with Identity Platform's REST shapes: the file's providers locked, a tenant's own set")
    func defaultSupported() throws {
        let server = HearthProcess()
        try server.start()
        let listed = try Self.send(server, "GET", "\(Self.v2)/defaultSupportedIdpConfigs?pageSize=100")
        #expect(listed.status == 200, "\(listed.text)")
        let configs = try #require(listed.json["defaultSupportedIdpConfigs"] as? [[String: Any]], "\(listed.text)")
        let google = try #require(configs.first { ($0["name"] as? String)?.hasSuffix("/google.com") == true })
        #expect(google["name"] as? String == "projects/demo-hearth/defaultSupportedIdpConfigs/google.com")
        #expect(google["locked"] as? Bool == true && google["enabled"] as? Bool == true)
        #expect(google["clientId"] as? String == DevGoogle.clientID && google["clientSecret"] == nil)
        let locked = try Self.send(
            server, "PATCH", "\(Self.v2)/defaultSupportedIdpConfigs/google.com?updateMask=enabled", ["enabled": false])
        #expect(locked.status == 400 && locked.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(locked.text)")
        #expect(locked.errorMessage?.contains("config file") == true)

        let tenant = try server.postJSON(
            "\(Self.v2)/tenants", ["displayName": "Idp-Defaults"], headers: [("Authorization", "Bearer owner")])
        let tenantID = try #require((tenant.json["name"] as? String)?.split(separator: "/").last.map(String.init))
        let base = "\(Self.v2)/tenants/\(tenantID)/defaultSupportedIdpConfigs"
        let create = try Self.send(
            server, "POST", "\(base)?idpId=google.com",
            ["enabled": true, "clientId": "tenant.apps.googleusercontent.com", "clientSecret": "GOCSPX-tenant-secret-9XYZ"])
        #expect(create.status == 200, "\(create.text)")
        #expect(create.json["name"] as? String == "projects/demo-hearth/tenants/\(tenantID)/defaultSupportedIdpConfigs/google.com")
        #expect(create.json["enabled"] as? Bool == true && create.json["clientId"] as? String == "tenant.apps.googleusercontent.com")
        #expect(create.json["clientSecret"] as? String == "****9XYZ" && create.json["locked"] == nil)
        let get = try Self.send(server, "GET", "\(base)/google.com")
        #expect(NSDictionary(dictionary: get.json) == NSDictionary(dictionary: create.json))
        let patch = try Self.send(server, "PATCH", "\(base)/google.com?updateMask=enabled", ["enabled": false])
        #expect(patch.status == 200 && patch.json["enabled"] as? Bool == false && patch.json["clientSecret"] as? String == "****9XYZ")
        let refusals: [(String, String, [String: Any]?, String)] = [
            ("POST", "\(base)?idpId=facebook.com", ["clientId": "x"], "INVALID_PROVIDER_ID"),
            ("POST", "\(base)?idpId=google.com", ["clientId": "x"], "CONFIGURATION_EXISTS"),
            ("POST", "\(base)?idpId=apple.com", ["enabled": true], "MISSING_OAUTH_CLIENT_ID"),
            ("POST", "\(base)?idpId=apple.com", ["clientId": "x", "issuer": "https://x"], "INVALID_ARGUMENT"),
            ("PATCH", "\(base)/google.com?updateMask=issuer", ["enabled": true], "INVALID_ARGUMENT"),
            ("GET", "\(base)/apple.com", nil, "CONFIGURATION_NOT_FOUND"),
            ("GET", "\(base)?pageSize=0", nil, "INVALID_PAGE_SELECTION"),
            ("GET", "\(Self.v2)/tenants/ghost-tenant/defaultSupportedIdpConfigs", nil, "TENANT_NOT_FOUND"),
        ]
        for (method, path, body, code) in refusals {
            let answer = try Self.send(server, method, path, body)
            // INVALID_ARGUMENT is a canonical status: its envelope carries it as `status`, its message is a sentence.
            let found = code == "INVALID_ARGUMENT"
                ? (answer.json["error"] as? [String: Any])?["status"] as? String == code
                : answer.errorMessage?.hasPrefix(code) == true
            #expect(answer.status == 400 && found, "\(method) \(path): \(answer.text)")
        }
        let list = try Self.send(server, "GET", "\(base)?pageSize=1")
        #expect((list.json["defaultSupportedIdpConfigs"] as? [[String: Any]])?.count == 1 && list.json["nextPageToken"] == nil)
        let unauthorized = try server.request("GET", base)
        #expect(unauthorized.status == 401, "admin only: \(unauthorized.text)")
        #expect(try Self.send(server, "DELETE", "\(base)/google.com").status == 200)
        #expect(try Self.send(server, "GET", "\(base)/google.com").errorMessage?.hasPrefix("CONFIGURATION_NOT_FOUND") == true)
    }

    @Test("sign-in through an API-made oidc.* provider (found by discovery); disabled, then deleted, refused")
    func signIn() throws {
        let idp = HearthProcess()
        try idp.start()
        let server = HearthProcess()
        try server.start()
        let configs = "\(Self.v2)/oauthIdpConfigs"
        let create = try Self.send(
            server, "POST", "\(configs)?oauthIdpConfigId=oidc.partner",
            ["displayName": "Partner", "enabled": true, "clientId": DevGoogle.clientID, "issuer": "\(idp.baseURL)/dev/google"])
        #expect(create.status == 200, "\(create.text)")
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k"
        func signIn(_ email: String) throws -> HTTPResult {
            let tokens = try DevGoogle(server: idp).signIn(email: email)
            return try server.postJSON(path, [
                "requestUri": "http://localhost", "postBody": "providerId=oidc.partner&id_token=\(tokens.idToken)",
                "returnSecureToken": true, "returnIdpCredential": true,
            ])
        }
        let first = try signIn("partner@example.com")
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json["providerId"] as? String == "oidc.partner" && first.json["email"] as? String == "partner@example.com")
        let claims = JWTParts.claims(try SignedIn(first).idToken)
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "oidc.partner")

        let otherAudience = try Self.send(
            server, "POST", "\(configs)?oauthIdpConfigId=oidc.other",
            ["enabled": true, "clientId": "someone-else", "issuer": "\(idp.baseURL)/dev/google"])
        #expect(otherAudience.status == 200)
        let tokens = try DevGoogle(server: idp).signIn(email: "partner@example.com")
        let wrongAudience = try server.postJSON(path, ["requestUri": "http://localhost", "postBody": "providerId=oidc.other&id_token=\(tokens.idToken)"])
        #expect(wrongAudience.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "audience = clientId: \(wrongAudience.text)")

        let disable = try Self.send(server, "PATCH", "\(configs)/oidc.partner?updateMask=enabled", ["enabled": false])
        #expect(disable.status == 200 && disable.json["enabled"] as? Bool == false)
        let disabled = try signIn("partner@example.com")
        #expect(disabled.status == 400 && disabled.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(disabled.text)")
        _ = try Self.send(server, "PATCH", "\(configs)/oidc.partner?updateMask=enabled", ["enabled": true])
        let again = try signIn("partner@example.com")
        #expect(again.status == 200 && again.json["localId"] as? String == first.json["localId"] as? String, "\(again.text)")
        #expect(try Self.send(server, "DELETE", "\(configs)/oidc.partner").status == 200)
        let deleted = try signIn("partner@example.com")
        #expect(deleted.status == 400 && deleted.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(deleted.text)")
    }
}

/// Provider configurations are in the store: a configuration made or disabled through one instance's admin API is
/// taken, then refused, by the other instance's `signInWithIdp` within the directory's bound (5 s).
@Suite("Provider configurations on two instances on PostgreSQL (e2e)", .blocking, .serialized)
struct ProviderConfigTwoInstanceTests {
    /// Calls `attempt` every 250 ms until `done` holds for its answer, for at most `seconds`; the last answer.
    static func poll(for seconds: Double, _ attempt: () throws -> HTTPResult, until done: (HTTPResult) -> Bool) throws
        -> HTTPResult
    {
        let deadline = Date().addingTimeInterval(seconds)
        var answer = try attempt()
        while !done(answer), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            answer = try attempt()
        }
        return answer
    }

    @Test("created and enabled on A, B signs in within the bound; disabled on A, B refuses within it")
    func acrossInstances() throws {
        let idp = HearthProcess()
        try idp.start()
        let pair = try InstancePair()
        func signInOnB() throws -> HTTPResult {
            let tokens = try DevGoogle(server: idp).signIn(email: "pair@example.com")
            return try pair.b.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k", [
                "requestUri": "http://localhost", "postBody": "providerId=oidc.pair&id_token=\(tokens.idToken)",
                "returnSecureToken": true,
            ])
        }
        let before = try signInOnB()
        #expect(before.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "B caches the absence: \(before.text)")
        let configs = "\(ProviderConfigAdminSDKTests.v2)/oauthIdpConfigs"
        let create = try ProviderConfigAdminSDKTests.send(
            pair.a, "POST", "\(configs)?oauthIdpConfigId=oidc.pair",
            ["enabled": true, "clientId": DevGoogle.clientID, "issuer": "\(idp.baseURL)/dev/google"])
        #expect(create.status == 200, "\(create.text)")
        // The bound is 5 s; 3 s more for the requests themselves on a loaded machine.
        let taken = try Self.poll(for: 8, signInOnB) { $0.status == 200 }
        #expect(taken.status == 200 && taken.json["providerId"] as? String == "oidc.pair", "\(taken.text)")

        let disable = try ProviderConfigAdminSDKTests.send(
            pair.a, "PATCH", "\(configs)/oidc.pair?updateMask=enabled", ["enabled": false])
        #expect(disable.status == 200, "\(disable.text)")
        let refused = try Self.poll(for: 8, signInOnB) { $0.status == 400 }
        #expect(refused.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(refused.text)")
        let onB = try ProviderConfigAdminSDKTests.send(pair.b, "GET", "\(configs)/oidc.pair")
        #expect(onB.json["enabled"] as? Bool == false, "B's admin API reads the store: \(onB.text)")
    }
}
