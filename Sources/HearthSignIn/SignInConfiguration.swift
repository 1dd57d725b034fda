public import Foundation

/// Which OAuth client signs in, and at which OpenID provider: the `GIDConfiguration` counterpart.
///
/// ```swift
/// // Google, with a Desktop-type OAuth client:
/// let google = SignInConfiguration(clientID: "1234-abc.apps.googleusercontent.com", clientSecret: "GOCSPX-…")
/// // Hearth's dev IdP (`hearth serve --dev`):
/// let dev = SignInConfiguration(
///     clientID: "hearth-dev.apps.googleusercontent.com", issuer: URL(string: "http://127.0.0.1:9099/dev/google")!)
/// ```
public struct SignInConfiguration: Sendable, Equatable {
    /// The app's OAuth client ID (`<number>-<hash>.apps.googleusercontent.com` at Google).
    public var clientID: String
    /// The backend's client ID. Sent as `audience`; the ID token is then minted for it (`aud`) with `azp` = ``clientID``,
    /// and the token response carries a one-time `server_code` (``SignInResult/serverAuthCode``).
    public var serverClientID: String?
    /// Sent as `hd`: asks the account chooser to offer only this Workspace domain. A UI hint, not a check: a backend
    /// must compare the ID token's `hd` claim itself.
    public var hostedDomain: String?
    /// The OpenID provider. Google by default; Hearth's dev IdP is e.g. `URL(string: "http://127.0.0.1:9099/dev/google")!`.
    /// Its discovery document's `issuer` must be exactly this URL's string.
    public var issuer: URL
    /// Desktop-type Google clients are issued a (non-secret) client secret the token endpoint expects; it is sent as
    /// `client_secret` (client_secret_post) on token requests.
    public var clientSecret: String?
    /// How the authorization response comes back to the app. ``SignInRedirectMethod/platformDefault`` is a loopback
    /// listener, except on iOS-family platforms, where Google allows only the reversed-client-ID scheme.
    public var redirectMethod: SignInRedirectMethod

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - clientID: the app's OAuth client ID.
    ///   - serverClientID: the backend's client ID, sent as `audience`.
    ///   - hostedDomain: the Workspace domain hint, sent as `hd`.
    ///   - issuer: the OpenID provider; Google by default.
    ///   - clientSecret: the Desktop client's (non-secret) secret, if it has one.
    ///   - redirectMethod: loopback listener or custom scheme; the platform's default when omitted.
    public init(
        clientID: String, serverClientID: String? = nil, hostedDomain: String? = nil,
        issuer: URL = URL(string: "https://accounts.google.com")!, clientSecret: String? = nil,
        redirectMethod: SignInRedirectMethod = .platformDefault
    ) {
        self.clientID = clientID
        self.serverClientID = serverClientID
        self.hostedDomain = hostedDomain
        self.issuer = issuer
        self.clientSecret = clientSecret
        self.redirectMethod = redirectMethod
    }

    /// Google's issuer string.
    static let googleIssuer = "https://accounts.google.com"

    /// The issuer as the discovery document and the ID tokens must spell it.
    var issuerString: String { issuer.absoluteString }

    /// Whether this is Google itself, whose ID tokens may also say `iss` `accounts.google.com`.
    var isGoogle: Bool { issuerString == Self.googleIssuer }

    /// `<reversed client id>:/oauth2callback`, the private-use-scheme redirect (RFC 8252 §7.1) Google registers for
    /// iOS clients: `1234-abc.apps.googleusercontent.com` → `com.googleusercontent.apps.1234-abc:/oauth2callback`.
    public var customSchemeRedirectURI: String {
        clientID.split(separator: ".").reversed().joined(separator: ".").lowercased() + ":/oauth2callback"
    }
}

extension SignInConfiguration: CustomStringConvertible {
    /// Names the client and issuer; the client secret is never printed.
    public var description: String {
        var parts = ["clientID: \(clientID)", "issuer: \(issuerString)"]
        if let serverClientID { parts.append("serverClientID: \(serverClientID)") }
        if let hostedDomain { parts.append("hostedDomain: \(hostedDomain)") }
        if clientSecret != nil { parts.append("clientSecret: <redacted>") }
        return "SignInConfiguration(\(parts.joined(separator: ", ")))"
    }
}

/// How ``GoogleSignIn/signIn(hint:additionalScopes:nonce:headless:timeout:)`` receives the authorization response.
public enum SignInRedirectMethod: Sendable, Equatable {
    /// RFC 8252 §7.3: a listener on `127.0.0.1` (ephemeral port) receives `http://127.0.0.1:<port>/oauth2callback`.
    /// Google allows this for Desktop-type clients; the dev IdP accepts it for its dev client.
    case loopback
    /// RFC 8252 §7.1: the redirect URI is ``SignInConfiguration/customSchemeRedirectURI``; the app receives the URL
    /// (`.onOpenURL`, an `ASWebAuthenticationSession` callback, …) and passes it to ``GoogleSignIn/handle(_:)``.
    case customScheme

    /// ``customScheme`` on iOS, tvOS, watchOS and visionOS; ``loopback`` elsewhere.
    public static var platformDefault: SignInRedirectMethod {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        .customScheme
        #else
        .loopback
        #endif
    }
}
