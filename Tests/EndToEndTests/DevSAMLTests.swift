import Foundation
import SAML
import Testing

/// `--dev`'s SAML identity provider at `/dev/saml`, against the built binary: its metadata, its refusals, its key kept
/// across restarts, and its chooser in a real browser (headless Chromium driven by selenium).
@Suite("Dev SAML IdP (e2e)", .blocking)
struct DevSAMLTests {
    static let serviceProvider = "https://app.example.com/saml-sp"

    /// The metadata's entity id, single sign-on URL and signing certificate (as PEM).
    static func metadata(_ server: HearthProcess) throws -> (entityID: String, sso: String, certificate: String) {
        let answer = try server.request("GET", "/dev/saml/metadata")
        #expect(answer.status == 200 && answer.header("Content-Type") == "application/samlmetadata+xml; charset=utf-8")
        func first(_ pattern: String) throws -> String {
            let match = try #require(answer.text.firstMatch(of: try Regex(pattern)), "\(pattern) in \(answer.text)")
            return String(try #require(match.output[1].substring))
        }
        let body = try first("<ds:X509Certificate>([A-Za-z0-9+/=]+)</ds:X509Certificate>")
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END CERTIFICATE-----")
        return (
            try first(#"entityID="([^"]+)""#), try first(#"Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="([^"]+)""#),
            lines.joined(separator: "\n") + "\n"
        )
    }

    /// A request of the service provider, answered at `acs`.
    static func request(_ id: String, acs: String, sso: String) -> SAMLAuthnRequest {
        SAMLAuthnRequest(
            id: id, serviceProvider: SAMLServiceProvider(entityID: serviceProvider, assertionConsumerServiceURL: acs),
            singleSignOnURL: sso, issueInstant: Date())
    }

    /// The `SAMLRequest` of `request`'s redirect URL.
    static func parameter(_ request: SAMLAuthnRequest) throws -> String {
        try #require(URLComponents(string: request.redirectURL(relayState: nil))?.queryItems?.first { $0.name == "SAMLRequest" }?.value)
    }

    /// Adds `email` on the chooser without a browser; the HTTP-POST page's `SAMLResponse`, decoded.
    static func answer(_ server: HearthProcess, _ request: SAMLAuthnRequest, email: String) throws -> [UInt8] {
        let form = FormBody.encode([("SAMLRequest", try parameter(request)), ("action", "add"), ("email", email), ("name", "Ada")])
        let page = try server.request(
            "POST", "/dev/saml/sso", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8))
        #expect(page.status == 200, "\(page.text.prefix(400))")
        let posted = DevApple.form(page.text)
        #expect(posted.action == request.serviceProvider.assertionConsumerServiceURL)
        let field = try #require(posted.fields["SAMLResponse"])
        return Array(try #require(Data(base64Encoded: field)))
    }

    @Test("metadata names the IdP; foreign ACS URLs and malformed requests are refused; the key outlives a restart")
    func metadataRefusalsAndRestart() throws {
        let server = HearthProcess()
        try server.start()
        #expect(server.lines.contains("  Dev SAML IdP       http://127.0.0.1:\(server.port)/dev/saml/metadata"))
        let (entityID, sso, certificate) = try Self.metadata(server)
        #expect(entityID == "http://127.0.0.1:\(server.port)/dev/saml")
        #expect(sso == "http://127.0.0.1:\(server.port)/dev/saml/sso")

        for acs in ["https://evil.example/acs", "http://evil\\@127.0.0.1/acs", "javascript:alert(1)"] {
            let foreign = try Self.parameter(Self.request("_foreign", acs: acs, sso: sso))
            let refused = try server.request("GET", "/dev/saml/sso?" + FormBody.encode([("SAMLRequest", foreign)]))
            #expect(refused.status == 400 && !refused.text.contains("SAMLResponse"), "\(acs)")
        }
        #expect(try server.request("GET", "/dev/saml/sso?SAMLRequest=bm90LWRlZmxhdGU%3D").status == 400)
        #expect(try server.request("GET", "/dev/saml/sso").status == 400)

        let key = server.dataDirectory.appendingPathComponent("dev-saml-idp-key.pem")
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try server.restart()
        let acs = "http://127.0.0.1:\(server.port)/acs"
        let xml = try Self.answer(server, Self.request("_after-restart", acs: acs, sso: sso), email: "ada@example.com")
        let idp = SAMLIdentityProvider(entityID: entityID, certificates: [certificate])
        let response = try SAMLResponse.read(xml, from: idp)
        try response.check(
            for: SAMLServiceProvider(entityID: Self.serviceProvider, assertionConsumerServiceURL: acs), idp: idp, now: Date()
        ) { $0 == "_after-restart" }
        #expect(response.assertion.nameID == "ada@example.com")
    }

    @Test("in a browser: a saml.* provider made from the dev IdP's metadata signs in through its chooser and HTTP-POST page")
    func signInInBrowser() throws {
        let server = HearthProcess()
        try server.start()
        let (entityID, sso, certificate) = try Self.metadata(server)
        let port = try unusedPort()
        let callback = "http://127.0.0.1:\(port)/__/auth/handler"
        let config: [String: Any] = [
            "displayName": "Dev SAML", "enabled": true,
            "idpConfig": ["idpEntityId": entityID, "ssoUrl": sso, "idpCertificates": [["x509Certificate": certificate]]],
            "spConfig": ["spEntityId": Self.serviceProvider, "callbackUri": callback],
        ]
        let created = try SAMLSignInTests.send(
            server, "POST", "\(SAMLSignInTests.v2)/inboundSamlConfigs?inboundSamlConfigId=saml.dev", config)
        #expect(created.status == 200, "\(created.text)")
        let started = try server.postJSON(
            "\(SAMLSignInTests.v1)/accounts:createAuthUri?key=k", ["providerId": "saml.dev", "continueUri": callback])
        let authURI = try #require(started.json["authUri"] as? String, "\(started.text)")
        let sessionID = try #require(started.json["sessionId"] as? String)
        #expect(authURI.hasPrefix(sso + "?SAMLRequest="))

        try PythonClients.browser.get()
        let answer = try PythonClients.run("saml_chooser.py", [authURI, String(port), "grace@example.com", "Grace Hopper"])
        #expect(answer["chooser"] as? String == "Choose an account")
        #expect(answer["path"] as? String == "/__/auth/handler")
        let fields = try #require(answer["fields"] as? [String: String])
        let response = try #require(fields["SAMLResponse"])
        // What the Firebase JS SDK's handler sends once the IdP has posted to it.
        let body = FormBody.encode([("SAMLResponse", response)])
        let signedIn = try server.postJSON("\(SAMLSignInTests.v1)/accounts:signInWithIdp?key=k", [
            "requestUri": callback, "postBody": body, "sessionId": sessionID, "returnSecureToken": true,
        ])
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(signedIn.json["providerId"] as? String == "saml.dev")
        #expect(signedIn.json["email"] as? String == "grace@example.com")
        #expect(signedIn.json["displayName"] as? String == "Grace Hopper")
        #expect(signedIn.json["emailVerified"] as? Bool != true)
        let claims = ServiceAccountTests.claims(of: try #require(signedIn.json["idToken"] as? String))
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "saml.dev")
        // The same answer again is a replay.
        let again = try server.postJSON("\(SAMLSignInTests.v1)/accounts:signInWithIdp?key=k", [
            "requestUri": callback, "postBody": body, "sessionId": sessionID, "returnSecureToken": true,
        ])
        #expect(again.status == 400 && again.text.contains("INVALID_IDP_RESPONSE"), "\(again.text)")
    }
}
