public import Foundation
public import JOSE
import HearthProtocol
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Fetches a JSON Web Key Set: the seam ``IDTokenVerifier`` gets its keys through.
///
/// Implementations block the calling thread until the keys arrive or the fetch fails. The verifier's key cache calls
/// `fetchJWKS(from:)` from one thread at a time and never while holding a lock, so an implementation needs no
/// coordination of its own.
public protocol JWKSFetching: Sendable {
    /// Fetches the key set at `url`.
    ///
    /// - Parameter url: the JWKS document, such as `<hearth URL>/.well-known/jwks.json`.
    /// - Returns: the keys, and how long they may be cached in seconds, as
    ///   `CacheControl.freshnessLifetime(cacheControl:age:)` reads the response (`max-age` minus `Age`, 0 for
    ///   `no-cache`/`no-store`, `nil` when the response says nothing).
    /// - Throws: any error when no usable key set arrived; the verifier then keeps the keys it has.
    func fetchJWKS(from url: URL) throws -> (keys: JSONWebKeySet, maxAge: TimeInterval?)
}

/// Why ``URLSessionJWKSFetcher`` or ``URLSessionHTTPTransport`` failed. The description names the URL's host and
/// the HTTP status, never a token.
public struct HTTPFetchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let reason: String

    /// Creates an error.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Fetches a JWKS over HTTP(S) with `URLSession`, blocking until the answer arrives.
///
/// ```swift
/// let fetcher = URLSessionJWKSFetcher()
/// let (keys, maxAge) = try fetcher.fetchJWKS(from: URL(string: "http://127.0.0.1:9099/.well-known/jwks.json")!)
/// ```
public struct URLSessionJWKSFetcher: JWKSFetching {
    private let session: URLSession
    private let timeout: TimeInterval

    /// Creates a fetcher.
    ///
    /// - Parameters:
    ///   - session: the session to fetch with.
    ///   - timeout: seconds to wait for the answer.
    public init(session: URLSession = .shared, timeout: TimeInterval = 10) {
        self.session = session
        self.timeout = timeout
    }

    /// Fetches the key set with a GET. Only a 200 answer whose body is a JWKS counts.
    ///
    /// - Throws: ``HTTPFetchError``.
    public func fetchJWKS(from url: URL) throws -> (keys: JSONWebKeySet, maxAge: TimeInterval?) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (response, body): (HTTPURLResponse, Data)
        do {
            (response, body) = try BlockingHTTP.send(request, session: session)
        } catch {
            throw HTTPFetchError(reason: "fetching the JWKS from \(url.host ?? "?") failed: \(error)")
        }
        guard response.statusCode == 200 else {
            throw HTTPFetchError(reason: "the JWKS at \(url.host ?? "?") answered HTTP \(response.statusCode)")
        }
        let keys: JSONWebKeySet
        do {
            keys = try JSONDecoder().decode(JSONWebKeySet.self, from: body)
        } catch {
            throw HTTPFetchError(reason: "the JWKS at \(url.host ?? "?") is not a JSON Web Key Set")
        }
        return (
            keys,
            CacheControl.freshnessLifetime(
                cacheControl: response.value(forHTTPHeaderField: "Cache-Control"),
                age: response.value(forHTTPHeaderField: "Age")))
    }
}
