import Foundation
import HearthProtocol

/// One authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1) with its secrets: `state`
/// (CSRF, RFC 6749 §10.12), `nonce` (replay, OIDC §15.5.2) and the PKCE verifier (RFC 7636).
struct AuthorizationRequest: Sendable {
    var endpoint: URL
    var clientID: String
    var redirectURI: String
    var scopes: [String]
    var state: String
    var nonce: String
    var codeVerifier: String
    var loginHint: String?
    var hostedDomain: String?
    var audience: String?
    var prompt: String?

    /// The scopes always requested.
    static let baseScopes = ["openid", "email", "profile"]

    init(
        configuration: SignInConfiguration, endpoint: URL, redirectURI: String, hint: String?,
        additionalScopes: [String], nonce: String?, prompt: String?
    ) {
        self.endpoint = endpoint
        self.clientID = configuration.clientID
        self.redirectURI = redirectURI
        self.scopes = Self.scopes(adding: additionalScopes)
        self.state = RandomToken.make()
        self.nonce = nonce ?? RandomToken.make()
        self.codeVerifier = RandomToken.make()
        self.loginHint = hint
        self.hostedDomain = configuration.hostedDomain
        self.audience = configuration.serverClientID
        self.prompt = prompt
    }

    /// `openid email profile`, then each additional scope that is not already there (Google's long forms of
    /// `email` and `profile` count as the short ones).
    static func scopes(adding additional: [String]) -> [String] {
        let aliases = [
            "https://www.googleapis.com/auth/userinfo.email": "email",
            "https://www.googleapis.com/auth/userinfo.profile": "profile",
        ]
        var scopes = baseScopes
        for scope in additional.flatMap({ $0.split(separator: " ").map(String.init) }) {
            let short = aliases[scope] ?? scope
            if !scopes.contains(scope), !scopes.contains(short) { scopes.append(scope) }
        }
        return scopes
    }

    var codeChallenge: String { Digest.codeChallenge(forVerifier: codeVerifier) }

    var parameters: [(String, String)] {
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", codeChallenge), ("code_challenge_method", "S256"), ("include_granted_scopes", "true"),
        ]
        if let loginHint { pairs.append(("login_hint", loginHint)) }
        if let hostedDomain { pairs.append(("hd", hostedDomain)) }
        if let audience { pairs.append(("audience", audience)) }
        if let prompt { pairs.append(("prompt", prompt)) }
        return pairs
    }

    /// The URL to open: the endpoint with the parameters added to any query it already has.
    var url: URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        let query = FormEncoding.encode(parameters)
        components.percentEncodedQuery = components.percentEncodedQuery.map { $0 + "&" + query } ?? query
        return components.url!
    }
}

/// Parsing and matching of authorization responses (RFC 6749 §4.1.2), shared by the loopback listener and
/// ``GoogleSignIn/handle(_:)``.
enum AuthorizationResponse {
    /// The query's parameters. A parameter that appears more than once is dropped (RFC 6749 §3.1: parameters
    /// must not repeat), so a doubled `state` never matches.
    static func parameters(query: String?) -> [String: String] {
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        for (name, value) in FormEncoding.decode(query ?? "") {
            if values.updateValue(value, forKey: name) != nil { repeated.insert(name) }
        }
        for name in repeated { values[name] = nil }
        return values
    }

    /// Whether `url` is a response for `redirectURI`, as AppAuth matches them: scheme case-insensitive; user,
    /// password, host, port and path exact; query and fragment ignored. The path must be `/oauth2callback`.
    static func matches(_ url: URL, redirectURI: String) -> Bool {
        guard let incoming = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let expected = URLComponents(string: redirectURI)
        else { return false }
        return incoming.scheme?.lowercased() == expected.scheme?.lowercased() && incoming.user == expected.user
            && incoming.password == expected.password && incoming.host == expected.host && incoming.port == expected.port
            && incoming.percentEncodedPath == expected.percentEncodedPath && incoming.percentEncodedPath == "/oauth2callback"
    }

    /// The error a response with matching state stands for, or nil when it carries a code.
    static func error(in parameters: [String: String]) -> SignInError? {
        if let error = parameters["error"] {
            let description = parameters["error_description"]
            // Apple says `user_cancelled_authorize` where OAuth says `access_denied`.
            if error == "access_denied" || error == "user_cancelled_authorize" {
                return SignInError(
                    .canceled, SignInError.canceledMessage, oauthError: error, oauthErrorDescription: description)
            }
            return SignInError(
                .unknown, "The authorization server returned \(error)\(description.map { ": \($0)" } ?? "").",
                oauthError: error, oauthErrorDescription: description)
        }
        guard let code = parameters["code"], !code.isEmpty else {
            return SignInError(.unknown, "The authorization response has neither a code nor an error.")
        }
        return nil
    }
}
