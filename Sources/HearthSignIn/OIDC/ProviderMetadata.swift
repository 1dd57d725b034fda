import Foundation
import HearthProtocol

/// The parts of an OpenID Provider's discovery document (OpenID Connect Discovery 1.0 §3) the client uses.
struct ProviderMetadata: Sendable, Equatable {
    var issuer: String
    var authorizationEndpoint: URL
    var tokenEndpoint: URL
    var userinfoEndpoint: URL?
    var revocationEndpoint: URL?
    var jwksURI: URL

    /// Google's revocation endpoint, for a Google discovery document that should lack one.
    static let googleRevocationEndpoint = URL(string: "https://oauth2.googleapis.com/revoke")!

    /// `<issuer>/.well-known/openid-configuration` (Discovery §4.1: the issuer with any trailing `/` removed).
    static func discoveryURL(issuer: String) -> URL? {
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/.well-known/openid-configuration")
    }

    /// Parses a discovery document and checks that its `issuer` is exactly `expectedIssuer` (Discovery §4.3).
    init(document data: Data, expectedIssuer: String) throws(SignInError) {
        guard let json = try? JSONValue(parsing: data), let object = json.objectValue else {
            throw SignInError(.unknown, "The discovery document of \(expectedIssuer) is not a JSON object.")
        }
        guard let issuer = object["issuer"]?.stringValue else {
            throw SignInError(.unknown, "The discovery document of \(expectedIssuer) has no issuer.")
        }
        guard issuer == expectedIssuer else {
            throw SignInError(
                .unknown, "The discovery document names issuer \(issuer), but the configured issuer is \(expectedIssuer).")
        }
        let issuerIsHTTPS = issuer.lowercased().hasPrefix("https://")
        func endpoint(_ name: String, required: Bool) throws(SignInError) -> URL? {
            guard let text = object[name]?.stringValue else {
                if required { throw SignInError(.unknown, "The discovery document of \(issuer) has no \(name).") }
                return nil
            }
            // An https issuer must not send tokens over plain http; an http issuer (a local dev IdP) may use either.
            let allowed = issuerIsHTTPS ? ["https"] : ["https", "http"]
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), allowed.contains(scheme), url.host != nil
            else { throw SignInError(.unknown, "The discovery document of \(issuer) has an invalid \(name).") }
            return url
        }
        self.issuer = issuer
        authorizationEndpoint = try endpoint("authorization_endpoint", required: true)!
        tokenEndpoint = try endpoint("token_endpoint", required: true)!
        jwksURI = try endpoint("jwks_uri", required: true)!
        userinfoEndpoint = try endpoint("userinfo_endpoint", required: false)
        revocationEndpoint = try endpoint("revocation_endpoint", required: false)
    }
}
