public import Foundation
public import HearthCore
public import HearthProtocol
public import JOSE
import Synchronization

/// An OpenID issuer reached over HTTP: its JWKS (in the shared ``KeySetCache``: `Cache-Control` lifetimes,
/// single-flight fetches, unknown-`kid` refetches at most every 30 s, a backoff while the endpoint fails), at a
/// known URL or at the `jwks_uri` of its discovery document (`<issuer>/.well-known/openid-configuration`, read
/// once it is first needed, so Hearth starts while the provider is down), and its token endpoint for exchanging
/// authorization codes, likewise known or discovered.
public final class RemoteOpenIDIssuer: OpenIDIssuer {
    /// Where the keys are.
    public enum KeySource: Sendable {
        /// The JWKS at this URL.
        case jwks(URL)
        /// The `jwks_uri` of the discovery document of this issuer (whose `issuer` must be the same; the `jwks_uri`
        /// https, or http only when the issuer is).
        case discovery(issuer: String)
    }

    /// Where the token endpoint is.
    public enum TokenEndpointSource: Sendable {
        /// This URL.
        case url(URL)
        /// The `token_endpoint` of the discovery document of this issuer (same rules as for the `jwks_uri`).
        case discovery(issuer: String)
    }

    /// The endpoints a valid discovery document names.
    private struct Discovered {
        var keysURL: URL?
        var tokenEndpoint: URL?
    }

    /// Why the keys or an endpoint could not be found; names the status, never a token.
    private struct FetchFailure: Error, CustomStringConvertible {
        var description: String
    }

    public let issuerNames: Set<String>
    private let source: KeySource
    private let tokenEndpointSource: TokenEndpointSource?
    private let http: any OutboundHTTP
    private let keys: KeySetCache<JWTKeySet>
    private let discovered = Mutex<Discovered?>(nil)

    /// - Parameters:
    ///   - tokenEndpoint: where ``tokenEndpoint()`` is; nil for an issuer whose codes Hearth never exchanges.
    ///   - http: how the JWKS and the discovery document are fetched.
    ///   - keyCachePolicy: how long keys are kept, how often an unknown `kid` may refetch them, and the backoff
    ///     after failed fetches.
    public init(
        issuerNames: Set<String>, keys source: KeySource, tokenEndpoint: TokenEndpointSource? = nil,
        http: any OutboundHTTP, time: any TimeSource, keyCachePolicy: KeySetCachePolicy = KeySetCachePolicy()
    ) {
        self.issuerNames = issuerNames
        self.source = source
        self.tokenEndpointSource = tokenEndpoint
        self.http = http
        keys = KeySetCache(policy: keyCachePolicy, clock: { time.now })
    }

    /// JWKS fetches started so far (for tests).
    public var keyFetchCount: Int { keys.fetchCount }

    /// - Throws: `INVALID_IDP_RESPONSE` when there are no keys and they cannot be fetched now.
    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        do {
            if forceRefresh { return try keys.keysAfterUnknownKeyID(fetch: fetchKeys) }
            return try keys.keys(fetch: fetchKeys).keys
        } catch {
            throw WireError(.invalidIdpResponse, "The identity provider's keys could not be fetched.")
        }
    }

    private func fetchKeys() throws -> KeySetCache<JWTKeySet>.Fetched {
        try JWTKeySet.fetch(from: try keysURL(), over: http)
    }

    /// The token endpoint, where authorization codes are exchanged: configured, else discovered (the discovery
    /// document is read until one names it, then kept).
    ///
    /// - Throws: `INVALID_IDP_RESPONSE` when there is none, or the discovery document cannot be read or names none.
    public func tokenEndpoint() throws -> URL {
        do {
            switch tokenEndpointSource {
            case .url(let url):
                return url
            case .discovery(let issuer):
                return try discovered(\.tokenEndpoint, named: "token_endpoint", issuer: issuer)
            case nil:
                throw FetchFailure(description: "no token endpoint is configured")
            }
        } catch {
            throw WireError(.invalidIdpResponse, "The identity provider's token endpoint is not known.")
        }
    }

    /// The JWKS URL: configured, else discovered (runs inside a key fetch, so failures back off with it).
    private func keysURL() throws -> URL {
        switch source {
        case .jwks(let url):
            return url
        case .discovery(let issuer):
            return try discovered(\.keysURL, named: "jwks_uri", issuer: issuer)
        }
    }

    /// One endpoint of the issuer's discovery document.
    private func discovered(_ endpoint: KeyPath<Discovered, URL?>, named name: String, issuer: String) throws -> URL {
        guard let url = try discovery(issuer)[keyPath: endpoint] else {
            throw FetchFailure(description: "the discovery document names no usable \(name)")
        }
        return url
    }

    /// The endpoints of `<issuer>/.well-known/openid-configuration`, whose `issuer` must be `issuer`; an endpoint that
    /// is not https (or http when the document is) counts as absent.
    private func discovery(_ issuer: String) throws -> Discovered {
        if let known = discovered.withLock({ $0 }) { return known }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let document = URL(string: base + "/.well-known/openid-configuration") else {
            throw FetchFailure(description: "the issuer is not a URL")
        }
        let response = try http.send(.get(document))
        guard response.status == 200, case .object(let fields)? = try? JSONValue(parsing: response.body),
            fields["issuer"]?.stringValue == issuer
        else { throw FetchFailure(description: "the discovery document does not name the issuer") }
        func endpoint(_ name: String) -> URL? {
            guard let text = fields[name]?.stringValue, let url = URL(string: text),
                url.scheme == "https" || url.scheme == document.scheme
            else { return nil }
            return url
        }
        let found = Discovered(keysURL: endpoint("jwks_uri"), tokenEndpoint: endpoint("token_endpoint"))
        // Kept only when it names every endpoint this issuer discovers, so a provider that fixes its document is read again.
        if case .discovery = source, found.keysURL == nil { return found }
        if case .discovery? = tokenEndpointSource, found.tokenEndpoint == nil { return found }
        discovered.withLock { $0 = found }
        return found
    }
}
