import Foundation
import HearthCrypto

/// Google sign-in against Hearth's dev IdP over HTTP, the way HearthSignIn (or any OAuth client) does it:
/// authorization request with PKCE, redirect with a code, token exchange.
struct DevGoogle {
    static let clientID = "hearth-dev.apps.googleusercontent.com"
    static let redirectURI = "http://127.0.0.1:53682/oauth2callback"
    let server: HearthProcess

    struct Tokens {
        var idToken: String
        var accessToken: String
        var refreshToken: String?
    }

    func authorizationPath(verifier: String, state: String, nonce: String, extra: [(String, String)] = []) -> String {
        let challenge = Base64URL.encode(SHA256.hash(verifier))
        var components = URLComponents()
        components.queryItems = ([
            ("response_type", "code"), ("client_id", Self.clientID), ("redirect_uri", Self.redirectURI),
            ("scope", "email profile"), ("state", state), ("nonce", nonce), ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
        ] + extra).map { URLQueryItem(name: $0.0, value: $0.1) }
        return "/dev/google/o/oauth2/v2/auth?" + (components.percentEncodedQuery ?? "")
            .replacingOccurrences(of: "+", with: "%2B")
    }

    /// Headless sign-in (`login_hint` + `prompt=none`): the account is created on first use.
    func signIn(email: String) throws -> Tokens {
        let verifier = SecureRandom.token()
        return try exchange(code: try authorize(email: email, verifier: verifier).code, verifier: verifier)
    }

    /// The headless authorization alone: the redirect back to `redirectURI` (its query carries `code`, `state` and
    /// `scope`) and its code, for PKCE `verifier`, `state` "s" and `nonce` "n".
    func authorize(email: String, verifier: String) throws -> (location: String, code: String) {
        let response = try server.request(
            "GET", authorizationPath(verifier: verifier, state: "s", nonce: "n", extra: [("login_hint", email), ("prompt", "none")]))
        guard response.status == 302, let location = response.header("Location"),
            let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw RawHTTP.Failure(description: "no code: \(response.status) \(response.text)") }
        return (location, code)
    }

    func exchange(code: String, verifier: String) throws -> Tokens {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "grant_type", value: "authorization_code"), URLQueryItem(name: "code", value: code),
            URLQueryItem(name: "redirect_uri", value: Self.redirectURI), URLQueryItem(name: "client_id", value: Self.clientID),
            URLQueryItem(name: "code_verifier", value: verifier),
        ]
        let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let response = try server.request(
            "POST", "/dev/google/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
        let json = response.json
        guard response.status == 200, let idToken = json["id_token"] as? String, let accessToken = json["access_token"] as? String else {
            throw RawHTTP.Failure(description: "token exchange failed: \(response.status) \(response.text)")
        }
        return Tokens(idToken: idToken, accessToken: accessToken, refreshToken: json["refresh_token"] as? String)
    }
}
