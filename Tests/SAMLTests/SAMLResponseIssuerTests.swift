import Foundation
import Testing

@testable import SAML

/// The identity provider's side (the dev IdP's): Hearth's own redirect requests read back, and the responses it
/// signs accepted by ``SAMLResponse/read(_:from:)`` and its checks, and by nobody trusting another certificate.
@Suite("SAML identity provider side: requests received, responses issued")
struct SAMLResponseIssuerTests {
    static let request = SAMLAuthnRequest(
        id: "_req-42", serviceProvider: SAMLResponseTests.sp, singleSignOnURL: "http://127.0.0.1:9099/dev/saml/sso",
        issueInstant: SAMLResponseTests.now)
    static let issuer = SAMLResponseIssuer(
        entityID: SAMLResponseTests.idp.entityID, keyPEM: SAMLResponseTests.idpKey,
        certificatePEM: SAMLResponseTests.idpCertificate)

    /// The `SAMLRequest` parameter of `request`'s redirect URL, decoded.
    static func parameter(_ request: SAMLAuthnRequest) throws -> String {
        let url = try #require(URLComponents(string: request.redirectURL(relayState: "state-1")))
        return try #require(url.queryItems?.first { $0.name == "SAMLRequest" }?.value)
    }

    @Test("a request Hearth sends is read back: its id, its issuer, its ACS URL")
    func receivesHearthsRequest() throws {
        let received = try SAMLReceivedRequest.fromRedirect(try Self.parameter(Self.request))
        #expect(received == SAMLReceivedRequest(
            id: "_req-42", issuer: SAMLResponseTests.sp.entityID,
            assertionConsumerServiceURL: SAMLResponseTests.sp.assertionConsumerServiceURL))
    }

    @Test("refused: not base64, compressed or damaged blocks, bytes after the last block, a DTD, another document")
    func refusesOtherRequests() throws {
        func encoded(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        let xml = Array(Self.request.xml.utf8)
        let stored = SAMLAuthnRequest.deflateStored(xml)
        var damaged = stored
        damaged[3] ^= 1
        let cases: [(String, String)] = [
            ("not base64", "%%%"), ("compressed", encoded([0b011] + stored.dropFirst())), ("damaged", encoded(damaged)),
            ("cut short", encoded(Array(stored.prefix(20)))), ("trailing", encoded(stored + [0])),
            ("dtd", encoded(SAMLAuthnRequest.deflateStored(Array("<!DOCTYPE x []>".utf8) + xml))),
            ("response", encoded(SAMLAuthnRequest.deflateStored(Array(SAMLResponseTests.responseXML().utf8)))),
        ]
        for (name, parameter) in cases {
            #expect(throws: SAMLError.self, "\(name)") { try SAMLReceivedRequest.fromRedirect(parameter) }
        }
    }

    @Test("an issued response verifies (response and assertion signed), passes every check, and carries the subject")
    func issuedResponseIsAccepted() throws {
        let received = try SAMLReceivedRequest.fromRedirect(try Self.parameter(Self.request))
        let xml = try Self.issuer.response(
            to: received, nameID: "ada@example.com", attributes: [("email", "ada@example.com"), ("displayName", "Ada <L>")],
            now: SAMLResponseTests.now)
        let response = try SAMLResponse.read(xml, from: SAMLResponseTests.idp)
        #expect(response.responseIsSigned)
        try response.check(for: SAMLResponseTests.sp, idp: SAMLResponseTests.idp, now: SAMLResponseTests.now.addingTimeInterval(200)) {
            $0 == "_req-42"
        }
        #expect(response.assertion.nameID == "ada@example.com")
        #expect(response.assertion.attributes == ["email": ["ada@example.com"], "displayName": ["Ada <L>"]])
        #expect(response.assertion.expiresAt == SAMLResponseTests.now.addingTimeInterval(300))
        #expect(throws: SAMLError(.expired, "")) {
            try response.check(for: SAMLResponseTests.sp, idp: SAMLResponseTests.idp, now: SAMLResponseTests.now.addingTimeInterval(400)) { _ in true }
        }
        let outsider = SAMLIdentityProvider(entityID: SAMLResponseTests.idp.entityID, certificates: [SAMLResponseTests.outsiderCertificate])
        #expect(throws: SAMLError(.invalidSignature, "")) { try SAMLResponse.read(xml, from: outsider) }
        let again = try Self.issuer.response(to: received, nameID: "ada@example.com", attributes: [], now: SAMLResponseTests.now)
        #expect(try SAMLResponse.read(again, from: SAMLResponseTests.idp).assertion.id != response.assertion.id)
    }
}
