public import Foundation
public import HearthCore
public import HearthProtocol

/// Exchanges an `oidc.*` provider's authorization code for its tokens at the provider's token endpoint, as the
/// project's confidential client (`client_secret_post`): the code flow of Firebase's web SDK, where `signInWithIdp`
/// carries the provider's `code` instead of an `id_token`.
///
/// The ID token it returns is not verified here: `signInWithIdp` verifies it like any other (issuer, signature,
/// audience = ``clientID``, expiry, nonce). Calls block for at most the client's timeout (`outbound.timeoutSeconds`).
/// No error, log or description carries the code, a token or the client secret.
public struct OpenIDCodeExchange: AuthorizationCodeExchanging, CustomStringConvertible {
    /// The client ID codes are exchanged as, and the audience the returned ID token must name.
    public let clientID: String
    private let clientSecret: String
    private let tokenEndpoint: @Sendable () throws -> URL
    private let http: any OutboundHTTP

    /// - Parameters:
    ///   - clientID: the project's client ID at the provider.
    ///   - clientSecret: its client secret.
    ///   - tokenEndpoint: the provider's token endpoint (``RemoteOpenIDIssuer/tokenEndpoint()``), asked at each
    ///     exchange; throws `INVALID_IDP_RESPONSE` when it is not known.
    ///   - http: how the form is POSTed (`URLSessionOutboundHTTP` in the server).
    public init(
        clientID: String, clientSecret: String, tokenEndpoint: @escaping @Sendable () throws -> URL,
        http: any OutboundHTTP
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.tokenEndpoint = tokenEndpoint
        self.http = http
    }

    public var description: String { "OpenIDCodeExchange(clientID: \(clientID))" }

    /// POSTs `grant_type=authorization_code` with the code, `redirect_uri`, the client's ID and secret and, for a PKCE
    /// flow, the `code_verifier`.
    ///
    /// - Parameters:
    ///   - redirectURI: the `redirect_uri` of the authorization request: the page the provider sent the code to.
    ///   - codeVerifier: the PKCE verifier the client sent along, if any.
    /// - Throws: `INVALID_IDP_RESPONSE` when the provider refuses the code (naming its OAuth error), cannot be reached,
    ///   or answers without an `id_token`.
    public func tokens(code: String, redirectURI: String, codeVerifier: String?) throws -> ExchangedTokens {
        let endpoint = try tokenEndpoint()
        var fields: [(name: String, value: String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", clientID), ("client_secret", clientSecret),
        ]
        if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        let response: OutboundResponse
        do {
            response = try http.send(.postForm(endpoint, fields: fields, headers: ["Accept": "application/json"]))
        } catch {
            throw Self.failure("could not be reached")
        }
        let answer: [String: JSONValue]? = if case .object(let object)? = try? JSONValue(parsing: response.body) {
            object
        } else {
            nil
        }
        guard response.status == 200 else {
            throw Self.failure(Self.refusal(status: response.status, error: answer?["error"]?.stringValue))
        }
        guard let idToken = answer?["id_token"]?.stringValue, !idToken.isEmpty else {
            throw Self.failure("answered without an id_token")
        }
        return ExchangedTokens(idToken: idToken, accessToken: answer?["access_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// "refused the authorization code (invalid_grant)", naming the OAuth error only when it looks like one (RFC 6749
    /// §5.2 error codes are short and printable), so a provider's answer cannot put arbitrary text in the message.
    private static func refusal(status: Int, error: String?) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz_")
        guard let error, (1...40).contains(error.count), error.allSatisfy(allowed.contains) else {
            return "answered HTTP \(status)"
        }
        return "refused the authorization code (\(error))"
    }

    private static func failure(_ what: String) -> WireError {
        WireError(.invalidIdpResponse, "The identity provider's token endpoint \(what).")
    }
}
