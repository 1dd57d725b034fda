public import Foundation
public import HearthCore
import HearthProtocol

/// Blocking GETs over URLSession, for Google's keys, tokeninfo and userinfo, and form POSTs, for Apple's token and
/// revocation endpoints. GETs follow redirects; POSTs do not (their forms carry client secrets). Authentication
/// challenges are not answered (a 401 is the answer).
public final class URLSessionFetcher: HTTPFetching, HTTPFormPosting {
    private let client: BlockingHTTPClient
    private let poster: BlockingHTTPClient

    /// - Parameter timeout: seconds a call may take (`outbound.timeoutSeconds`, 5 by default).
    public init(timeout: TimeInterval = OutboundCallLimits().timeout) {
        client = BlockingHTTPClient(timeout: timeout, followRedirects: true)
        poster = BlockingHTTPClient(timeout: timeout, followRedirects: false)
    }

    public func get(_ url: URL, headers: [String: String]) throws -> FetchedResponse {
        let answer = try client.send(method: "GET", url: url, headers: headers, body: nil)
        return FetchedResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }

    public func postForm(_ url: URL, fields: [(name: String, value: String)], headers: [String: String]) throws -> FetchedResponse {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        let body = Data(FormEncoding.encode(fields.map { ($0.name, $0.value) }).utf8)
        let answer = try poster.send(method: "POST", url: url, headers: headers, body: body)
        return FetchedResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
