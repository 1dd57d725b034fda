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

    @Test("in a browser: the chooser adds an account and its page posts a signed response, with the relay state, to the ACS")
    func chooserInBrowser() throws {
        let server = HearthProcess()
        try server.start()
        let (entityID, sso, certificate) = try Self.metadata(server)
        let port = try unusedPort()
        let acs = "http://127.0.0.1:\(port)/saml/acs"
        let request = Self.request("_browser-1", acs: acs, sso: sso)
        try PythonClients.browser.get()
        let answer = try PythonClients.run(
            "saml_chooser.py", [request.redirectURL(relayState: "relay-1"), String(port), "grace@example.com", "Grace Hopper"])
        #expect(answer["chooser"] as? String == "Choose an account")
        #expect(answer["path"] as? String == "/saml/acs")
        let fields = try #require(answer["fields"] as? [String: String])
        #expect(fields["RelayState"] == "relay-1")
        let field = try #require(fields["SAMLResponse"])
        let xml = Array(try #require(Data(base64Encoded: field)))
        let idp = SAMLIdentityProvider(entityID: entityID, certificates: [certificate])
        let response = try SAMLResponse.read(xml, from: idp)
        try response.check(
            for: SAMLServiceProvider(entityID: Self.serviceProvider, assertionConsumerServiceURL: acs), idp: idp, now: Date()
        ) { $0 == "_browser-1" }
        #expect(response.responseIsSigned)
        #expect(response.assertion.nameID == "grace@example.com")
        #expect(response.assertion.attributes["displayName"] == ["Grace Hopper"])
    }
}
