public import Foundation

/// A blocking HTTP GET, so that Hearth core can fetch Google's keys and token information without
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

    /// Seconds a response may be cached: `Cache-Control: max-age` minus `Age`, or nil.
    public var freshnessLifetime: Int64? {
        guard let cacheControl = headers["cache-control"] else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let maxAge = Int64(parts[1]) {
                let age = headers["age"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } ?? 0
                return max(0, maxAge - age)
            }
        }
        return nil
    }
}
