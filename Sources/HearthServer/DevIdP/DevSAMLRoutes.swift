import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import SAML

/// `--dev`'s SAML identity provider at `/dev/saml`: the metadata a `saml.*` provider configuration is made from
/// (`/dev/saml/metadata`), and the single sign-on URL (`/dev/saml/sso`, HTTP-Redirect binding) that shows the dev
/// accounts (the dev Google's) to choose from and answers with a signed response posted to the request's ACS URL
/// (HTTP-POST binding). Only Hearth's own requests are read, and answers go only to loopback or to this server's host.
public struct DevSAMLRoutes: Sendable {
    let issuer: SAMLResponseIssuer
    let accounts: DevIdentityProvider
    let publicURL: String
    let edge: Edge
    let time: any TimeSource
    let log: @Sendable (String) -> Void

    static let base = "/dev/saml"
    static let ssoPath = "\(base)/sso"

    /// The dev IdP's entity id, single sign-on URL and metadata URL under `publicURL`.
    public static func entityID(publicURL: String) -> String { publicURL + base }
    static func ssoURL(publicURL: String) -> String { publicURL + ssoPath }

    func register(in router: inout Router) {
        let plain = edge.restrictedPlain
        router.add(.get, "\(Self.base)/metadata", plain.handler(metadata))
        router.add(.get, Self.ssoPath, plain.handler(signOn))
        router.add(.post, Self.ssoPath, plain.handler(signOn))
    }

    /// SAML 2.0 metadata: an `IDPSSODescriptor` with the signing certificate and the redirect-binding SSO URL.
    private var metadata: HTTPHandler {
        { [issuer, publicURL] _ in
            let certificate = issuer.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="\(HTML.escape(issuer.entityID))">
                <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
                <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\(certificate)</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
                <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
                <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="\(HTML.escape(Self.ssoURL(publicURL: publicURL)))"/>
                </md:IDPSSODescriptor></md:EntityDescriptor>
                """
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/samlmetadata+xml; charset=utf-8"], body: Array(xml.utf8))
        }
    }

    /// GET: the chooser for the request in `SAMLRequest`; POST (from the chooser): the answer for the chosen or new
    /// account, or a cancellation.
    private var signOn: HTTPHandler {
        { [self] request in
            let parameters = DevIdPRoutes.parameters(request)
            let received: SAMLReceivedRequest
            do {
                received = try SAMLReceivedRequest.fromRedirect(parameters["SAMLRequest"] ?? "")
                try Self.checkDestination(received.assertionConsumerServiceURL, publicURL: publicURL)
            } catch let error as SAMLError {
                return Self.refusal("Not a request this IdP answers", error.reason)
            } catch {
                return Self.refusal("Not a request this IdP answers", "\(error)")
            }
            var carried = [("SAMLRequest", parameters["SAMLRequest"] ?? "")]
            if let relayState = parameters["RelayState"] { carried.append(("RelayState", relayState)) }
            do {
                switch (request.method, parameters["action"]) {
                case (.post, "cancel"):
                    return Self.refusal("Sign-in cancelled", "Return to the app to try again.", status: 200)
                case (.post, "choose"):
                    guard let account = try accounts.account(subject: parameters["subject"] ?? "") else {
                        return try chooser(received, carried, error: "That account no longer exists.", prefill: nil, status: 400)
                    }
                    return try answer(received, account: account, relayState: parameters["RelayState"])
                case (.post, "add"):
                    do {
                        let account = try accounts.createAccount(
                            email: parameters["email"] ?? "", name: parameters["name"], pictureURL: parameters["picture"],
                            emailVerified: parameters["email_verified"] == "true")
                        return try answer(received, account: account, relayState: parameters["RelayState"])
                    } catch let error as WireError {
                        return try chooser(received, carried, error: error.detail ?? error.message, prefill: parameters["email"], status: 400)
                    }
                default:
                    return try chooser(received, carried, error: nil, prefill: nil, status: 200)
                }
            } catch let error as SAMLError {
                return Self.refusal("Sign-in failed", error.reason, status: 500)
            } catch {
                let failure = DevIdPRoutes.serverFailure(error, component: "devsaml", log: log)
                return HTTPResponse.html(HTML.errorPage(title: "Sign-in failed", message: failure.message), status: failure.status)
            }
        }
    }

    private func chooser(
        _ received: SAMLReceivedRequest, _ carried: [(String, String)], error: String?, prefill: String?, status: Int
    ) throws -> HTTPResponse {
        let page = AccountChooserPage(
            providerName: "SAML IdP", clientID: received.issuer, parameters: carried, accounts: try accounts.accounts(),
            actionPath: Self.ssoPath, errorMessage: error, prefilledEmail: prefill)
        var response = HTTPResponse.html(page.html, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The signed response for `account`, posted by the browser to the request's ACS URL with the relay state.
    private func answer(_ received: SAMLReceivedRequest, account: DevIdPAccount, relayState: String?) throws -> HTTPResponse {
        var attributes = [(name: "email", value: account.email)]
        if let name = account.name { attributes.append((name: "displayName", value: name)) }
        let xml = try issuer.response(to: received, nameID: account.email, attributes: attributes, now: time.now)
        var fields = [(name: "SAMLResponse", value: Data(xml).base64EncodedString())]
        if let relayState { fields.append((name: "RelayState", value: relayState)) }
        var response = HTTPResponse.html(
            FormPostPage(action: received.assertionConsumerServiceURL, fields: fields, providerName: "SAML IdP").html)
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Answers are posted only to URLs a browser reads as Hearth does (``BrowserURL``) on loopback or on this server's
    /// own host: the dev IdP signs for whoever asks, so it must not hand a signed assertion to another site.
    static func checkDestination(_ url: String, publicURL: String) throws(SAMLError) {
        let ownHost = try? BrowserURL(parsing: publicURL).host
        guard let parsed = try? BrowserURL(parsing: url),
            ["localhost", "127.0.0.1", "[::1]"].contains(parsed.host) || parsed.host == ownHost
        else {
            throw SAMLError(.wrongRecipient, "the dev SAML IdP posts answers only to loopback or to this server")
        }
    }

    private static func refusal(_ title: String, _ message: String, status: Int = 400) -> HTTPResponse {
        HTTPResponse.html(HTML.errorPage(title: title, message: message), status: status)
    }
}
