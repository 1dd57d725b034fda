public import Foundation

/// A blocking HTTP GET, so that Hearth core can fetch identity providers' keys and token information without
/// knowing how HTTP is done. The server supplies a URLSession-based implementation; tests a fake.
public protocol HTTPFetching: Sendable {
    func get(_ url: URL, headers: [String: String]) throws -> FetchedResponse
}

public struct FetchedResponse: Sendable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// A blocking form POST (`application/x-www-form-urlencoded`), for the token and revocation endpoints of identity
/// providers (Apple's `/auth/token` and `/auth/revoke`). The server supplies a URLSession-based implementation
/// (``HTTPFetching``'s, with the same timeout); tests a fake.
public protocol HTTPFormPosting: Sendable {
    /// POSTs `fields`, form-encoded in this order, to `url` and returns the answer whatever its status. Redirects
    /// are not followed (the form carries secrets). Throws only when no answer arrives (unreachable, timed out).
    func postForm(_ url: URL, fields: [(name: String, value: String)], headers: [String: String]) throws -> FetchedResponse
}
