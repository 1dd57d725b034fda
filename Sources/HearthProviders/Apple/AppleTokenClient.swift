public import Foundation
public import HearthCore
public import HearthProtocol

/// Hearth's calls to Sign in with Apple's REST API: exchanging an authorization code for tokens (`POST /auth/token`)
/// and revoking a token (`POST /auth/revoke`), each authenticated with an ``AppleClientSecret``.
///
/// Calls block for at most the client's timeout (`outbound.timeoutSeconds`). Failures are ``AppleClientError``
/// values: Apple's `invalid_grant`, `invalid_client` and `invalid_request` by name, and ``AppleClientError/isRetryable``
/// for Apple being unreachable or failing. Nothing here logs, and no error carries a code, token or secret.
///
/// ```swift
/// let apple = AppleTokenClient(clientSecret: secrets, http: URLSessionOutboundHTTP(timeout: 5))
/// let tokens = try apple.exchange(code: code, clientID: "com.example.app", redirectURI: nil)
/// try apple.revoke(token: tokens.refreshToken!, tokenTypeHint: .refreshToken, clientID: "com.example.app")
/// ```
public final class AppleTokenClient: AppleCodeExchanging {
    /// Apple's production base URL.
    public static let defaultEndpoint = URL(string: "https://appleid.apple.com")!

    /// The base URL the `/auth/…` paths are appended to.
    public let endpoint: URL
    private let clientSecret: AppleClientSecret
    private let http: any OutboundHTTP

    /// - Parameters:
    ///   - clientSecret: makes the `client_secret` of each call.
    ///   - http: how the forms are POSTed (`URLSessionOutboundHTTP` in the server, in process for the dev Apple).
    ///   - endpoint: the base URL: Apple's by default, `<public-url>/dev/apple` for the dev look-alike, a fake in tests.
    public init(clientSecret: AppleClientSecret, http: any OutboundHTTP, endpoint: URL = defaultEndpoint) {
        self.clientSecret = clientSecret
        self.http = http
        self.endpoint = endpoint
    }

    /// Exchanges an authorization code for Apple's tokens (`grant_type=authorization_code`).
    ///
    /// - Parameters:
    ///   - code: the authorization code Apple gave the app (valid for five minutes, usable once).
    ///   - clientID: the bundle ID (codes from an Apple-platform app) or services ID (web flow) the code was issued to.
    ///   - redirectURI: the `redirect_uri` of the authorization request, for codes from the web flow; `nil` for
    ///     codes from an app, which had none.
    /// - Returns: Apple's tokens; the ID token is not verified here.
    /// - Throws: ``AppleClientError``.
    public func exchange(code: String, clientID: String, redirectURI: String?) throws(AppleClientError) -> AppleTokenResponse {
        var fields = try authentication(clientID: clientID)
        fields.append((name: "code", value: code))
        fields.append((name: "grant_type", value: "authorization_code"))
        if let redirectURI {
            fields.append((name: "redirect_uri", value: redirectURI))
        }
        let response = try post("auth/token", fields: fields)
        guard case .object(let answer)? = try? JSONValue(parsing: response.body),
            let accessToken = answer["access_token"]?.stringValue, !accessToken.isEmpty,
            let idToken = answer["id_token"]?.stringValue, !idToken.isEmpty
        else {
            throw AppleClientError(
                .invalidResponse, reason: "Apple's token answer has no access_token and id_token", status: response.status)
        }
        let expiresIn: Int64 = switch answer["expires_in"] {
        case .integer(let seconds): seconds
        case .string(let text): Int64(text) ?? 0
        default: 0
        }
        return AppleTokenResponse(
            accessToken: accessToken, tokenType: answer["token_type"]?.stringValue ?? "Bearer", expiresIn: expiresIn,
            refreshToken: answer["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }, idToken: idToken)
    }

    /// Revokes a refresh or access token (what Apple requires when an account is deleted).
    ///
    /// Apple answers 200 also for a token that is already revoked or unknown, so a repeated revocation succeeds.
    ///
    /// - Parameters:
    ///   - token: the token.
    ///   - tokenTypeHint: what kind of token it is.
    ///   - clientID: the client ID the token was issued to.
    /// - Throws: ``AppleClientError``; retry later when ``AppleClientError/isRetryable``.
    public func revoke(token: String, tokenTypeHint: AppleTokenTypeHint, clientID: String) throws(AppleClientError) {
        var fields = try authentication(clientID: clientID)
        fields.append((name: "token", value: token))
        fields.append((name: "token_type_hint", value: tokenTypeHint.rawValue))
        _ = try post("auth/revoke", fields: fields)
    }

    private func authentication(clientID: String) throws(AppleClientError) -> [(name: String, value: String)] {
        [(name: "client_id", value: clientID), (name: "client_secret", value: try clientSecret.secret(clientID: clientID))]
    }

    /// POSTs the form and returns a 200 answer; maps every other outcome to an error.
    private func post(_ path: String, fields: [(name: String, value: String)]) throws(AppleClientError) -> OutboundResponse {
        let url = endpoint.appendingPathComponent(path)
        let response: OutboundResponse
        do {
            response = try http.send(.postForm(url, fields: fields, headers: ["Accept": "application/json"]))
        } catch {
            throw AppleClientError(
                .unavailable, reason: "Apple's /\(path) could not be reached (\(OutboundFailure.describe(error)))")
        }
        switch response.status {
        case 200:
            return response
        case 429, 500...599:
            throw AppleClientError(.unavailable, reason: "Apple's /\(path) answered HTTP \(response.status)", status: response.status)
        default:
            throw Self.rejection(response, path: path)
        }
    }

    /// The error for a non-200, non-5xx answer: Apple's named error if the body is `{"error":"…"}`.
    private static func rejection(_ response: OutboundResponse, path: String) -> AppleClientError {
        guard (400...499).contains(response.status), case .object(let answer)? = try? JSONValue(parsing: response.body),
            let name = answer["error"]?.stringValue, !name.isEmpty
        else {
            return AppleClientError(
                .invalidResponse, reason: "Apple's /\(path) answered HTTP \(response.status) without an OAuth error",
                status: response.status)
        }
        let appleError = String(name.prefix(64))
        let code: AppleClientError.Code = switch appleError {
        case "invalid_grant": .invalidGrant
        case "invalid_client": .invalidClient
        case "invalid_request": .invalidRequest
        default: .rejected
        }
        return AppleClientError(
            code, reason: "Apple's /\(path) refused the request: \(String(reflecting: appleError))", appleError: appleError,
            status: response.status)
    }
}
