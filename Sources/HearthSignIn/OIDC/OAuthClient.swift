import Foundation
import HearthProtocol

/// The token endpoint's answer (RFC 6749 §5.1) with Google's extras.
struct TokenResponse: Sendable {
    var accessToken: String
    var expiresIn: TimeInterval?
    var refreshToken: String?
    /// Google: set for time-limited grants.
    var refreshTokenExpiresIn: TimeInterval?
    var scope: String?
    var idToken: String?
    /// Google: the one-time code for the backend, present when `audience` was sent.
    var serverCode: String?

    init(json: [String: JSONValue]) throws(SignInError) {
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw SignInError(.unknown, "The token response has no access_token.")
        }
        self.accessToken = accessToken
        expiresIn = json["expires_in"].flatMap(Self.seconds)
        refreshToken = json["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        refreshTokenExpiresIn = json["refresh_token_expires_in"].flatMap(Self.seconds)
        scope = json["scope"]?.stringValue
        idToken = json["id_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        serverCode = json["server_code"]?.stringValue
    }

    /// A number of seconds, sent as a JSON number or (by some servers) a string.
    private static func seconds(_ value: JSONValue) -> TimeInterval? {
        switch value {
        case .integer(let number): TimeInterval(number)
        case .double(let number): number
        case .string(let text): TimeInterval(text)
        default: nil
        }
    }

    var grantedScopes: [String]? {
        scope.map { $0.split(separator: " ").map(String.init) }
    }
}

/// An ID token whose signature and claims passed ``OAuthClient/validateIDToken(_:nonce:subject:)``.
struct ValidatedIDToken: Sendable {
    var token: String
    var claims: [String: JSONValue]
    var subject: String
    var expiration: Date

    func string(_ name: String) -> String? { claims[name]?.stringValue }
}

/// The discovery document of one issuer, fetched on first use and kept for the instance's lifetime.
actor ProviderCache {
    private let http: HTTPExchange
    private let issuer: String
    private var metadata: ProviderMetadata?

    init(http: HTTPExchange, issuer: String) {
        self.http = http
        self.issuer = issuer
    }

    func providerMetadata() async throws(SignInError) -> ProviderMetadata {
        if let metadata { return metadata }
        guard let url = ProviderMetadata.discoveryURL(issuer: issuer) else {
            throw SignInError(.unknown, "The issuer \(issuer) is not a valid URL.")
        }
        let reply = try await http.get(url, purpose: "OpenID discovery")
        guard reply.isSuccess else {
            throw SignInError(.unknown, "OpenID discovery at \(url.absoluteString) answered HTTP \(reply.status).")
        }
        let fetched = try ProviderMetadata(document: reply.body, expectedIssuer: issuer)
        metadata = fetched
        return fetched
    }
}

/// The protocol operations of one configured client: token exchange and refresh, ID token validation, userinfo
/// and revocation. Shared by ``GoogleSignIn`` and the ``GoogleUser``s it creates.
final class OAuthClient: Sendable {
    let configuration: SignInConfiguration
    let http: HTTPExchange
    let provider: ProviderCache
    /// The issuer's JWKS document, in the key cache Hearth's verifiers share: kept for its `Cache-Control`
    /// lifetime, fetched once for concurrent sign-ins, refetched for an unknown `kid` at most every 30 s.
    let keySets: KeySetCache<Data>
    let verifier: any IDTokenSignatureVerifier
    let clock: @Sendable () -> Date

    init(
        configuration: SignInConfiguration, transport: any SignInTransport, verifier: any IDTokenSignatureVerifier,
        clock: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.http = HTTPExchange(transport: transport)
        self.provider = ProviderCache(http: http, issuer: configuration.issuerString)
        self.keySets = KeySetCache(clock: clock)
        self.verifier = verifier
        self.clock = clock
    }

    // MARK: Token endpoint

    /// The authorization code grant (RFC 6749 §4.1.3) with the PKCE verifier (RFC 7636 §4.5).
    func exchangeCode(_ code: String, codeVerifier: String, redirectURI: String) async throws(SignInError) -> TokenResponse {
        try await tokenRequest([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", configuration.clientID), ("code_verifier", codeVerifier),
        ])
    }

    /// The refresh token grant (RFC 6749 §6). `invalid_grant` (expired or revoked) becomes `.refreshTokenExpired`.
    func refresh(_ refreshToken: String) async throws(SignInError) -> TokenResponse {
        do {
            return try await tokenRequest([
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", configuration.clientID),
            ])
        } catch where error.oauthError == "invalid_grant" {
            throw SignInError(
                .refreshTokenExpired, "The refresh token is expired or revoked; sign in again. (\(error.message))",
                oauthError: error.oauthError, oauthErrorDescription: error.oauthErrorDescription)
        }
    }

    private func tokenRequest(_ pairs: [(String, String)]) async throws(SignInError) -> TokenResponse {
        var pairs = pairs
        if let secret = configuration.clientSecret { pairs.append(("client_secret", secret)) }
        if let audience = configuration.serverClientID { pairs.append(("audience", audience)) }
        let endpoint = try await provider.providerMetadata().tokenEndpoint
        let reply = try await http.postForm(endpoint, pairs, purpose: "the token endpoint")
        guard reply.isSuccess else {
            if let (error, description) = reply.oauthError {
                throw SignInError(
                    .unknown, "The token endpoint refused the request: \(error)\(description.map { ": \($0)" } ?? "")",
                    oauthError: error, oauthErrorDescription: description)
            }
            throw SignInError(.unknown, "The token endpoint answered HTTP \(reply.status).")
        }
        guard let json = reply.json else { throw SignInError(.unknown, "The token response is not a JSON object.") }
        return try TokenResponse(json: json)
    }

    // MARK: ID token

    /// Verifies an ID token of this issuer for this client; see ``IDTokenValidator/validate(_:nonce:subject:)``.
    func validateIDToken(_ token: String, nonce: String?, subject expectedSubject: String?) async throws(SignInError)
        -> ValidatedIDToken
    {
        let validator = IDTokenValidator(
            issuer: configuration.issuerString, alsoAcceptedIssuer: configuration.isGoogle ? "accounts.google.com" : nil,
            clientID: configuration.clientID, keySets: keySets, verifier: verifier, clock: clock,
            fetchKeySet: { [provider, http] in
                let url = try await provider.providerMetadata().jwksURI
                return try await http.keySet(at: url)
            })
        return try await validator.validate(token, nonce: nonce, subject: expectedSubject)
    }

    // MARK: userinfo and revocation

    /// The userinfo endpoint (OpenID Connect Core §5.3) with the access token as a Bearer token.
    func userInfo(accessToken: String) async throws(SignInError) -> [String: JSONValue] {
        guard let endpoint = try await provider.providerMetadata().userinfoEndpoint else {
            throw SignInError(.unknown, "The issuer has no userinfo endpoint.")
        }
        let reply = try await http.get(endpoint, bearer: accessToken, purpose: "the userinfo endpoint")
        guard reply.isSuccess, let json = reply.json else {
            throw SignInError(.unknown, "The userinfo endpoint answered HTTP \(reply.status).")
        }
        return json
    }

    enum RevocationOutcome: Sendable, Equatable {
        case revoked
        /// The server answered `invalid_token`: the token was already expired or revoked.
        case alreadyInvalid
    }

    /// Token revocation (RFC 7009 §2.1): `POST <revocation_endpoint>` with `token`.
    func revoke(_ token: String) async throws(SignInError) -> RevocationOutcome {
        let metadata = try await provider.providerMetadata()
        guard let endpoint = metadata.revocationEndpoint ?? (configuration.isGoogle ? ProviderMetadata.googleRevocationEndpoint : nil)
        else { throw SignInError(.unknown, "The issuer has no revocation endpoint.") }
        let reply = try await http.postForm(endpoint, [("token", token)], purpose: "the revocation endpoint")
        if reply.isSuccess { return .revoked }
        if let (error, description) = reply.oauthError {
            if error == "invalid_token" { return .alreadyInvalid }
            throw SignInError(
                .unknown, "The revocation endpoint refused the request: \(error)\(description.map { ": \($0)" } ?? "")",
                oauthError: error, oauthErrorDescription: description)
        }
        throw SignInError(.unknown, "The revocation endpoint answered HTTP \(reply.status).")
    }
}
