public import Foundation
public import HearthCore

/// Blocking GETs over URLSession, for Google's keys, tokeninfo and userinfo. Redirects are followed;
/// authentication challenges are not answered (a 401 is the answer).
public final class URLSessionFetcher: HTTPFetching {
    private let client: BlockingHTTPClient

    /// - Parameter timeout: seconds a GET may take (`outbound.timeoutSeconds`, 5 by default).
    public init(timeout: TimeInterval = OutboundCallLimits().timeout) {
        client = BlockingHTTPClient(timeout: timeout, followRedirects: true)
    }

    public func get(_ url: URL, headers: [String: String]) throws -> FetchedResponse {
        let answer = try client.send(method: "GET", url: url, headers: headers, body: nil)
        return FetchedResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
