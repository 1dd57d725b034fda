import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol

/// `POST /oauth2/token`: the OAuth token endpoint of service accounts (JWT-bearer grant), where google-auth
/// and firebase-admin exchange a signed assertion for an admin access token (`ServiceAccountTokenIssuer`).
///
/// It speaks OAuth, not Identity Toolkit: a form body, no API key, and errors as
/// `{"error": …, "error_description": …}`, rendered here rather than in Firebase's envelope. Each failed
/// request costs its client a token of `serviceAccountTokenFailuresPerClient`; a client with none left is
/// refused before its assertion is looked at.
struct ServiceAccountTokenRoutes {
    let platform: IdentityPlatform
    let publicURL: String
    let edge: Edge
    let log: @Sendable (String) -> Void

    static let path = "/oauth2/token"

    func register(in router: inout Router) {
        router.add(.post, Self.path, edge.restrictedPlain.handler(token))
    }

    private var token: HTTPResponder {
        { [platform, publicURL, log] request in
            let limiter = platform.rateLimiter
            let client = request.clientKey
            guard limiter.hasToken(.serviceAccountTokenFailuresPerClient, key: client) else {
                return Self.render(
                    OAuthError("invalid_request", "Too many failed token requests from this client; try again later.",
                        status: 429))
            }
            do {
                let fields = RequestFields(form: String(decoding: request.body, as: UTF8.self))
                let response = try platform.serviceAccountTokens.grant(
                    grantType: try fields.string("grantType"), assertion: try fields.string("assertion"),
                    tokenEndpoint: publicURL + Self.path)
                var http = Responses.json(response)
                http.headers["Cache-Control"] = "no-store"
                return http
            } catch let error as OAuthError {
                limiter.charge(.serviceAccountTokenFailuresPerClient, key: client)
                return Self.render(error)
            } catch {
                let failure = WireFailure(error)
                if let fault = failure.fault { log("\(fault) method=POST path=\(Self.path)") }
                return Self.render(
                    OAuthError("temporarily_unavailable", "The server cannot issue tokens right now.", status: 503))
            }
        }
    }

    static func render(_ error: OAuthError) -> HTTPResponse {
        var response = Responses.json(error.body, status: error.status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
