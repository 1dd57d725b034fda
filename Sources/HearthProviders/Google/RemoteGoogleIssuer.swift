public import Foundation
public import HearthCore
public import HearthProtocol
public import JOSE

/// Google reached over HTTP: its JWKS (a ``RemoteOpenIDIssuer``), tokeninfo and userinfo.
public final class RemoteGoogleIssuer: GoogleAccessTokenIssuer {
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

    private let endpoints: Endpoints
    private let http: any OutboundHTTP
    private let keys: RemoteOpenIDIssuer

    /// - Parameters:
    ///   - http: how the JWKS, tokeninfo and userinfo are fetched.
    ///   - keyCachePolicy: how long keys are kept, how often an unknown `kid` may refetch them, and the backoff
    ///     after failed fetches.
    public init(
        issuerNames: Set<String> = ["https://accounts.google.com", "accounts.google.com"],
        endpoints: Endpoints = .google, http: any OutboundHTTP, time: any TimeSource,
        keyCachePolicy: KeySetCachePolicy = KeySetCachePolicy()
    ) {
        self.endpoints = endpoints
        self.http = http
        keys = RemoteOpenIDIssuer(
            issuerNames: issuerNames, keys: .jwks(endpoints.jwks), http: http, time: time,
            keyCachePolicy: keyCachePolicy)
    }

    public var issuerNames: Set<String> { keys.issuerNames }

    /// JWKS fetches started so far (for tests).
    public var keyFetchCount: Int { keys.keyFetchCount }

    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        try keys.verificationKeys(forceRefresh: forceRefresh)
    }

    public func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? {
        var components = URLComponents(url: endpoints.tokenInfo, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "access_token", value: accessToken)]
        let response = try http.send(.get(components.url!))
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
        guard let response = try? http.send(.get(endpoints.userInfo, headers: ["Authorization": "Bearer \(accessToken)"])),
            response.status == 200, case .object(let info)? = try? JSONValue(parsing: response.body)
        else { throw noProfile }
        return info
    }
}
