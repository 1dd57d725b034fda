import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol

/// Google's OAuth/OpenID paths, served under the dev IdP's issuer path (`/dev/google`).
struct DevIdPRoutes {
    let provider: DevIdentityProvider
    let edge: Edge
    let log: @Sendable (String) -> Void

    static let base = "/dev/google"

    func register(in router: inout Router) {
        let base = Self.base
        let plain = edge.restrictedPlain
        let keys = edge.restrictedFirebase
        router.add(.get, "\(base)/.well-known/openid-configuration", plain.handler(discovery))
        router.add(.get, "\(base)/o/oauth2/v2/auth", plain.handler(authorize))
        router.add(.post, "\(base)/o/oauth2/v2/auth", plain.handler(authorize))
        router.add(.post, "\(base)/token", plain.handler(token))
        for path in ["\(base)/oauth2/v3/userinfo", "\(base)/v1/userinfo"] {
            router.add(.get, path, plain.handler(userInfo))
            router.add(.post, path, plain.handler(userInfo))
        }
        router.add(.get, "\(base)/oauth2/v3/certs", keys.handler(KeyRoutes.document(\.publishedJSON, of: provider.keys, maxAge: 300)))
        router.add(.get, "\(base)/oauth2/v1/certs", keys.handler(KeyRoutes.document(\.certificatesJSON, of: provider.keys, maxAge: 300)))
        router.add(.get, "\(base)/tokeninfo", plain.handler(tokenInfo))
        router.add(.post, "\(base)/tokeninfo", plain.handler(tokenInfo))
        for path in ["\(base)/revoke", "\(base)/o/oauth2/revoke"] {
            router.add(.get, path, plain.handler(revoke))
            router.add(.post, path, plain.handler(revoke))
        }
    }

    /// Query parameters merged with a form body (form wins).
    static func parameters(_ request: HTTPRequest) -> [String: String] {
        var parameters = request.query
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        if request.method == .post, contentType.isEmpty || contentType.hasPrefix("application/x-www-form-urlencoded") {
            for (name, value) in FormEncoding.decode(String(decoding: request.body, as: UTF8.self)) {
                parameters[name] = value
            }
        }
        return parameters
    }

    private var discovery: HTTPHandler {
        { [provider] _ in Responses.json(provider.discoveryDocument()) }
    }

    /// The authorization endpoint: validates the request, then signs in headlessly
    /// (`login_hint` + `prompt=none`), shows the account chooser, or handles the chooser's answer.
    private var authorize: HTTPHandler {
        { [provider, log] request in
            let parameters = Self.parameters(request)
            let authorization: DevIdentityProvider.AuthorizationRequest
            switch provider.checkAuthorization(parameters) {
            case .rejected(let message):
                return HTTPResponse.html(HTML.errorPage(title: "Error 400: invalid_request", message: message), status: 400)
            case .redirect(let location):
                return HTTPResponse.redirect(to: location, status: 302)
            case .valid(let valid):
                authorization = valid
            }
            do {
                switch (request.method, parameters["action"]) {
                case (.post, "cancel"):
                    return HTTPResponse.redirect(to: provider.cancel(authorization), status: 303)
                case (.post, "choose"):
                    return HTTPResponse.redirect(
                        to: try provider.approve(authorization, subject: parameters["subject"] ?? ""), status: 303)
                case (.post, "add"):
                    do {
                        let account = try provider.createAccount(
                            email: parameters["email"] ?? "", name: parameters["name"],
                            pictureURL: parameters["picture"], emailVerified: parameters["email_verified"] == "true")
                        return HTTPResponse.redirect(to: try provider.approve(authorization, subject: account.subject), status: 303)
                    } catch let error as WireError {
                        return try chooser(authorization, error: error.detail ?? error.message, prefill: parameters["email"], status: 400)
                    }
                default:
                    if authorization.prompt == "none" {
                        guard let hint = authorization.loginHint else {
                            return HTTPResponse.redirect(to: provider.loginRequired(authorization), status: 302)
                        }
                        let account = try provider.account(forEmail: hint)
                        return HTTPResponse.redirect(to: try provider.approve(authorization, subject: account.subject), status: 302)
                    }
                    return try chooser(authorization, error: nil, prefill: authorization.loginHint, status: 200)
                }
            } catch let error as WireError {
                return HTTPResponse.html(HTML.errorPage(title: "Sign-in failed", message: error.detail ?? error.message), status: 400)
            } catch {
                let failure = Self.serverFailure(error, component: "devidp", log: log)
                return HTTPResponse.html(
                    HTML.errorPage(title: "Sign-in failed", message: failure.message), status: failure.status)
            }
        }
    }

    private func chooser(
        _ authorization: DevIdentityProvider.AuthorizationRequest, error: String?, prefill: String?, status: Int
    ) throws -> HTTPResponse {
        let page = AccountChooserPage(
            providerName: "Google", clientID: authorization.clientID, parameters: authorization.parameters,
            accounts: try provider.accounts(), actionPath: "\(Self.base)/o/oauth2/v2/auth",
            errorMessage: error, prefilledEmail: prefill)
        var response = HTTPResponse.html(page.html, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// A failure that is the server's, as a dev provider answers it: 503 while the store is unavailable (a database
    /// failing over), else 500, with `WireFailure`'s message; its fault is logged by type and code only.
    static func serverFailure(_ error: any Error, component: String, log: @Sendable (String) -> Void)
        -> (status: Int, message: String)
    {
        let failure = WireFailure(error)
        log("\(failure.fault ?? "error=internal type=\(type(of: error))") in=\(component)")
        return (failure.wire.httpStatus, failure.wire.message)
    }

    /// Answers an OAuth endpoint: JSON on success, `{"error", "error_description"}` on failure.
    static func oauth(log: @Sendable (String) -> Void, _ body: () throws -> [String: JSONValue]) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = Responses.json(try body())
        } catch let error as OAuthError {
            response = Responses.json(error.body, status: error.status)
            if error.status == 401 { response.headers["WWW-Authenticate"] = "Bearer error=\"\(error.error)\"" }
        } catch let error as WireError {
            response = Responses.json(["error": "invalid_request", "error_description": .string(error.message)], status: 400)
        } catch {
            let failure = serverFailure(error, component: "devidp", log: log)
            let code = failure.status == 503 ? "temporarily_unavailable" : "server_error"
            response = Responses.json(
                ["error": .string(code), "error_description": .string(failure.message)], status: failure.status)
        }
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private var token: HTTPHandler {
        { [provider, log] request in
            Self.oauth(log: log) {
                try provider.token(Self.parameters(request), basicClientID: Self.basicClientID(request))
            }
        }
    }

    /// The client id of an HTTP Basic `Authorization` header (client_secret_basic); the secret is not checked.
    private static func basicClientID(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return FormEncoding.unescape(text[..<colon])
    }

    private var userInfo: HTTPHandler {
        { [provider, log] request in
            Self.oauth(log: log) {
                var token = Self.parameters(request)["access_token"]
                if let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") {
                    token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
                }
                guard let token, !token.isEmpty else {
                    throw OAuthError("invalid_request", "Missing access token.", status: 401)
                }
                return try provider.userInfo(accessToken: token)
            }
        }
    }

    private var tokenInfo: HTTPHandler {
        { [provider, log] request in
            Self.oauth(log: log) {
                let parameters = Self.parameters(request)
                return try provider.tokenInfo(accessToken: parameters["access_token"], idToken: parameters["id_token"])
            }
        }
    }

    private var revoke: HTTPHandler {
        { [provider, log] request in
            Self.oauth(log: log) {
                try provider.revoke(token: Self.parameters(request)["token"])
                return [:]
            }
        }
    }
}
