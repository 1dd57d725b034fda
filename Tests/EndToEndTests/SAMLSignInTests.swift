import Foundation
import Testing

/// SAML sign-in on the built `hearth serve --dev` with pysaml2 (PyPI) as the identity provider: an `inboundSamlConfigs`
/// entry made through the admin API, `createAuthUri` answering the IdP's SSO URL with Hearth's AuthnRequest and a
/// `sessionId`, and `signInWithIdp` with the `SAMLResponse` as the Firebase JS SDK posts it. Signed responses and
/// signed assertions sign in (one account per NameID, the email never verified); each refusal answers
/// `INVALID_IDP_RESPONSE` (never a 500) and a replayed assertion is refused. A tenant's provider signs in only there.
@Suite("SAML sign-in with pysaml2 as the IdP against hearth serve --dev (e2e)", .blocking)
struct SAMLSignInTests {
    static let owner = [("Authorization", "Bearer owner"), ("Content-Type", "application/json")]
    static let v2 = "/identitytoolkit.googleapis.com/v2/projects/demo-hearth"
    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let idp = "https://idp.example.test/saml"
    static let spEntityID = "https://hearth.example.test/saml"
    static let callback = "https://demo-hearth.firebaseapp.com/__/auth/handler"

    /// pysaml2's base64 responses to `responses`, made with the IdP key in `directory` for `spEntityID`/`acsURL`.
    static func responses(
        _ responses: [[String: Any]], key: String, certificate: String, spEntityID: String = spEntityID,
        acsURL: String = callback, lifetimeMinutes: Int = 5
    ) throws -> [String] {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings: [String: Any] = [
            "idp_entity_id": idp, "key_file": key, "cert_file": certificate, "sp_entity_id": spEntityID,
            "acs_url": acsURL, "responses": responses, "lifetime_minutes": lifetimeMinutes,
        ]
        let file = directory.appendingPathComponent("settings.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        return try PythonClients.run("saml_idp.py", [file.path])["responses"] as? [String] ?? []
    }

    static func answer(
        _ inResponseTo: String, signResponse: Bool = true, signAssertion: Bool = false,
        nameID: String = "ada@idp.example.test", mail: String? = nil
    ) -> [String: Any] {
        [
            "in_response_to": inResponseTo, "name_id": nameID, "sign_response": signResponse,
            "sign_assertion": signAssertion,
            "attributes": ["mail": [mail ?? nameID], "givenName": ["Ada"], "sn": ["Lovelace"]],
        ]
    }

    static func send(_ server: HearthProcess, _ method: String, _ path: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.request(method, path, headers: owner, body: try JSONSerialization.data(withJSONObject: body))
    }

    static func samlConfig(certificate: String) -> [String: Any] {
        [
            "displayName": "Example IdP", "enabled": true,
            "idpConfig": ["idpEntityId": idp, "ssoUrl": idp + "/sso", "idpCertificates": [["x509Certificate": certificate]]],
            "spConfig": ["spEntityId": spEntityID, "callbackUri": callback],
        ]
    }

    /// `signInWithIdp` as the JS SDK sends it after the IdP posted to the callback.
    static func signIn(
        _ server: HearthProcess, _ response: String, sessionID: String, tenantID: String? = nil, requestURI: String = callback
    ) throws -> HTTPResult {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = response.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        var body: [String: Any] = [
            "requestUri": requestURI, "postBody": "SAMLResponse=\(encoded)&providerId=saml.example",
            "sessionId": sessionID, "returnSecureToken": true, "returnIdpCredential": true,
        ]
        if let tenantID { body["tenantId"] = tenantID }
        return try server.postJSON("\(v1)/accounts:signInWithIdp?key=k", body)
    }

    /// `createAuthUri` for `saml.example`: the authUri, the sessionId and the AuthnRequest id it carries.
    static func start(_ server: HearthProcess, tenantID: String? = nil) throws -> (authURI: String, sessionID: String, requestID: String) {
        var body: [String: Any] = ["providerId": "saml.example", "continueUri": callback]
        if let tenantID { body["tenantId"] = tenantID }
        let started = try server.postJSON("\(v1)/accounts:createAuthUri?key=k", body)
        #expect(started.status == 200, "\(started.text)")
        let sessionID = try #require(started.json["sessionId"] as? String, "\(started.text)")
        let requestID = try #require(ServiceAccountTests.claims(of: sessionID)["rid"] as? String)
        return (try #require(started.json["authUri"] as? String), sessionID, requestID)
    }

    @Test("signed responses and signed assertions sign in; unsigned, wrong audience or recipient, expired, unknown InResponseTo and replays are refused")
    func signInAndRefusals() throws {
        let server = HearthProcess()
        try server.start()
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (key, certificateFile) = try SAMLInteropTests.keyPair(in: directory, name: "idp")
        let certificate = try String(contentsOfFile: certificateFile, encoding: .utf8)
        let created = try Self.send(
            server, "POST", "\(Self.v2)/inboundSamlConfigs?inboundSamlConfigId=saml.example", Self.samlConfig(certificate: certificate))
        #expect(created.status == 200, "\(created.text)")

        let (authURI, sessionID, requestID) = try Self.start(server)
        let components = try #require(URLComponents(string: authURI))
        #expect(authURI.hasPrefix(Self.idp + "/sso?SAMLRequest="))
        let samlRequest = try #require(components.queryItems?.first { $0.name == "SAMLRequest" }?.value)
        // pysaml2 reads Hearth's AuthnRequest and answers it: signed response, then signed assertion.
        var first = Self.answer("")
        first["saml_request"] = samlRequest
        let good = try Self.responses(
            [
                first, Self.answer(requestID, signResponse: false, signAssertion: true, nameID: "grace@idp.example.test"),
                Self.answer(requestID, nameID: "mallory", mail: "ada@idp.example.test"),
            ],
            key: key, certificate: certificateFile)
        try #require(good.count == 3)

        let signedIn = try Self.signIn(server, good[0], sessionID: sessionID)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(signedIn.json["providerId"] as? String == "saml.example")
        #expect(signedIn.json["federatedId"] as? String == "ada@idp.example.test")
        #expect(signedIn.json["email"] as? String == "ada@idp.example.test")
        #expect(signedIn.json["emailVerified"] as? Bool != true, "a SAML email is never verified")
        #expect(signedIn.json["displayName"] as? String == "Ada Lovelace")
        let raw = try #require((signedIn.json["rawUserInfo"] as? String)?.data(using: .utf8))
        let attributes = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        #expect(attributes.values.contains { $0 as? String == "Ada" }, "\(attributes)")
        let claims = ServiceAccountTests.claims(of: try #require(signedIn.json["idToken"] as? String))
        let firebase = try #require(claims["firebase"] as? [String: Any])
        #expect(firebase["sign_in_provider"] as? String == "saml.example")
        #expect((firebase["identities"] as? [String: Any])?["saml.example"] as? [String] == ["ada@idp.example.test"])
        #expect(claims["email_verified"] as? Bool == false)
        let localID = try #require(signedIn.json["localId"] as? String)

        let again = try Self.signIn(server, good[1], sessionID: sessionID)
        #expect(again.status == 200, "\(again.text)")
        #expect(again.json["localId"] as? String != localID, "another NameID is another account")
        #expect(again.json["email"] as? String == "grace@idp.example.test" && again.json["idToken"] is String)
        // Another NameID claiming Ada's email: not verified, so it does not sign in to Ada's account.
        let claimed = try Self.signIn(server, good[2], sessionID: sessionID)
        #expect(claimed.status == 200 && claimed.json["needConfirmation"] as? Bool == true, "\(claimed.text)")
        #expect(claimed.json["idToken"] == nil, "\(claimed.text)")

        // The same assertion again: a replay.
        let replay = try Self.signIn(server, good[0], sessionID: sessionID)
        #expect(replay.status == 400 && replay.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(replay.text)")
        #expect(replay.errorMessage?.contains("replay") == true, "\(replay.text)")

        // Refusals, each a fresh assertion.
        let unsigned = try Self.responses(
            [Self.answer(requestID, signResponse: false, signAssertion: false), Self.answer("_not-a-request-of-hearth")],
            key: key, certificate: certificateFile)
        let wrongAudience = try Self.responses(
            [Self.answer(requestID)], key: key, certificate: certificateFile, spEntityID: "https://other.example.test/saml")
        let wrongRecipient = try Self.responses(
            [Self.answer(requestID)], key: key, certificate: certificateFile, acsURL: "https://other.example.test/handler")
        let expired = try Self.responses([Self.answer(requestID)], key: key, certificate: certificateFile, lifetimeMinutes: -30)
        let cases: [(String, String, String)] = [
            ("unsigned", try #require(unsigned.first), "unsigned"),
            ("unknown InResponseTo", try #require(unsigned.last), "unknownRequest"),
            ("wrong audience", try #require(wrongAudience.first), "wrongAudience"),
            ("wrong recipient", try #require(wrongRecipient.first), "wrongRecipient"),
            ("expired", try #require(expired.first), "expired"),
        ]
        for (name, response, code) in cases {
            let refused = try Self.signIn(server, response, sessionID: sessionID)
            #expect(refused.status == 400, "\(name): \(refused.text)")
            #expect(refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(name): \(refused.text)")
            #expect(refused.errorMessage?.contains("(\(code))") == true, "\(name): \(refused.text)")
        }
        // A good response with another session (a request it does not answer), a forged session, another requestUri.
        let (_, otherSession, _) = try Self.start(server)
        let fresh = try Self.responses([Self.answer(requestID, nameID: "alan@idp.example.test")], key: key, certificate: certificateFile)
        let otherRequest = try Self.signIn(server, try #require(fresh.first), sessionID: otherSession)
        #expect(otherRequest.errorMessage?.contains("(unknownRequest)") == true, "\(otherRequest.text)")
        let forged = try Self.signIn(server, try #require(fresh.first), sessionID: sessionID + "x")
        #expect(forged.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(forged.text)")
        let elsewhere = try Self.signIn(server, try #require(fresh.first), sessionID: sessionID, requestURI: "https://evil.example.test/cb")
        #expect(elsewhere.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(elsewhere.text)")
        let garbage = try Self.signIn(server, "PHNhbWxwOlJlc3BvbnNl", sessionID: sessionID)
        #expect(garbage.status == 400 && garbage.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(garbage.text)")
        // Still unused after the refusals: it signs in.
        let late = try Self.signIn(server, try #require(fresh.first), sessionID: sessionID)
        #expect(late.status == 200, "\(late.text)")

        // Disabled: the provider is not enabled any more.
        let disabled = try Self.send(server, "PATCH", "\(Self.v2)/inboundSamlConfigs/saml.example?updateMask=enabled", ["enabled": false])
        #expect(disabled.status == 200, "\(disabled.text)")
        let off = try Self.signIn(server, try #require(fresh.first), sessionID: sessionID)
        #expect(off.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(off.text)")
    }

    @Test("a tenant's saml.* signs in only in that tenant: its token names the tenant; the project does not know it")
    func tenantScoped() throws {
        let server = HearthProcess()
        try server.start()
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (key, certificateFile) = try SAMLInteropTests.keyPair(in: directory, name: "idp")
        let certificate = try String(contentsOfFile: certificateFile, encoding: .utf8)
        let tenant = try Self.send(server, "POST", "\(Self.v2)/tenants", ["displayName": "Acme"])
        let tenantID = try #require((tenant.json["name"] as? String)?.split(separator: "/").last.map(String.init), "\(tenant.text)")
        let created = try Self.send(
            server, "POST", "\(Self.v2)/tenants/\(tenantID)/inboundSamlConfigs?inboundSamlConfigId=saml.example",
            Self.samlConfig(certificate: certificate))
        #expect(created.status == 200, "\(created.text)")
        let projectStart = try server.postJSON(
            "\(Self.v1)/accounts:createAuthUri?key=k", ["providerId": "saml.example", "continueUri": Self.callback])
        #expect(projectStart.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(projectStart.text)")

        let (_, sessionID, requestID) = try Self.start(server, tenantID: tenantID)
        let responses = try Self.responses([Self.answer(requestID), Self.answer(requestID, nameID: "b@idp.example.test")], key: key, certificate: certificateFile)
        try #require(responses.count == 2)
        let atProject = try Self.signIn(server, responses[0], sessionID: sessionID)
        #expect(atProject.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(atProject.text)")
        let signedIn = try Self.signIn(server, responses[1], sessionID: sessionID, tenantID: tenantID)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        let claims = ServiceAccountTests.claims(of: try #require(signedIn.json["idToken"] as? String))
        #expect((claims["firebase"] as? [String: Any])?["tenant"] as? String == tenantID)
    }

    @Test("firebase-admin: create, get, update, list in pages, delete SAML configurations, their refusals; the same per tenant")
    func pythonSDK() throws {
        let server = HearthProcess()
        try server.start()
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try String(
            contentsOfFile: try SAMLInteropTests.keyPair(in: directory, name: "idp").certificate, encoding: .utf8)
        let other = try String(
            contentsOfFile: try SAMLInteropTests.keyPair(in: directory, name: "rolled").certificate, encoding: .utf8)
        let settings: [String: Any] = [
            "base": server.baseURL, "project": "demo-hearth", "certificate": certificate, "other_certificate": other,
        ]
        let steps = PythonSteps(try PythonClients.run(
            "saml_configs_sdk.py",
            [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]))

        let created = steps.record("create")
        #expect(created["id"] as? String == "saml.alpha" && created["name"] as? String == "Alpha")
        #expect(created["enabled"] as? Bool == true && created["idpEntityId"] as? String == Self.idp)
        #expect(created["ssoUrl"] as? String == Self.idp + "/sso")
        #expect(created["certificates"] as? [String] == [certificate])
        #expect(created["rpEntityId"] as? String == Self.spEntityID && created["callbackUrl"] as? String == Self.callback)
        #expect(steps.record("create_second")["enabled"] as? Bool == false, "enabled defaults to false")
        #expect(steps.refusal("create_duplicate").contains("CONFIGURATION_EXISTS"))
        #expect(steps.refusal("create_bad_certificate").contains("INVALID_CONFIG"))
        #expect(steps.refusal("create_http_sso").contains("INVALID_CONFIG"))
        #expect(steps.record("get")["name"] as? String == "Alpha")
        let updated = steps.record("update")
        #expect(updated["name"] as? String == "Alpha Renamed" && updated["enabled"] as? Bool == false)
        #expect(updated["certificates"] as? [String] == [certificate, other])
        #expect(updated["callbackUrl"] as? String == "https://app.example.test/__/auth/handler")
        #expect(updated["idpEntityId"] as? String == Self.idp, "fields the mask leaves out stay")
        #expect(steps.record("get_updated")["certificates"] as? [String] == [certificate, other])
        #expect(steps.refusal("update_bad_certificate").contains("INVALID_CONFIG"))
        let paged = steps.record("list_paged")
        #expect(paged["first"] as? [String] == ["saml.alpha", "saml.beta"] && paged["firstHasNext"] as? Bool == true)
        #expect(paged["second"] as? [String] == ["saml.gamma"] && paged["secondHasNext"] as? Bool == false)
        #expect(paged["all"] as? [String] == ["saml.alpha", "saml.beta", "saml.gamma"])
        #expect(steps.value("delete") is NSNull)
        #expect(steps.refusal("get_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.refusal("delete_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.value("list_after_delete") as? [String] == ["saml.alpha", "saml.gamma"])
        #expect(steps.value("oidc_list_untouched") as? [String] == [], "SAML configurations are not OIDC ones")

        let tenantCreated = steps.record("tenant_create")
        #expect(tenantCreated["idpEntityId"] as? String == "https://tenant-idp.example.test")
        #expect(steps.record("tenant_get")["name"] as? String == "Tenant Alpha")
        #expect(steps.record("tenant_update")["enabled"] as? Bool == false)
        #expect(steps.value("tenant_list") as? [String] == ["saml.alpha"])
        #expect(steps.refusal("tenant_get_project_only").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.value("tenant_delete") is NSNull)
        #expect(steps.refusal("tenant_get_deleted").hasPrefix("ConfigurationNotFoundError"))
        #expect(steps.record("project_alpha_after_tenant")["idpEntityId"] as? String == Self.idp)

        let audit = steps.record("audit_events")
        #expect(audit["status"] as? Int == 200)
        let details = audit["details"] as? [String] ?? []
        #expect(details.filter { $0.hasPrefix("provider_config_created config=inboundSamlConfigs") }.count == 3, "\(details)")
        #expect(details.contains { $0.hasPrefix("provider_config_updated config=inboundSamlConfigs fields=") }, "\(details)")
        #expect(details.contains("provider_config_deleted config=inboundSamlConfigs"), "\(details)")
    }
}
