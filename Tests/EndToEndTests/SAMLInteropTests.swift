import Foundation
import SAML
import Testing

/// SAML responses made by a real identity provider, pysaml2 (PyPI) signing with Debian's xmlsec1, read and checked by
/// Hearth's SAML target: signed responses and signed assertions (RSA-SHA256) are accepted; the same documents
/// changed, checked for another service provider or against another certificate, unsigned, or signed with pysaml2's
/// old default RSA-SHA1 are refused.
@Suite("SAML with a real identity provider (pysaml2)", .blocking)
struct SAMLInteropTests {
    static let idp = "https://idp.example.test/saml"
    static let sp = SAMLServiceProvider(
        entityID: "https://hearth.example.test/saml", assertionConsumerServiceURL: "https://hearth.example.test/__/auth/handler")

    /// pysaml2's answers to `responses`, and the IdP's certificate.
    static func responses(_ responses: [[String: Any]]) throws -> (xml: [String], certificate: String) {
        let (xml, certificate, _) = try run(responses)
        return (xml, certificate)
    }

    /// pysaml2's answers to `responses`, the IdP's certificate, and all the script printed.
    static func run(_ responses: [[String: Any]]) throws -> (xml: [String], certificate: String, printed: [String: Any]) {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (key, certificate) = try Self.keyPair(in: directory, name: "idp")
        let settings: [String: Any] = [
            "idp_entity_id": idp, "key_file": key, "cert_file": certificate, "sp_entity_id": sp.entityID,
            "acs_url": sp.assertionConsumerServiceURL, "responses": responses,
        ]
        let settingsFile = directory.appendingPathComponent("settings.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: settingsFile)
        let printed = try PythonClients.run("saml_idp.py", [settingsFile.path])
        let encoded = printed["responses"] as? [String] ?? []
        return (
            encoded.map { String(decoding: Data(base64Encoded: $0) ?? Data(), as: UTF8.self) },
            try String(contentsOfFile: certificate, encoding: .utf8), printed)
    }

    /// A new RSA key and its self-signed certificate (openssl), as PEM files in `directory`.
    static func keyPair(in directory: URL, name: String) throws -> (key: String, certificate: String) {
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let certificate = directory.appendingPathComponent("\(name)-cert.pem").path
        let made = try runProgramSplit(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
             "-subj", "/CN=\(name)"])
        #expect(made.status == 0, "\(made.stderr)")
        return (key, certificate)
    }

    static func request(_ id: String, signResponse: Bool, signAssertion: Bool, sha1: Bool = false) -> [String: Any] {
        [
            "in_response_to": id, "name_id": "ada@idp.example.test", "sign_response": signResponse,
            "sign_assertion": signAssertion, "attributes": ["mail": ["ada@idp.example.test"], "givenName": ["Ada"]],
            "sha1": sha1,
        ]
    }

    @Test("pysaml2's signed responses and signed assertions verify and pass the checks; changed ones do not")
    func realIdentityProvider() throws {
        let (xml, certificate) = try Self.responses([
            Self.request("_req-1", signResponse: true, signAssertion: false),
            Self.request("_req-2", signResponse: false, signAssertion: true),
            Self.request("_req-3", signResponse: true, signAssertion: true),
            Self.request("_req-4", signResponse: false, signAssertion: false),
            Self.request("_req-5", signResponse: true, signAssertion: true, sha1: true),
        ])
        try #require(xml.count == 5)
        let idp = SAMLIdentityProvider(entityID: Self.idp, certificates: [certificate])
        for (index, document) in xml.prefix(3).enumerated() {
            let response = try SAMLResponse.read(Array(document.utf8), from: idp)
            #expect(response.assertion.nameID == "ada@idp.example.test", "\(index)")
            #expect(response.responseIsSigned == (index != 1), "\(index)")
            #expect(response.assertion.attributes.values.contains(["ada@idp.example.test"]), "\(response.assertion.attributes)")
            try response.check(for: Self.sp, idp: idp, now: Date()) { $0 == "_req-\(index + 1)" }
            // Another service provider, or a request this one never sent, is refused.
            let other = SAMLServiceProvider(entityID: "https://other.example.test", assertionConsumerServiceURL: Self.sp.assertionConsumerServiceURL)
            #expect(throws: SAMLError(.wrongAudience, "")) { try response.check(for: other, idp: idp, now: Date()) { _ in true } }
            #expect(throws: SAMLError(.unknownRequest, "")) { try response.check(for: Self.sp, idp: idp, now: Date()) { _ in false } }
            #expect(throws: SAMLError(.expired, "")) {
                try response.check(for: Self.sp, idp: idp, now: Date().addingTimeInterval(3600)) { _ in true }
            }
            let changed = document.replacingOccurrences(of: "ada@idp.example.test", with: "eve@idp.example.test")
            #expect(throws: SAMLError(.invalidSignature, "")) { _ = try SAMLResponse.read(Array(changed.utf8), from: idp) }
        }
        #expect(throws: SAMLError(.unsigned, "")) { _ = try SAMLResponse.read(Array(xml[3].utf8), from: idp) }
        #expect(xml[4].contains("xmldsig#rsa-sha1"))
        #expect(throws: SAMLError(.invalidSignature, ""), "SHA-1 signatures are refused") {
            _ = try SAMLResponse.read(Array(xml[4].utf8), from: idp)
        }
        // The same documents against another IdP's certificate.
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stranger = SAMLIdentityProvider(
            entityID: Self.idp,
            certificates: [try String(contentsOfFile: try Self.keyPair(in: directory, name: "stranger").certificate, encoding: .utf8)])
        for document in xml.prefix(3) {
            #expect(throws: SAMLError(.invalidSignature, "")) { _ = try SAMLResponse.read(Array(document.utf8), from: stranger) }
        }
    }

    @Test("SP-initiated: pysaml2 reads Hearth's AuthnRequest (HTTP-Redirect, DEFLATE) and its response answers that request")
    func serviceProviderInitiated() throws {
        let request = SAMLAuthnRequest(
            id: "_hearth-request-1", serviceProvider: Self.sp, singleSignOnURL: Self.idp + "/sso", issueInstant: Date())
        let url = try #require(URLComponents(string: request.redirectURL(relayState: "state é&1")))
        #expect(url.queryItems?.first { $0.name == "RelayState" }?.value == "state é&1")
        let samlRequest = try #require(url.queryItems?.first { $0.name == "SAMLRequest" }?.value)
        var answer = Self.request("", signResponse: true, signAssertion: false)
        answer["saml_request"] = samlRequest
        let (xml, certificate, printed) = try Self.run([answer])
        let read = try #require((printed["requests"] as? [[String: Any]])?.first)
        #expect(read["id"] as? String == "_hearth-request-1")
        #expect(read["acs"] as? String == Self.sp.assertionConsumerServiceURL)
        #expect(read["issuer"] as? String == Self.sp.entityID)
        #expect(read["destination"] as? String == Self.idp + "/sso")
        let idp = SAMLIdentityProvider(entityID: Self.idp, certificates: [certificate])
        let response = try SAMLResponse.read(Array(try #require(xml.first).utf8), from: idp)
        #expect(response.inResponseTo == "_hearth-request-1")
        try response.check(for: Self.sp, idp: idp, now: Date()) { $0 == request.id }
    }
}
