public import Foundation

/// Which Sign in with Apple client signs in, and at which Apple: real Apple (`https://appleid.apple.com`) or an
/// Apple look-alike such as Hearth's dev Apple (`<hearth>/dev/apple`, `hearth serve --dev`).
///
/// ```swift
/// // Hearth's dev Apple:
/// let dev = AppleSignInConfiguration(
///     clientID: "dev.hearth.portfolio", issuer: URL(string: "http://127.0.0.1:9099/dev/apple")!)
/// ```
public struct AppleSignInConfiguration: Sendable, Equatable {
    /// The services ID (web and desktop flows) or bundle ID the ID token is minted for (`aud`).
    public var clientID: String
    /// Apple's base URL, which is also the ID tokens' `iss`: `https://appleid.apple.com`, or the look-alike's base.
    /// The endpoints are `<issuer>/auth/authorize` and `<issuer>/auth/keys`.
    public var issuer: URL

    /// Apple's issuer.
    public static let appleIssuer = URL(string: "https://appleid.apple.com")!

    public init(clientID: String, issuer: URL = AppleSignInConfiguration.appleIssuer) {
        self.clientID = clientID
        self.issuer = issuer
    }

    /// The issuer as the ID tokens spell it (no trailing `/`).
    var issuerString: String {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    var authorizationEndpoint: URL { URL(string: issuerString + "/auth/authorize")! }
    var keysEndpoint: URL { URL(string: issuerString + "/auth/keys")! }
}
