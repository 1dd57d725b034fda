import Foundation
import HearthCrypto

/// Sign in with Apple against Hearth's dev Apple over HTTP, as a web app or HearthSignIn's loopback listener
/// sees it: the authorization request, the `form_post` page's form, the token and revoke endpoints.
struct DevApple {
    static let clientID = "dev.hearth.portfolio"
    static let redirectURI = "http://127.0.0.1:53682/apple/callback"
    let server: ServiceProcess

    /// Headless sign-in (`login_hint`): the fields the form_post page would POST to the redirect URI.
    func signIn(email: String, nonce: String, hideEmail: Bool = false) throws -> [String: String] {
        let query = FormBody.encode([
            ("response_type", "code id_token"), ("response_mode", "form_post"), ("client_id", Self.clientID),
            ("redirect_uri", Self.redirectURI), ("scope", "name email"), ("state", "st"), ("nonce", nonce),
            ("login_hint", email), ("hide_my_email", hideEmail ? "true" : "false"),
        ])
        let page = try server.request("GET", "/dev/apple/auth/authorize?" + query)
        guard page.status == 200 else { throw RawHTTP.Failure(description: "authorize: \(page.status) \(page.text)") }
        let form = Self.form(page.text)
        guard form.action == Self.redirectURI else { throw RawHTTP.Failure(description: "form action \(form.action ?? "none")") }
        return form.fields
    }

    /// The action and hidden fields of the page's form (HTML entities decoded).
    static func form(_ html: String) -> (action: String?, fields: [String: String]) {
        func unescape(_ value: Substring) -> String {
            value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        var fields: [String: String] = [:]
        for match in html.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/) {
            fields[unescape(match.1)] = unescape(match.2)
        }
        return (html.firstMatch(of: /<form method="post" action="([^"]*)"/).map { unescape($0.1) }, fields)
    }

    /// `POST /dev/apple/auth/<endpoint>` with a form body, as Apple's clients send it.
    func post(_ endpoint: String, _ fields: [(String, String)]) throws -> HTTPResult {
        try server.request(
            "POST", "/dev/apple/auth/\(endpoint)", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(FormBody.encode(fields).utf8))
    }

    /// An Apple client secret's shape (ES256 header, Apple's claims) with `signature` as its signature.
    static func clientSecret(signature: [UInt8]) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = #"{"alg":"ES256","kid":"HEARTHDEVKY"}"#
        let claims = #"{"iss":"HEARTHDEVTM","iat":\#(now),"exp":\#(now + 3600),"aud":"https://appleid.apple.com","sub":"\#(clientID)"}"#
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "." + Base64URL.encode(signature)
    }
}
