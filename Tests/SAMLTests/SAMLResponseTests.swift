import Foundation
import Testing

@testable import SAML

/// Signed SAML responses made here with libxmlsec1 (the same library the dev IdP signs with), then read back; each
/// refusal is the attack it names. The real outside IdP (pysaml2) is in the end-to-end tests.
@Suite("SAML responses: signatures, wrapping, DTDs and the checks")
struct SAMLResponseTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static func pem(_ name: String) -> String {
        (try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }
    static let idpKey = pem("idp-key.pem")
    static let idpCertificate = pem("idp-cert.pem")
    static let outsiderKey = pem("outsider-key.pem")
    static let outsiderCertificate = pem("outsider-cert.pem")

    static let idp = SAMLIdentityProvider(entityID: "https://idp.example.com/metadata", certificates: [idpCertificate])
    static let sp = SAMLServiceProvider(
        entityID: "https://hearth.example.com/saml", assertionConsumerServiceURL: "https://hearth.example.com/__/auth/handler")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func time(_ offset: TimeInterval) -> String {
        Date.ISO8601FormatStyle().format(now.addingTimeInterval(offset))
    }

    /// A response as an IdP writes it; `extra` goes inside the response before the assertion.
    static func responseXML(
        issuer: String = idp.entityID, destination: String = sp.assertionConsumerServiceURL, audience: String = sp.entityID,
        recipient: String = sp.assertionConsumerServiceURL, notBefore: TimeInterval = -30, notOnOrAfter: TimeInterval = 300,
        inResponseTo: String = "_req-1", status: String = "urn:oasis:names:tc:SAML:2.0:status:Success",
        nameID: String = "ada@idp.example.com", extra: String = "", assertionID: String = "_a1"
    ) -> String {
        """
        <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
        ID="_r1" Version="2.0" IssueInstant="\(time(0))" Destination="\(destination)" InResponseTo="\(inResponseTo)">\
        <saml:Issuer>\(issuer)</saml:Issuer>\
        <samlp:Status><samlp:StatusCode Value="\(status)"/></samlp:Status>\(extra)\
        <saml:Assertion ID="\(assertionID)" Version="2.0" IssueInstant="\(time(0))">\
        <saml:Issuer>\(issuer)</saml:Issuer>\
        <saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">\(nameID)</saml:NameID>\
        <saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">\
        <saml:SubjectConfirmationData Recipient="\(recipient)" NotOnOrAfter="\(time(notOnOrAfter))" InResponseTo="\(inResponseTo)"/>\
        </saml:SubjectConfirmation></saml:Subject>\
        <saml:Conditions NotBefore="\(time(notBefore))" NotOnOrAfter="\(time(notOnOrAfter))">\
        <saml:AudienceRestriction><saml:Audience>\(audience)</saml:Audience></saml:AudienceRestriction></saml:Conditions>\
        <saml:AuthnStatement AuthnInstant="\(time(0))" SessionIndex="s-1"/>\
        <saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>ada@idp.example.com</saml:AttributeValue></saml:Attribute>\
        <saml:Attribute Name="groups"><saml:AttributeValue>staff</saml:AttributeValue><saml:AttributeValue>ops</saml:AttributeValue></saml:Attribute>\
        </saml:AttributeStatement></saml:Assertion></samlp:Response>
        """
    }

    enum Signed { case assertion, response, both, neither }

    /// `xml` with the chosen parts signed by `key`.
    static func signed(_ xml: String, _ parts: Signed = .assertion, key: String = idpKey, certificate: String = idpCertificate)
        throws -> String
    {
        let tree = try XMLTree.parse(Array(xml.utf8))
        let root = tree.root
        let assertion = try #require(root.child(SAMLNamespace.assertion, "Assertion"))
        if parts == .assertion || parts == .both {
            try tree.sign(assertion, after: assertion.child(SAMLNamespace.assertion, "Issuer"), keyPEM: key, certificatePEM: certificate)
        }
        if parts == .response || parts == .both {
            try tree.sign(root, after: root.child(SAMLNamespace.assertion, "Issuer"), keyPEM: key, certificatePEM: certificate)
        }
        return String(decoding: tree.serialized(), as: UTF8.self)
    }

    static func read(_ xml: String) throws(SAMLError) -> SAMLResponse {
        try SAMLResponse.read(Array(xml.utf8), from: idp)
    }

    static func code(_ xml: String) -> SAMLError.Code? {
        do {
            let response = try read(xml)
            try response.check(for: sp, idp: idp, now: now) { $0 == "_req-1" }
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a signed assertion, a signed response, or both, verify and give the subject, attributes and times")
    func verifies() throws {
        for parts: Signed in [.assertion, .response, .both] {
            let response = try Self.read(try Self.signed(Self.responseXML(), parts))
            #expect(response.responseIsSigned == (parts != .assertion))
            #expect(response.assertion.nameID == "ada@idp.example.com")
            #expect(response.assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress")
            #expect(response.assertion.attributes == ["email": ["ada@idp.example.com"], "groups": ["staff", "ops"]])
            #expect(response.assertion.audiences == [Self.sp.entityID])
            #expect(response.assertion.id == "_a1" && response.inResponseTo == "_req-1" && response.assertion.sessionIndex == "s-1")
            #expect(response.assertion.expiresAt == Self.now.addingTimeInterval(300))
            try response.check(for: Self.sp, idp: Self.idp, now: Self.now) { $0 == "_req-1" }
        }
    }

    @Test("unsigned, signed by another key, or changed after signing: refused")
    func signatures() throws {
        #expect(Self.code(Self.responseXML()) == .unsigned)
        #expect(Self.code(try Self.signed(Self.responseXML(), key: Self.outsiderKey, certificate: Self.outsiderCertificate))
            == .invalidSignature)
        let signed = try Self.signed(Self.responseXML(), .both)
        #expect(Self.code(signed.replacingOccurrences(of: "ada@idp.example.com</saml:NameID>", with: "eve@idp.example.com</saml:NameID>"))
            == .invalidSignature)
        let assertionSigned = try Self.signed(Self.responseXML())
        #expect(Self.code(assertionSigned.replacingOccurrences(of: ">staff<", with: ">admin<")) == .invalidSignature)
        // Downgrading the algorithm breaks the signature: SHA-1 is not among those allowed either way.
        #expect(Self.code(assertionSigned.replacingOccurrences(of: "xmldsig-more#rsa-sha256", with: "xmldsig#rsa-sha1"))
            == .invalidSignature)
        // A response signed only outside, with the assertion changed, fails too.
        let responseSigned = try Self.signed(Self.responseXML(), .response)
        #expect(Self.code(responseSigned.replacingOccurrences(of: ">ops<", with: ">root<")) == .invalidSignature)
    }

    @Test("signature wrapping: a second assertion anywhere, duplicate IDs, or a signature moved onto another element")
    func wrapping() throws {
        let signed = try Self.signed(Self.responseXML())
        let start = try #require(signed.range(of: "<saml:Assertion"))
        let end = try #require(signed.range(of: "</saml:Assertion>"))
        let original = String(signed[start.lowerBound..<end.upperBound])
        let forged = Self.responseXML(nameID: "eve@idp.example.com", assertionID: "_evil")
        let forgedAssertion = String(forged[try #require(forged.range(of: "<saml:Assertion"))!.lowerBound...])
            .replacingOccurrences(of: "</samlp:Response>", with: "")
        // The signed original hidden in Extensions, the forgery where it is read.
        let hidden = signed.replacingOccurrences(
            of: original, with: "<samlp:Extensions>\(original)</samlp:Extensions>\(forgedAssertion)")
        #expect(Self.code(hidden) == .ambiguous)
        // The forgery beside the original.
        #expect(Self.code(signed.replacingOccurrences(of: original, with: original + forgedAssertion)) == .ambiguous)
        // The same ID twice.
        let twice = signed.replacingOccurrences(of: "<samlp:Status>", with: "<samlp:Extensions ID=\"_a1\"/><samlp:Status>")
        #expect(Self.code(twice) == .ambiguous)

        // A signature made over another element (Extensions, ID _x1), moved into the assertion: it verifies, but
        // covers Extensions, not the assertion it now sits in.
        let withExtensions = Self.responseXML(extra: "<samlp:Extensions ID=\"_x1\"><saml:Issuer>x</saml:Issuer></samlp:Extensions>")
        let tree = try XMLTree.parse(Array(withExtensions.utf8))
        let extensions = try #require(tree.root.child(SAMLNamespace.protocol, "Extensions"))
        try tree.sign(extensions, after: nil, keyPEM: Self.idpKey, certificatePEM: Self.idpCertificate)
        let text = String(decoding: tree.serialized(), as: UTF8.self)
        let signatureStart = try #require(text.range(of: "<Signature"))
        let signatureEnd = try #require(text.range(of: "</Signature>"))
        let signature = String(text[signatureStart.lowerBound..<signatureEnd.upperBound])
        let moved = text.replacingOccurrences(of: signature, with: "")
            .replacingOccurrences(
                of: "<saml:Issuer>\(Self.idp.entityID)</saml:Issuer><saml:Subject>",
                with: "<saml:Issuer>\(Self.idp.entityID)</saml:Issuer>\(signature)<saml:Subject>")
        #expect(moved.contains(signature) && !moved.contains("_x1\">\(signature)"))
        #expect(Self.code(moved) == .wrongReference)
    }

    @Test("a DTD, an entity (XXE, billion laughs), an encrypted assertion or a non-response: refused before use")
    func documents() throws {
        let xxe = """
            <?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\
            <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>
            """
        #expect(Self.code(xxe) == .documentTypeDeclared)
        let laughs = "<!DOCTYPE l [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><l>&b;</l>"
        #expect(Self.code(laughs) == .documentTypeDeclared)
        #expect(Self.code("<samlp:Response") == .malformed)
        #expect(Self.code("<notSAML/>") == .malformed)
        #expect(Self.code(String(repeating: " ", count: XMLTree.maximumSize + 1)) == .malformed)
        let encrypted = Self.responseXML(extra: "<saml:EncryptedAssertion/>")
        #expect(Self.code(encrypted) == .encryptedAssertion)
    }

    @Test("checks: audience, recipient, destination, issuer, status, times (with the skew) and InResponseTo")
    func checks() throws {
        func code(_ xml: String) throws -> SAMLError.Code? { Self.code(try Self.signed(xml)) }
        #expect(try code(Self.responseXML()) == nil)
        #expect(try code(Self.responseXML(audience: "https://other.example.com")) == .wrongAudience)
        #expect(try code(Self.responseXML(recipient: "https://evil.example.com/acs")) == .wrongRecipient)
        #expect(try code(Self.responseXML(destination: "https://evil.example.com/acs")) == .wrongRecipient)
        #expect(try code(Self.responseXML(issuer: "https://evil.example.com")) == .wrongIssuer)
        #expect(try code(Self.responseXML(status: "urn:oasis:names:tc:SAML:2.0:status:Requester")) == .notSuccessful)
        #expect(try code(Self.responseXML(notOnOrAfter: -61)) == .expired)
        #expect(try code(Self.responseXML(notOnOrAfter: -59)) == nil, "within the 60 s skew")
        #expect(try code(Self.responseXML(notBefore: 61)) == .notYetValid)
        #expect(try code(Self.responseXML(inResponseTo: "_req-never-sent")) == .unknownRequest)
        #expect(try code(Self.responseXML(nameID: "")) == .missingSubject)
    }
}
