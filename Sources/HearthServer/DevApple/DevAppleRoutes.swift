import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol

/// Sign in with Apple's paths, served under the dev Apple's issuer path (`/dev/apple`), and
/// `GET /dev/apple/revocations` (what was revoked, so tests can see it).
struct DevAppleRoutes {
    let provider: DevAppleProvider
    let edge: Edge
    let log: @Sendable (String) -> Void

    static let base = "/dev/apple"
    static let authorizePath = "\(base)/auth/authorize"

    func register(in router: inout Router) {
        let base = Self.base
        let plain = edge.restrictedPlain
        router.add(.get, "\(base)/.well-known/openid-configuration", plain.handler(discovery))
        router.add(.get, Self.authorizePath, plain.handler(authorize))
        router.add(.post, Self.authorizePath, plain.handler(authorize))
        router.add(.post, "\(base)/auth/token", plain.handler(token))
        router.add(.post, "\(base)/auth/revoke", plain.handler(revoke))
        router.add(.get, "\(base)/auth/keys", edge.restrictedFirebase.handler(KeyRoutes.document(\.publishedJSON, of: provider.keys, maxAge: 300)))
        router.add(.get, "\(base)/revocations", plain.handler(revocations))
    }

    private var discovery: HTTPHandler {
        { [provider] _ in Responses.json(provider.discoveryDocument()) }
    }

    /// The authorization endpoint: validates the request, then signs in headlessly (`login_hint`), shows the
    /// account chooser, or handles the chooser's answer.
    private var authorize: HTTPHandler {
        { [provider, log] request in
            let parameters = DevIdPRoutes.parameters(request)
            let authorization: DevAppleProvider.AuthorizationRequest
            switch provider.checkAuthorization(parameters) {
            case .rejected(let message):
                return HTTPResponse.html(HTML.errorPage(title: "Sign in with Apple: invalid request", message: message), status: 400)
            case .answer(let answer):
                return Self.respond(answer)
            case .valid(let valid):
                authorization = valid
            }
            let hidesEmail = parameters["hide_my_email"] == "true"
            do {
                switch (request.method, parameters["action"]) {
                case (.post, "cancel"):
                    return Self.respond(provider.cancel(authorization))
                case (.post, "choose"):
                    return Self.respond(
                        try provider.approve(authorization, accountSubject: parameters["subject"] ?? "", hidesEmail: hidesEmail))
                case (.post, "add"):
                    do {
                        let account = try provider.createAccount(
                            email: parameters["email"] ?? "", name: parameters["name"], pictureURL: parameters["picture"])
                        return Self.respond(try provider.approve(authorization, accountSubject: account.subject, hidesEmail: hidesEmail))
                    } catch let error as WireError {
                        return try chooser(authorization, error: error.detail ?? error.message, prefill: parameters["email"], status: 400)
                    }
                default:
                    if let hint = authorization.loginHint { return Self.respond(try provider.approveHeadless(authorization, email: hint)) }
                    return try chooser(authorization, error: nil, prefill: nil, status: 200)
                }
            } catch let error as WireError {
                return HTTPResponse.html(HTML.errorPage(title: "Sign-in failed", message: error.detail ?? error.message), status: 400)
            } catch {
                let failure = DevIdPRoutes.serverFailure(error, component: "devapple", log: log)
                return HTTPResponse.html(
                    HTML.errorPage(title: "Sign-in failed", message: failure.message), status: failure.status)
            }
        }
    }

    private func chooser(
        _ authorization: DevAppleProvider.AuthorizationRequest, error: String?, prefill: String?, status: Int
    ) throws -> HTTPResponse {
        let page = AccountChooserPage(
            providerName: "Apple", clientID: authorization.clientID, parameters: authorization.parameters,
            accounts: try provider.people(), actionPath: Self.authorizePath, errorMessage: error, prefilledEmail: prefill,
            offersHiddenEmail: true)
        return Self.private(HTTPResponse.html(page.html, status: status))
    }

    /// A form_post page (200) or a redirect (302) with the answer's fields.
    private static func respond(_ answer: DevAppleProvider.Answer) -> HTTPResponse {
        switch answer {
        case .formPost(let action, let fields):
            var response = HTTPResponse.html(FormPostPage(action: action, fields: fields).html)
            response.headers["Referrer-Policy"] = "no-referrer"
            return Self.private(response)
        case .redirect(let location):
            return Self.private(HTTPResponse.redirect(to: location, status: 302))
        }
    }

    private static func `private`(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private var token: HTTPHandler {
        { [provider, log] request in Self.token(provider, form: DevIdPRoutes.parameters(request), log: log) }
    }

    private var revoke: HTTPHandler {
        { [provider, log] request in Self.revoke(provider, form: DevIdPRoutes.parameters(request), log: log) }
    }

    /// `POST /auth/token`'s answer to `form`: Apple's tokens, or an OAuth error.
    static func token(_ provider: DevAppleProvider, form: [String: String], log: @Sendable (String) -> Void) -> HTTPResponse {
        DevIdPRoutes.oauth(log: log) { try provider.token(form) }
    }

    /// `POST /auth/revoke`'s answer to `form`: as Apple's, 200 with an empty body, known token or not.
    static func revoke(_ provider: DevAppleProvider, form: [String: String], log: @Sendable (String) -> Void) -> HTTPResponse {
        let response = DevIdPRoutes.oauth(log: log) {
            try provider.revoke(form)
            return [:]
        }
        return response.status == 200 ? Self.private(HTTPResponse(status: 200)) : response
    }

    private var revocations: HTTPHandler {
        { [provider] _ in
            let list: [JSONValue] = provider.revocations.map { revocation in
                [
                    "sub": .string(revocation.subject), "clientId": .string(revocation.clientID),
                    "tokenType": .string(revocation.tokenType), "revokedAt": .integer(revocation.revokedAt),
                ]
            }
            return Self.private(Responses.json(["revocations": .array(list)]))
        }
    }
}
