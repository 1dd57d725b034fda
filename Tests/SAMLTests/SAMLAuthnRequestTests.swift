import Foundation
import Testing

@testable import SAML

@Suite("SAML AuthnRequest: the document, stored DEFLATE blocks, the redirect URL")
struct SAMLAuthnRequestTests {
    @Test("stored DEFLATE: 65,535-byte blocks, the last one final, each with its length and its complement")
    func deflate() {
        #expect(SAMLAuthnRequest.deflateStored([]) == [1, 0, 0, 0xFF, 0xFF])
        #expect(SAMLAuthnRequest.deflateStored([0x41, 0x42]) == [1, 2, 0, 0xFD, 0xFF, 0x41, 0x42])
        let big = [UInt8](repeating: 0x61, count: 65_536)
        let stream = SAMLAuthnRequest.deflateStored(big)
        #expect(stream.count == big.count + 10)
        #expect(Array(stream[0..<5]) == [0, 0xFF, 0xFF, 0, 0])
        #expect(Array(stream[65_540..<65_545]) == [1, 1, 0, 0xFE, 0xFF])
    }

    @Test("values are escaped in the document and the query; the SSO URL's own query is kept")
    func escaping() throws {
        let request = SAMLAuthnRequest(
            id: "_r\"1", serviceProvider: SAMLServiceProvider(entityID: "https://sp.example/<x>", assertionConsumerServiceURL: "https://sp.example/acs?a=1&b=2"),
            singleSignOnURL: "https://idp.example/sso?tenant=1", issueInstant: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(request.xml.contains(#"ID="_r&quot;1""#))
        #expect(request.xml.contains("<saml:Issuer>https://sp.example/&lt;x&gt;</saml:Issuer>"))
        #expect(request.xml.contains(#"AssertionConsumerServiceURL="https://sp.example/acs?a=1&amp;b=2""#))
        #expect(request.xml.contains(#"IssueInstant="2027-01-15T08:00:00Z""#))
        let url = request.redirectURL(relayState: "a b&c")
        #expect(url.hasPrefix("https://idp.example/sso?tenant=1&SAMLRequest="))
        #expect(url.hasSuffix("&RelayState=a%20b%26c"))
        let tree = try XMLTree.parse(Array(request.xml.utf8))
        #expect(tree.root.is(SAMLNamespace.protocol, "AuthnRequest") && tree.root.attribute("ID") == "_r\"1")
    }
}
