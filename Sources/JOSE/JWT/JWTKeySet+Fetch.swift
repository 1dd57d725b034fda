public import Foundation
public import HearthProtocol

extension JWTKeySet {
    /// Why ``fetch(from:over:)`` got no keys; names the host and the status, never a token.
    public struct FetchFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// GETs the JSON Web Key Set at `url`: the one JWKS fetch behind Hearth's remote issuers and HearthVerify.
    ///
    /// Only a 200 answer whose body is a JWKS counts.
    ///
    /// - Returns: the keys, and how long they stay fresh as `CacheControl.freshnessLifetime(cacheControl:age:)` reads
    ///   the answer, which is what a ``KeySetCache`` fetch returns.
    /// - Throws: ``FetchFailure``.
    public static func fetch(from url: URL, over http: any OutboundHTTP) throws(FetchFailure) -> KeySetCache<JWTKeySet>.Fetched {
        let host = url.host ?? "?"
        let response: OutboundResponse
        do {
            response = try http.send(.get(url, headers: ["Accept": "application/json"]))
        } catch {
            throw FetchFailure(description: "fetching the JWKS from \(host) failed: \(OutboundFailure.describe(error))")
        }
        guard response.status == 200 else {
            throw FetchFailure(description: "the JWKS at \(host) answered HTTP \(response.status)")
        }
        guard let set = try? JSONDecoder().decode(JSONWebKeySet.self, from: response.body) else {
            throw FetchFailure(description: "the JWKS at \(host) is not a JSON Web Key Set")
        }
        let lifetime = CacheControl.freshnessLifetime(cacheControl: response.headers["cache-control"], age: response.headers["age"])
        return (JWTKeySet(jwks: set), lifetime)
    }
}
