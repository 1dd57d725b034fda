public import Foundation

/// A blocking HTTP POST, for the SMS senders and the email webhook. Implementations apply a timeout and do not
/// follow redirects.
public protocol HTTPPosting: Sendable {
    /// POSTs `body` to `url` and waits for the answer.
    /// - Returns: the status code and body of any HTTP answer (non-2xx included).
    /// - Throws: when no HTTP answer arrived (connection refused, DNS, TLS, timeout).
    func post(_ url: URL, headers: [String: String], body: Data) throws -> (status: Int, body: Data)
}

/// Blocking POSTs over URLSession, safe to call from the HTTP server's worker threads.
///
/// - Redirects are not followed: a 3xx comes back as the answer, so a body carrying a code (and its signature)
///   is never re-sent to a host the operator did not configure.
/// - Authentication challenges are not answered: a 401 comes back as the answer (Twilio sends one with
///   `WWW-Authenticate: Basic realm=…` for a wrong auth token).
public struct URLSessionPoster: HTTPPosting {
    private let client: BlockingHTTPClient

    /// - Parameter timeout: seconds for the whole request; the call returns (throwing `URLError(.timedOut)`)
    ///   at most about a second after it.
    public init(timeout: TimeInterval = 10) {
        client = BlockingHTTPClient(timeout: timeout, followRedirects: false)
    }

    public func post(_ url: URL, headers: [String: String], body: Data) throws -> (status: Int, body: Data) {
        let answer = try client.send(method: "POST", url: url, headers: headers, body: body)
        return (answer.status, answer.body)
    }
}
