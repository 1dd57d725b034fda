import Foundation
import HearthProtocol

/// One Sign in with Apple authorization request (`response_type=code id_token`, `response_mode=form_post`,
/// `scope=name email`) with its secrets: `state`, and the raw nonce whose hex SHA-256 is sent as `nonce`.
struct AppleAuthorizationRequest: Sendable {
    var endpoint: URL
    var clientID: String
    var redirectURI: String
    var state: String
    var rawNonce: String
    var loginHint: String?
    var hideMyEmail: Bool

    init(configuration: AppleSignInConfiguration, redirectURI: String, loginHint: String?, hideMyEmail: Bool) {
        endpoint = configuration.authorizationEndpoint
        clientID = configuration.clientID
        self.redirectURI = redirectURI
        state = RandomToken.make()
        rawNonce = RandomToken.make()
        self.loginHint = loginHint
        self.hideMyEmail = hideMyEmail
    }

    /// The `nonce` sent, and expected in the ID token: lowercase hex SHA-256 of the raw nonce.
    var hashedNonce: String { Digest.hexSHA256(rawNonce) }

    var parameters: [(String, String)] {
        var pairs: [(String, String)] = [
            ("response_type", "code id_token"), ("response_mode", "form_post"), ("client_id", clientID),
            ("redirect_uri", redirectURI), ("scope", "name email"), ("state", state), ("nonce", hashedNonce),
        ]
        if let loginHint { pairs.append(("login_hint", loginHint)) }
        if hideMyEmail { pairs.append(("hide_my_email", "true")) }
        return pairs
    }

    var url: URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = FormEncoding.encode(parameters)
        return components.url!
    }
}

/// The loopback listener's side of a `form_post` response: Apple (and the dev Apple) POSTs the response to the
/// redirect URI as an `application/x-www-form-urlencoded` body with `state`, `code`, `id_token` and, on the first
/// authorization, `user`; or `state` and `error`.
enum AppleFormPost {
    static func answer(_ request: LoopbackRequest, expectedState: String, inbox: RedirectInbox) -> LoopbackReply {
        guard request.path == "/oauth2callback" else {
            return LoopbackReply(status: 404, title: "Not found", message: "Nothing here.")
        }
        guard request.method == "POST" else {
            return LoopbackReply(status: 405, title: "Method not allowed", message: "Sign in with Apple posts its response.")
        }
        let mediaType = request.contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            return LoopbackReply(status: 415, title: "Unsupported media type", message: "Expected a form post.")
        }
        let parameters = AuthorizationResponse.parameters(query: String(decoding: request.body, as: UTF8.self))
        return inbox.answer(parameters, expectedState: expectedState, error: error(in:))
    }

    /// The error a response with matching state stands for: Apple's `error`, or a missing code or ID token.
    static func error(in parameters: [String: String]) -> SignInError? {
        if let error = AuthorizationResponse.error(in: parameters) { return error }
        guard let idToken = parameters["id_token"], !idToken.isEmpty else {
            return SignInError(.unknown, "The authorization response has a code but no id_token.")
        }
        return nil
    }

    /// The name in Apple's `user` JSON (`{"name":{"firstName":…,"lastName":…},"email":…}`), if it has one.
    static func fullName(userJSON: String?) -> PersonNameComponents? {
        guard let userJSON, let user = (try? JSONValue(parsing: Data(userJSON.utf8)))?.objectValue,
            let name = user["name"]?.objectValue
        else { return nil }
        let given = name["firstName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let family = name["lastName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        guard given != nil || family != nil else { return nil }
        var components = PersonNameComponents()
        components.givenName = given
        components.familyName = family
        return components
    }
}
