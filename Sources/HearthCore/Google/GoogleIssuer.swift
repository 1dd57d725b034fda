public import Foundation
public import HearthProtocol
public import JOSE

/// An OpenID provider whose tokens count as Google sign-ins: Google itself, or in `--dev` mode
/// Hearth's local look-alike.
public protocol GoogleIssuer: Sendable {
    /// The `iss` values this provider puts in its ID tokens.
    var issuerNames: Set<String> { get }
    /// The provider's verification keys. `forceRefresh` says a token named a `kid` the keys lacked: the provider
    /// then returns newer keys if it may fetch them now (a remote provider at most every 30 s), else the same keys.
    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet
    /// What the provider says about an access token, or nil if it does not know the token.
    func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo?
    /// The provider's userinfo for an access token it issued.
    func userInfo(accessToken: String) throws -> [String: JSONValue]
}

/// The parts of a tokeninfo answer Hearth relies on.
public struct AccessTokenInfo: Sendable, Equatable {
    public var audience: String?
    public var authorizedParty: String?
    public var subject: String
    public var expiresIn: Int64
    public var scope: String?

    public init(audience: String?, authorizedParty: String?, subject: String, expiresIn: Int64, scope: String?) {
        self.audience = audience
        self.authorizedParty = authorizedParty
        self.subject = subject
        self.expiresIn = expiresIn
        self.scope = scope
    }
}

/// Google reached over HTTP: its JWKS (in the shared ``KeySetCache``: `Cache-Control` lifetimes, single-flight
/// fetches, unknown-`kid` refetches at most every 30 s, a backoff while the endpoint fails), tokeninfo and userinfo.
public final class RemoteGoogleIssuer: GoogleIssuer {
    public struct Endpoints: Sendable {
        public var jwks: URL
        public var tokenInfo: URL
        public var userInfo: URL

        /// Google's production endpoints.
        public static let google = Endpoints(
            jwks: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!,
            tokenInfo: URL(string: "https://oauth2.googleapis.com/tokeninfo")!,
            userInfo: URL(string: "https://openidconnect.googleapis.com/v1/userinfo")!)

        public init(jwks: URL, tokenInfo: URL, userInfo: URL) {
            self.jwks = jwks
            self.tokenInfo = tokenInfo
            self.userInfo = userInfo
        }
    }

    /// Why fetching the JWKS failed; names the status, never a token.
    private struct KeyFetchFailure: Error, CustomStringConvertible {
        var description: String
    }

    public let issuerNames: Set<String>
    private let endpoints: Endpoints
    private let fetcher: any HTTPFetching
    private let keys: KeySetCache<JWTKeySet>

    /// - Parameters:
    ///   - keyCachePolicy: how long keys are kept, how often an unknown `kid` may refetch them, and the backoff
    ///     after failed fetches.
    public init(
        issuerNames: Set<String> = ["https://accounts.google.com", "accounts.google.com"],
        endpoints: Endpoints = .google, fetcher: any HTTPFetching, time: any TimeSource,
        keyCachePolicy: KeySetCachePolicy = KeySetCachePolicy()
    ) {
        self.issuerNames = issuerNames
        self.endpoints = endpoints
        self.fetcher = fetcher
        keys = KeySetCache(policy: keyCachePolicy, clock: { time.now })
    }

    /// JWKS fetches started so far (for tests).
    public var keyFetchCount: Int { keys.fetchCount }

    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        do {
            if forceRefresh { return try keys.keysAfterUnknownKeyID(fetch: fetchKeys) }
            return try keys.keys(fetch: fetchKeys).keys
        } catch {
            throw WireError(.invalidIdpResponse, "The identity provider's keys could not be fetched.")
        }
    }

    private func fetchKeys() throws -> KeySetCache<JWTKeySet>.Fetched {
        let response = try fetcher.get(endpoints.jwks, headers: [:])
        guard response.status == 200 else { throw KeyFetchFailure(description: "the JWKS answered HTTP \(response.status)") }
        guard let set = try? JSONDecoder().decode(JSONWebKeySet.self, from: response.body) else {
            throw KeyFetchFailure(description: "the JWKS is not a JSON Web Key Set")
        }
        let lifetime = CacheControl.freshnessLifetime(
            cacheControl: response.headers["cache-control"], age: response.headers["age"])
        return (JWTKeySet(jwks: set), lifetime)
    }

    public func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? {
        var components = URLComponents(url: endpoints.tokenInfo, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "access_token", value: accessToken)]
        let response = try fetcher.get(components.url!, headers: [:])
        guard response.status == 200, case .object(let info)? = try? JSONValue(parsing: response.body),
            let subject = info["sub"]?.stringValue
        else { return nil }
        let expiresIn: Int64? = switch info["expires_in"] {
        case .integer(let value): value
        case .string(let text): Int64(text)
        default: nil
        }
        return AccessTokenInfo(
            audience: info["aud"]?.stringValue, authorizedParty: info["azp"]?.stringValue, subject: subject,
            expiresIn: expiresIn ?? 0, scope: info["scope"]?.stringValue)
    }

    /// - Throws: `INVALID_IDP_RESPONSE` when userinfo does not answer 200 with a JSON object, or does not answer
    ///   at all (a timeout is a refused sign-in, not a server fault).
    public func userInfo(accessToken: String) throws -> [String: JSONValue] {
        let noProfile = WireError(.invalidIdpResponse, "The identity provider did not return the user's profile.")
        guard let response = try? fetcher.get(endpoints.userInfo, headers: ["Authorization": "Bearer \(accessToken)"]),
            response.status == 200, case .object(let info)? = try? JSONValue(parsing: response.body)
        else { throw noProfile }
        return info
    }
}
