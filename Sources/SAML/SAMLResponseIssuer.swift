public import Foundation

/// An `AuthnRequest` as the identity provider receives it with the HTTP-Redirect binding: who asks, for which
/// request, and where the answer goes.
public struct SAMLReceivedRequest: Sendable, Equatable {
    public var id: String
    /// The service provider's entity id (the audience of the answer).
    public var issuer: String
    /// Where the response is posted (its `Destination`, the confirmation's `Recipient`).
    public var assertionConsumerServiceURL: String

    public init(id: String, issuer: String, assertionConsumerServiceURL: String) {
        self.id = id
        self.issuer = issuer
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
    }

    /// Reads the `SAMLRequest` query parameter: base64 of a raw DEFLATE stream made of stored blocks, as
    /// ``SAMLAuthnRequest/redirectURL(relayState:)`` makes it (compressed blocks are refused: the reader is for
    /// Hearth's own requests), holding a `samlp:AuthnRequest` with an `ID`, an `Issuer` and an ACS URL.
    public static func fromRedirect(_ parameter: String) throws(SAMLError) -> SAMLReceivedRequest {
        guard let deflated = Data(base64Encoded: parameter) else {
            throw SAMLError(.malformed, "SAMLRequest is not base64")
        }
        let tree = try XMLTree.parse(try inflateStored(Array(deflated)))
        let root = tree.root
        guard root.is(SAMLNamespace.protocol, "AuthnRequest") else {
            throw SAMLError(.malformed, "the request is not a samlp:AuthnRequest")
        }
        guard let id = root.attribute("ID"), !id.isEmpty,
            let issuer = root.child(SAMLNamespace.assertion, "Issuer")?.text, !issuer.isEmpty,
            let acs = root.attribute("AssertionConsumerServiceURL"), !acs.isEmpty
        else { throw SAMLError(.malformed, "the request needs an ID, an Issuer and an AssertionConsumerServiceURL") }
        return SAMLReceivedRequest(id: id, issuer: issuer, assertionConsumerServiceURL: acs)
    }

    /// The bytes of a raw DEFLATE stream of stored blocks (RFC 1951 §3.2.4): each a header byte (BFINAL, BTYPE 00),
    /// LEN, its one's complement, and LEN bytes.
    static func inflateStored(_ stream: [UInt8]) throws(SAMLError) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while true {
            guard index + 5 <= stream.count else { throw SAMLError(.malformed, "SAMLRequest is cut short") }
            let header = stream[index]
            guard header & 0b110 == 0 else { throw SAMLError(.malformed, "SAMLRequest holds compressed blocks") }
            let length = Int(stream[index + 1]) | Int(stream[index + 2]) << 8
            let complement = Int(stream[index + 3]) | Int(stream[index + 4]) << 8
            guard length ^ complement == 0xFFFF, index + 5 + length <= stream.count else {
                throw SAMLError(.malformed, "SAMLRequest has a damaged block")
            }
            output += stream[(index + 5)..<(index + 5 + length)]
            index += 5 + length
            guard output.count <= XMLTree.maximumSize else { throw SAMLError(.malformed, "SAMLRequest is too large") }
            if header & 1 == 1 { break }
        }
        guard index == stream.count else { throw SAMLError(.malformed, "SAMLRequest has bytes after its last block") }
        return output
    }
}

/// An identity provider that answers requests with a `samlp:Response` whose response and assertion are both signed
/// (RSA-SHA256 over exclusive C14N, by libxmlsec1, the certificate in `KeyInfo`): the dev IdP at `/dev/saml`.
public struct SAMLResponseIssuer: Sendable {
    public var entityID: String
    /// An RSA private key (PEM) and its certificate (PEM), which service providers configure.
    public var keyPEM: String
    public var certificatePEM: String

    public init(entityID: String, keyPEM: String, certificatePEM: String) {
        self.entityID = entityID
        self.keyPEM = keyPEM
        self.certificatePEM = certificatePEM
    }

    /// The signed response (the XML the `SAMLResponse` form field carries, before base64) to `request`, saying that
    /// `nameID` (an email address) signed in with `attributes`, valid from `now` for `lifetime` seconds.
    public func response(
        to request: SAMLReceivedRequest, nameID: String, attributes: [(name: String, value: String)], now: Date,
        lifetime: TimeInterval = 300
    ) throws(SAMLError) -> [UInt8] {
        func text(_ value: String) -> String { SAMLAuthnRequest.escaped(value) }
        let times = Date.ISO8601FormatStyle()
        let issued = times.format(now), ends = times.format(now.addingTimeInterval(lifetime))
        let statements = attributes.map {
            "<saml:Attribute Name=\"\(text($0.name))\"><saml:AttributeValue>\(text($0.value))</saml:AttributeValue></saml:Attribute>"
        }.joined()
        let xml = """
            <samlp:Response xmlns:samlp="\(SAMLNamespace.protocol)" xmlns:saml="\(SAMLNamespace.assertion)" \
            ID="\(Self.newID())" Version="2.0" IssueInstant="\(issued)" \
            Destination="\(text(request.assertionConsumerServiceURL))" InResponseTo="\(text(request.id))">\
            <saml:Issuer>\(text(entityID))</saml:Issuer>\
            <samlp:Status><samlp:StatusCode Value="\(SAMLResponse.success)"/></samlp:Status>\
            <saml:Assertion ID="\(Self.newID())" Version="2.0" IssueInstant="\(issued)">\
            <saml:Issuer>\(text(entityID))</saml:Issuer>\
            <saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">\(text(nameID))</saml:NameID>\
            <saml:SubjectConfirmation Method="\(SAMLResponse.bearer)"><saml:SubjectConfirmationData \
            InResponseTo="\(text(request.id))" NotOnOrAfter="\(ends)" Recipient="\(text(request.assertionConsumerServiceURL))"/>\
            </saml:SubjectConfirmation></saml:Subject>\
            <saml:Conditions NotBefore="\(issued)" NotOnOrAfter="\(ends)"><saml:AudienceRestriction>\
            <saml:Audience>\(text(request.issuer))</saml:Audience></saml:AudienceRestriction></saml:Conditions>\
            <saml:AuthnStatement AuthnInstant="\(issued)" SessionIndex="\(Self.newID())"><saml:AuthnContext>\
            <saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef>\
            </saml:AuthnContext></saml:AuthnStatement>\
            <saml:AttributeStatement>\(statements)</saml:AttributeStatement>\
            </saml:Assertion></samlp:Response>
            """
        let tree = try XMLTree.parse(Array(xml.utf8))
        let root = tree.root
        guard let assertion = root.child(SAMLNamespace.assertion, "Assertion") else {
            throw SAMLError(.malformed, "the response was made without its assertion")
        }
        // The assertion first: the response's signature then covers the assertion's.
        try tree.sign(
            assertion, after: assertion.child(SAMLNamespace.assertion, "Issuer"), keyPEM: keyPEM,
            certificatePEM: certificatePEM)
        try tree.sign(root, after: root.child(SAMLNamespace.assertion, "Issuer"), keyPEM: keyPEM, certificatePEM: certificatePEM)
        return tree.serialized()
    }

    /// `_` and 32 random hex digits: an NCName no one can guess.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "_" + (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
