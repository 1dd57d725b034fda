internal import CXMLSec

/// A parsed XML document (libxml2), freed with the last reference. Parsing refuses what SAML never needs and
/// attacks use: a DTD or entity declaration anywhere, network access, and documents over ``maximumSize``.
/// Signatures are verified and made by libxmlsec1 (``verifySignature(of:certificates:)``, ``sign(_:after:keyPEM:certificatePEM:)``);
/// nothing here canonicalizes or hashes by itself.
final class XMLTree: @unchecked Sendable {
    /// The largest document read, in bytes.
    static let maximumSize = 512 * 1024

    private let document: xmlDocPtr

    private static let initialized: Bool = hearth_xmlsec_initialize() == 0

    private init(_ document: xmlDocPtr) { self.document = document }

    deinit { xmlFreeDoc(document) }

    /// Parses `bytes`, refusing a DTD or entity declaration before reading anything.
    static func parse(_ bytes: [UInt8]) throws(SAMLError) -> XMLTree {
        guard initialized else { throw SAMLError(.malformed, "the XML security library did not start") }
        guard bytes.count <= maximumSize else {
            throw SAMLError(.malformed, "the document is larger than \(maximumSize) bytes")
        }
        if contains(bytes, "<!DOCTYPE") || contains(bytes, "<!ENTITY") {
            throw SAMLError(.documentTypeDeclared, "the document declares a DTD or entities")
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), nil, nil, options)
                }
            }
        }
        guard let parsed else { throw SAMLError(.malformed, "the document is not well-formed XML") }
        let tree = XMLTree(parsed)
        guard parsed.pointee.intSubset == nil, parsed.pointee.extSubset == nil, xmlDocGetRootElement(parsed) != nil else {
            throw SAMLError(.documentTypeDeclared, "the document declares a DTD")
        }
        return tree
    }

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// The document element.
    var root: Element {
        guard let node = xmlDocGetRootElement(document) else { preconditionFailure("parse checked the root") }
        return Element(node: node, tree: self)
    }

    /// Every value of an `ID` attribute in the document, in document order (duplicates kept).
    var idValues: [String] {
        var values: [String] = []
        func walk(_ element: Element) {
            if let id = element.attribute("ID") { values.append(id) }
            element.children.forEach(walk)
        }
        walk(root)
        return values
    }

    /// Makes `ID` attributes the targets of `#id` references. Call once, after checking `idValues` has no duplicates.
    func registerIDs() {
        hearth_xmlsec_add_ids(document, root.node)
    }

    /// Verifies the `ds:Signature` that is a direct child of `element`: it must cover `element` itself (its one
    /// reference is `#<element's ID>`, enveloped) and verify with one of `certificates` (PEM). Returns false when
    /// `element` has no signature.
    func verifySignature(of element: Element, certificates: [String]) throws(SAMLError) -> Bool {
        let signatures = element.children(SAMLNamespace.signature, "Signature")
        guard let signature = signatures.first else { return false }
        guard signatures.count == 1, let id = element.attribute("ID"), !id.isEmpty else {
            throw SAMLError(.wrongReference, "a signed \(element.localName) needs one signature and an ID")
        }
        var outcome = Int32(HEARTH_XMLSEC_INVALID)
        for certificate in certificates {
            outcome = Array(certificate.utf8).withUnsafeBufferPointer { pem in
                hearth_xmlsec_verify(signature.node, pem.baseAddress!, pem.count, "#" + id)
            }
            if outcome == HEARTH_XMLSEC_VERIFIED { return true }
            if outcome == HEARTH_XMLSEC_WRONG_REFERENCE { break }
        }
        switch Int(outcome) {
        case Int(HEARTH_XMLSEC_WRONG_REFERENCE):
            throw SAMLError(.wrongReference, "the \(element.localName)'s signature covers another element")
        case Int(HEARTH_XMLSEC_BAD_KEY):
            throw SAMLError(.badCertificate, "the identity provider's certificate cannot be read")
        default:
            throw SAMLError(.invalidSignature, "the \(element.localName)'s signature does not verify")
        }
    }

    /// Signs `element` (which must have an `ID`) with an enveloped signature placed after `after` (its `Issuer`),
    /// RSA-SHA256 over exclusive C14N, `certificatePEM` in `KeyInfo`.
    func sign(_ element: Element, after: Element?, keyPEM: String, certificatePEM: String) throws(SAMLError) {
        guard let id = element.attribute("ID") else { throw SAMLError(.malformed, "a signed element needs an ID") }
        registerIDs()
        let key = Array(keyPEM.utf8)
        let certificate = Array(certificatePEM.utf8)
        let result = key.withUnsafeBufferPointer { key in
            certificate.withUnsafeBufferPointer { certificate in
                hearth_xmlsec_sign(
                    document, element.node, after?.node, "#" + id, key.baseAddress!, key.count, certificate.baseAddress!,
                    certificate.count)
            }
        }
        guard result == 0 else { throw SAMLError(.badCertificate, "signing failed: the key or certificate cannot be read") }
    }

    /// The document as UTF-8 text.
    func serialized() -> [UInt8] {
        var text: UnsafeMutablePointer<xmlChar>?
        var length: Int32 = 0
        xmlDocDumpMemoryEnc(document, &text, &length, "UTF-8")
        defer { hearth_xml_free(text) }
        guard let text, length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: text, count: Int(length)))
    }

    /// An element of a tree (keeping the tree alive).
    struct Element {
        let node: xmlNodePtr
        let tree: XMLTree

        var localName: String { String(cString: node.pointee.name) }
        var namespaceURI: String? { node.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } } }

        /// The attribute `name` (without a namespace), if present.
        func attribute(_ name: String) -> String? {
            guard let value = xmlGetNoNsProp(node, name) else { return nil }
            defer { hearth_xml_free(value) }
            return String(cString: value)
        }

        /// The text content (of this element and its descendants), whitespace trimmed.
        var text: String {
            guard let content = xmlNodeGetContent(node) else { return "" }
            defer { hearth_xml_free(content) }
            return String(cString: content).trimmingWhitespace
        }

        /// The child elements, in order.
        var children: [Element] {
            var result: [Element] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { result.append(Element(node: current, tree: tree)) }
                child = current.pointee.next
            }
            return result
        }

        func children(_ namespace: String, _ name: String) -> [Element] {
            children.filter { $0.localName == name && $0.namespaceURI == namespace }
        }

        func child(_ namespace: String, _ name: String) -> Element? { children(namespace, name).first }

        /// How many elements `namespace:name` this element and its descendants hold.
        func count(_ namespace: String, _ name: String) -> Int {
            children.reduce(localName == name && namespaceURI == namespace ? 1 : 0) { $0 + $1.count(namespace, name) }
        }

        func `is`(_ namespace: String, _ name: String) -> Bool { localName == name && namespaceURI == namespace }
    }
}

/// The namespaces of SAML 2.0 and XML signatures.
enum SAMLNamespace {
    static let `protocol` = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let signature = "http://www.w3.org/2000/09/xmldsig#"
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
