public import Foundation

/// An identity provider as a service provider knows it: its entity id and the certificates its signatures verify with
/// (PEM; more than one while it rolls its key).
public struct SAMLIdentityProvider: Sendable, Equatable {
    public var entityID: String
    public var certificates: [String]

    public init(entityID: String, certificates: [String]) {
        self.entityID = entityID
        self.certificates = certificates
    }
}

/// This service provider: its entity id (the audience assertions must name) and its assertion consumer service URL
/// (where responses are posted: their `Destination` and the subject confirmation's `Recipient`).
public struct SAMLServiceProvider: Sendable, Equatable {
    public var entityID: String
    public var assertionConsumerServiceURL: String

    public init(entityID: String, assertionConsumerServiceURL: String) {
        self.entityID = entityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
    }
}

/// A `samlp:Response` whose signature ``read(_:from:)`` verified: the response, or its one assertion, or both, signed
/// by the identity provider, the assertion always inside what was signed. ``check(for:idp:now:clockSkew:requestIssued:)``
/// then checks what it says.
public struct SAMLResponse: Sendable, Equatable {
    public var id: String
    public var issuer: String?
    public var destination: String?
    public var inResponseTo: String?
    /// `urn:oasis:names:tc:SAML:2.0:status:Success` for a successful one.
    public var statusCode: String
    public var assertion: SAMLAssertion
    /// Whether the response element itself carries the verified signature (else only the assertion does).
    public var responseIsSigned: Bool

    static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

    /// Reads `xml` (the decoded `SAMLResponse` form field) and verifies its signatures with `idp`'s certificates.
    ///
    /// Refused: a DTD or entities, duplicate `ID`s, anything but exactly one `saml:Assertion` (directly under the
    /// response), an `EncryptedAssertion`, no signature on either the response or the assertion, a signature that
    /// does not verify or does not cover the element it sits in, and every algorithm but RSA-SHA256/512, ECDSA-SHA256
    /// with SHA-256/512 digests.
    public static func read(_ xml: [UInt8], from idp: SAMLIdentityProvider) throws(SAMLError) -> SAMLResponse {
        let tree = try XMLTree.parse(xml)
        let root = tree.root
        guard root.is(SAMLNamespace.protocol, "Response") else {
            throw SAMLError(.malformed, "the document is not a samlp:Response")
        }
        let ids = tree.idValues
        guard Set(ids).count == ids.count else { throw SAMLError(.ambiguous, "two elements have the same ID") }
        guard root.count(SAMLNamespace.assertion, "EncryptedAssertion") == 0 else {
            throw SAMLError(.encryptedAssertion, "encrypted assertions are not supported")
        }
        let assertions = root.children(SAMLNamespace.assertion, "Assertion")
        guard assertions.count == 1, root.count(SAMLNamespace.assertion, "Assertion") == 1, let assertion = assertions.first
        else {
            throw SAMLError(.ambiguous, "the response must hold exactly one assertion, directly")
        }
        tree.registerIDs()
        let responseSigned = try tree.verifySignature(of: root, certificates: idp.certificates)
        let assertionSigned = try tree.verifySignature(of: assertion, certificates: idp.certificates)
        guard responseSigned || assertionSigned else {
            throw SAMLError(.unsigned, "neither the response nor its assertion is signed")
        }
        guard let id = root.attribute("ID"), !id.isEmpty else { throw SAMLError(.malformed, "the response has no ID") }
        guard let status = root.child(SAMLNamespace.protocol, "Status")?.child(SAMLNamespace.protocol, "StatusCode")?
            .attribute("Value")
        else { throw SAMLError(.malformed, "the response has no status") }
        return SAMLResponse(
            id: id, issuer: root.child(SAMLNamespace.assertion, "Issuer")?.text, destination: root.attribute("Destination"),
            inResponseTo: root.attribute("InResponseTo"), statusCode: status, assertion: try SAMLAssertion(assertion),
            responseIsSigned: responseSigned)
    }

    /// Checks what the verified response says: a successful status, `idp` as the issuer, `sp`'s ACS URL as the
    /// destination and recipient, `sp` in the audience, the times (with `clockSkew` seconds of leeway either way),
    /// a bearer confirmation, a subject, and an `InResponseTo` that `requestIssued` knows (an unsolicited response,
    /// without one, is refused unless `requestIssued(nil)` accepts it).
    public func check(
        for sp: SAMLServiceProvider, idp: SAMLIdentityProvider, now: Date, clockSkew: TimeInterval = 60,
        requestIssued: (String?) -> Bool
    ) throws(SAMLError) {
        guard statusCode == Self.success else {
            throw SAMLError(.notSuccessful, "the identity provider answered \(SAMLError.quoted(statusCode))")
        }
        for issuer in [issuer, assertion.issuer] {
            if let issuer, issuer != idp.entityID {
                throw SAMLError(.wrongIssuer, "the issuer is \(SAMLError.quoted(issuer)), not \(SAMLError.quoted(idp.entityID))")
            }
        }
        guard assertion.issuer == idp.entityID else { throw SAMLError(.wrongIssuer, "the assertion names no issuer") }
        if let destination, destination != sp.assertionConsumerServiceURL {
            throw SAMLError(.wrongRecipient, "the response is for \(SAMLError.quoted(destination))")
        }
        guard assertion.audiences.contains(sp.entityID) else {
            throw SAMLError(.wrongAudience, "the assertion's audience does not name \(SAMLError.quoted(sp.entityID))")
        }
        if let notBefore = assertion.notBefore, now.addingTimeInterval(clockSkew) < notBefore {
            throw SAMLError(.notYetValid, "the assertion is not valid yet")
        }
        for end in [assertion.notOnOrAfter, assertion.confirmation?.notOnOrAfter] {
            if let end, now.addingTimeInterval(-clockSkew) >= end { throw SAMLError(.expired, "the assertion has expired") }
        }
        guard let confirmation = assertion.confirmation, !assertion.nameID.isEmpty else {
            throw SAMLError(.missingSubject, "the assertion has no subject with a bearer confirmation")
        }
        guard confirmation.notOnOrAfter != nil else {
            throw SAMLError(.missingSubject, "the bearer confirmation has no NotOnOrAfter")
        }
        guard confirmation.recipient == sp.assertionConsumerServiceURL else {
            throw SAMLError(.wrongRecipient, "the assertion is for another recipient")
        }
        if let inResponseTo, let confirmed = confirmation.inResponseTo, inResponseTo != confirmed {
            throw SAMLError(.unknownRequest, "the response and its assertion answer different requests")
        }
        guard requestIssued(inResponseTo ?? confirmation.inResponseTo) else {
            throw SAMLError(.unknownRequest, "the response answers no request this service provider has open")
        }
    }
}

/// What a `saml:Assertion` says (after ``SAMLResponse/read(_:from:)`` verified it).
public struct SAMLAssertion: Sendable, Equatable {
    /// How the assertion's bearer may use it: `SubjectConfirmationData` of the bearer method.
    public struct Confirmation: Sendable, Equatable {
        public var recipient: String?
        public var notOnOrAfter: Date?
        public var inResponseTo: String?
    }

    /// Its `ID`: what replay protection remembers until ``expiresAt``.
    public var id: String
    public var issuer: String?
    /// The subject's `NameID` (the user's id at the identity provider) and its `Format`.
    public var nameID: String
    public var nameIDFormat: String?
    public var notBefore: Date?
    public var notOnOrAfter: Date?
    public var audiences: [String]
    public var confirmation: Confirmation?
    public var sessionIndex: String?
    /// Attribute values by attribute `Name`, in document order.
    public var attributes: [String: [String]]

    /// The latest moment the assertion can be used: its own or its confirmation's end, whichever comes first.
    public var expiresAt: Date? {
        [notOnOrAfter, confirmation?.notOnOrAfter].compactMap { $0 }.min()
    }

    init(_ element: XMLTree.Element) throws(SAMLError) {
        let saml = SAMLNamespace.assertion
        guard let id = element.attribute("ID"), !id.isEmpty else { throw SAMLError(.malformed, "the assertion has no ID") }
        self.id = id
        issuer = element.child(saml, "Issuer")?.text
        let subject = element.child(saml, "Subject")
        let nameID = subject?.child(saml, "NameID")
        self.nameID = nameID?.text ?? ""
        nameIDFormat = nameID?.attribute("Format")
        let bearer = subject?.children(saml, "SubjectConfirmation").first { $0.attribute("Method") == SAMLResponse.bearer }
        confirmation = try bearer.map { confirmation throws(SAMLError) in
            let data = confirmation.child(saml, "SubjectConfirmationData")
            return Confirmation(
                recipient: data?.attribute("Recipient"), notOnOrAfter: try Self.time(data?.attribute("NotOnOrAfter")),
                inResponseTo: data?.attribute("InResponseTo"))
        }
        let conditions = element.child(saml, "Conditions")
        notBefore = try Self.time(conditions?.attribute("NotBefore"))
        notOnOrAfter = try Self.time(conditions?.attribute("NotOnOrAfter"))
        audiences = (conditions?.children(saml, "AudienceRestriction") ?? []).flatMap { $0.children(saml, "Audience").map(\.text) }
        sessionIndex = element.child(saml, "AuthnStatement")?.attribute("SessionIndex")
        var attributes: [String: [String]] = [:]
        for statement in element.children(saml, "AttributeStatement") {
            for attribute in statement.children(saml, "Attribute") {
                guard let name = attribute.attribute("Name") else { continue }
                attributes[name, default: []] += attribute.children(saml, "AttributeValue").map(\.text)
            }
        }
        self.attributes = attributes
    }

    /// An `xs:dateTime` in UTC (`2026-12-03T10:15:30Z`, fractions of seconds allowed).
    static func time(_ text: String?) throws(SAMLError) -> Date? {
        guard let text else { return nil }
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(text) { return date }
        }
        throw SAMLError(.malformed, "\(SAMLError.quoted(text)) is not a date and time")
    }
}
