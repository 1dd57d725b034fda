public import Foundation
public import HearthProtocol
public import JOSE
import Synchronization

/// An OpenID issuer reached over HTTP: its JWKS (in the shared ``KeySetCache``: `Cache-Control` lifetimes,
/// single-flight fetches, unknown-`kid` refetches at most every 30 s, a backoff while the endpoint fails), at a
/// known URL or at the `jwks_uri` of its discovery document (`<issuer>/.well-known/openid-configuration`, read
/// once, on the first key fetch, so Hearth starts while the provider is down).
public final class RemoteOpenIDIssuer: OpenIDIssuer {
    /// Where the keys are.
    public enum KeySource: Sendable {
        /// The JWKS at this URL.
        case jwks(URL)
        /// The `jwks_uri` of the discovery document of this issuer (whose `issuer` must be the same; the `jwks_uri`
        /// https, or http only when the issuer is).
        case discovery(issuer: String)
    }

    /// Why fetching the keys failed; names the status, never a token.
    private struct KeyFetchFailure: Error, CustomStringConvertible {
        var description: String
    }

    public let issuerNames: Set<String>
    private let source: KeySource
    private let fetcher: any HTTPFetching
    private let keys: KeySetCache<JWTKeySet>
    private let discoveredKeysURL = Mutex<URL?>(nil)

    /// - Parameters:
    ///   - keyCachePolicy: how long keys are kept, how often an unknown `kid` may refetch them, and the backoff
    ///     after failed fetches.
    public init(
        issuerNames: Set<String>, keys source: KeySource, fetcher: any HTTPFetching, time: any TimeSource,
        keyCachePolicy: KeySetCachePolicy = KeySetCachePolicy()
    ) {
        self.issuerNames = issuerNames
        self.source = source
        self.fetcher = fetcher
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
        let response = try fetcher.get(try keysURL(), headers: [:])
        guard response.status == 200 else { throw KeyFetchFailure(description: "the JWKS answered HTTP \(response.status)") }
        guard let set = try? JSONDecoder().decode(JSONWebKeySet.self, from: response.body) else {
            throw KeyFetchFailure(description: "the JWKS is not a JSON Web Key Set")
        }
        let lifetime = CacheControl.freshnessLifetime(
            cacheControl: response.headers["cache-control"], age: response.headers["age"])
        return (JWTKeySet(jwks: set), lifetime)
    }

    /// The JWKS URL: configured, else discovered (runs inside a key fetch, so failures back off with it).
    private func keysURL() throws -> URL {
        switch source {
        case .jwks(let url):
            return url
        case .discovery(let issuer):
            if let known = discoveredKeysURL.withLock({ $0 }) { return known }
            let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            guard let document = URL(string: base + "/.well-known/openid-configuration") else {
                throw KeyFetchFailure(description: "the issuer is not a URL")
            }
            let response = try fetcher.get(document, headers: [:])
            guard response.status == 200, case .object(let discovery)? = try? JSONValue(parsing: response.body),
                discovery["issuer"]?.stringValue == issuer, let text = discovery["jwks_uri"]?.stringValue,
                let url = URL(string: text), url.scheme == "https" || url.scheme == document.scheme
            else { throw KeyFetchFailure(description: "the discovery document has no usable issuer and jwks_uri") }
            discoveredKeysURL.withLock { $0 = url }
            return url
        }
    }
}
