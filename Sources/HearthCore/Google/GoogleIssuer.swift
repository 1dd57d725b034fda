public import Foundation
public import HearthProtocol
public import JOSE
import Synchronization

/// An OpenID provider whose tokens count as Google sign-ins: Google itself, or in `--dev` mode
/// Hearth's local look-alike.
public protocol GoogleIssuer: Sendable {
    /// The `iss` values this provider puts in its ID tokens.
    var issuerNames: Set<String> { get }
    /// The provider's verification keys; `forceRefresh` asks for a fresh copy (used once for an unknown `kid`).
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

/// Google reached over HTTP: its JWKS (cached per `Cache-Control`), tokeninfo and userinfo.
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

    public let issuerNames: Set<String>
    private let endpoints: Endpoints
    private let fetcher: any HTTPFetching
    private let time: any TimeSource
    /// Cached keys and the time (seconds) they stop being fresh, plus when we last fetched.
    private let cache = Mutex<(keys: JWTKeySet, freshUntil: Int64, fetchedAt: Int64)?>(nil)
    /// Shortest gap between forced refetches, so unknown `kid`s cannot make us hammer the JWKS endpoint.
    private let minimumRefetchInterval: Int64 = 30

    public init(
        issuerNames: Set<String> = ["https://accounts.google.com", "accounts.google.com"],
        endpoints: Endpoints = .google, fetcher: any HTTPFetching, time: any TimeSource
    ) {
        self.issuerNames = issuerNames
        self.endpoints = endpoints
        self.fetcher = fetcher
        self.time = time
    }

    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        let now = time.nowSeconds
        if let cached = cache.withLock({ $0 }) {
            let fresh = now < cached.freshUntil
            let mayRefetch = now - cached.fetchedAt >= minimumRefetchInterval
            if fresh && !forceRefresh { return cached.keys }
            if forceRefresh && !mayRefetch { return cached.keys }
        }
        do {
            let response = try fetcher.get(endpoints.jwks, headers: [:])
            guard response.status == 200 else { throw WireError(.invalidIdpResponse, "The identity provider's keys could not be fetched.") }
            let set = try JSONDecoder().decode(JSONWebKeySet.self, from: response.body)
            let keys = JWTKeySet(jwks: set)
            let lifetime = response.freshnessLifetime ?? 3600
            cache.withLock { $0 = (keys, now + lifetime, now) }
            return keys
        } catch {
            // Serve stale keys rather than failing every sign-in while Google is unreachable.
            if let stale = cache.withLock({ $0 }) { return stale.keys }
            throw WireError(.invalidIdpResponse, "The identity provider's keys could not be fetched.")
        }
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

    public func userInfo(accessToken: String) throws -> [String: JSONValue] {
        let response = try fetcher.get(endpoints.userInfo, headers: ["Authorization": "Bearer \(accessToken)"])
        guard response.status == 200, case .object(let info)? = try? JSONValue(parsing: response.body) else {
            throw WireError(.invalidIdpResponse, "The identity provider did not return the user's profile.")
        }
        return info
    }
}
