public import Foundation

/// A service provider's `samlp:AuthnRequest`, sent to the identity provider's single sign-on URL with the
/// HTTP-Redirect binding (SAML 2.0 Bindings §3.4): the request DEFLATE-d, base64-encoded and put in the `SAMLRequest`
/// query parameter, with `RelayState` beside it. Requests are not signed (the SP's metadata says
/// `AuthnRequestsSigned="false"`); what binds the answer to the request is `InResponseTo`, which
/// ``SAMLResponse/check(for:idp:now:clockSkew:requestIssued:)`` requires to be a request the service provider made.
public struct SAMLAuthnRequest: Sendable, Equatable {
    /// The request's `ID` (an NCName: it starts with `_`), which the response's `InResponseTo` must name.
    public var id: String
    public var serviceProvider: SAMLServiceProvider
    /// The identity provider's single sign-on URL (HTTP-Redirect binding).
    public var singleSignOnURL: String
    public var issueInstant: Date

    public init(id: String, serviceProvider: SAMLServiceProvider, singleSignOnURL: String, issueInstant: Date) {
        self.id = id
        self.serviceProvider = serviceProvider
        self.singleSignOnURL = singleSignOnURL
        self.issueInstant = issueInstant
    }

    /// The request document.
    public var xml: String {
        """
        <samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
        ID="\(Self.escaped(id))" Version="2.0" IssueInstant="\(Date.ISO8601FormatStyle().format(issueInstant))" \
        Destination="\(Self.escaped(singleSignOnURL))" \
        AssertionConsumerServiceURL="\(Self.escaped(serviceProvider.assertionConsumerServiceURL))" \
        ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">\
        <saml:Issuer>\(Self.escaped(serviceProvider.entityID))</saml:Issuer>\
        <samlp:NameIDPolicy AllowCreate="true"/></samlp:AuthnRequest>
        """
    }

    /// Where the browser goes: the SSO URL with `SAMLRequest` (and `RelayState` when given) added to its query.
    public func redirectURL(relayState: String?) -> String {
        let encoded = Data(Self.deflateStored(Array(xml.utf8))).base64EncodedString()
        var query = [("SAMLRequest", encoded)]
        if let relayState { query.append(("RelayState", relayState)) }
        let parameters = query.map { "\($0.0)=\(Self.queryEscaped($0.1))" }.joined(separator: "&")
        return singleSignOnURL + (singleSignOnURL.contains("?") ? "&" : "?") + parameters
    }

    /// `bytes` as a raw DEFLATE stream (RFC 1951) of stored blocks: valid for every inflater, without compressing
    /// (the binding asks for DEFLATE, not for a smaller request).
    static func deflateStored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            output.append(end == bytes.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        return output
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// RFC 3986's unreserved characters (ASCII only).
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
