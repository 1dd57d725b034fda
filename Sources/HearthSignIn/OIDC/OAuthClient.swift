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

    /// The largest accepted difference between an ID token's `iat` and now, as AppAuth allows.
    static let issuedAtTolerance: TimeInterval = 600

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

    /// Verifies the signature against the issuer's key set (refetched once for an unknown `kid`), then the claims:
    /// `iss` is the issuer (for Google also `accounts.google.com`), `aud` contains the client ID or `azp` is it,
    /// `exp` is in the future, `iat` is within 600 s of now, `nonce` is `nonce` when one was sent, and `sub` is
    /// present (and equal to `subject` when given: a refresh must not switch accounts).
    func validateIDToken(_ token: String, nonce: String?, subject expectedSubject: String?) async throws(SignInError)
        -> ValidatedIDToken
    {
        func reject(_ reason: String) -> SignInError {
            SignInError(.unknown, "The ID token was rejected: \(reason).")
        }
        // Keys rotate: on an unknown kid, try newer keys once (the cache decides whether to fetch), then give up.
        let lookup: KeySetCache<Data>.Lookup
        do { lookup = try await keySets.keys(fetch: fetchKeySet) } catch { throw Self.keysUnavailable(error) }
        var verified = try checkSignature(token, jwks: lookup.keys)
        if verified == nil, !lookup.justFetched {
            let newer: Data
            do { newer = try await keySets.keysAfterUnknownKeyID(fetch: fetchKeySet) } catch { throw Self.keysUnavailable(error) }
            verified = try checkSignature(token, jwks: newer)
        }
        guard let payload = verified else { throw reject("its key is not in the issuer's key set") }
        guard let claims = (try? JSONValue(parsing: payload))?.objectValue else {
            throw reject("the claims are not a JSON object")
        }
        let now = clock()

        let issuer = configuration.issuerString
        guard let iss = claims["iss"]?.stringValue else { throw reject("no iss") }
        guard iss == issuer || (configuration.isGoogle && iss == "accounts.google.com") else {
            throw reject("iss is \(iss), expected \(issuer)")
        }
        let audiences: [String] =
            switch claims["aud"] {
            case .string(let value)?: [value]
            case .array(let values)?: values.compactMap(\.stringValue)
            default: []
            }
        guard audiences.contains(configuration.clientID) || claims["azp"]?.stringValue == configuration.clientID else {
            throw reject("neither aud nor azp is the client ID \(configuration.clientID)")
        }
        guard let exp = NumericDate(claims["exp"]) else { throw reject("no exp in whole seconds between 1970 and 9999") }
        guard exp.isAfter(now) else { throw reject("it expired at \(Self.timestamp(exp.date))") }
        guard let iat = NumericDate(claims["iat"]) else { throw reject("no iat in whole seconds between 1970 and 9999") }
        guard abs(iat.date.timeIntervalSince(now)) <= Self.issuedAtTolerance else {
            throw reject("iat \(Self.timestamp(iat.date)) is more than 600 seconds from now (\(Self.timestamp(now)))")
        }
        if let nonce {
            guard let claimed = claims["nonce"]?.stringValue else { throw reject("no nonce, but the request sent one") }
            guard claimed == nonce else { throw reject("the nonce does not match the request's") }
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw reject("no sub") }
        if let expectedSubject, subject != expectedSubject {
            throw reject("sub changed from \(expectedSubject) to \(subject)")
        }
        return ValidatedIDToken(token: token, claims: claims, subject: subject, expiration: exp.date)
    }

    /// The payload if the signature verifies with `jwks`; nil when no key there has the token's `kid`.
    private func checkSignature(_ token: String, jwks: Data) throws(SignInError) -> Data? {
        do {
            return try verifier.verify(token, jwks: jwks)
        } catch IDTokenSignatureError.unknownKeyID {
            return nil
        } catch IDTokenSignatureError.invalid(let reason) {
            throw SignInError(.unknown, "The ID token was rejected: invalid signature (\(reason)).")
        } catch {
            throw SignInError(.unknown, "The ID token was rejected: invalid signature.")
        }
    }

    /// No signing keys at all: `.canceled` when the task was, else `.unknown` with the reason.
    private static func keysUnavailable(_ error: KeySetUnavailable) -> SignInError {
        if Task.isCancelled { return SignInError.canceled }
        return SignInError(.unknown, "The issuer's signing keys are unavailable: \(error.reason)")
    }

    /// Fetches the JWKS document named by the discovery document, with its freshness lifetime.
    private func fetchKeySet() async throws -> KeySetCache<Data>.Fetched {
        let url = try await provider.providerMetadata().jwksURI
        let reply = try await http.get(url, purpose: "the issuer's signing keys")
        guard reply.isSuccess else {
            throw SignInError(.unknown, "The issuer's key set at \(url.absoluteString) answered HTTP \(reply.status).")
        }
        return (reply.body, reply.freshnessLifetime)
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
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
