public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one JSON POST and waits for the answer: the seam ``RevocationCheck`` talks to Hearth through.
public protocol HTTPTransport: Sendable {
    /// Posts `body` (JSON) to `url` and blocks until the answer arrives.
    ///
    /// - Returns: the HTTP status and the response body, whatever the status.
    /// - Throws: only when no HTTP answer arrived (connection refused, timeout).
    func postJSON(_ body: Data, to url: URL) throws -> (status: Int, body: Data)
}

/// ``HTTPTransport`` over `URLSession`.
public struct URLSessionHTTPTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: the session to send with.
    ///   - timeout: seconds to wait for an answer.
    public init(session: URLSession = .shared, timeout: TimeInterval = 10) {
        self.session = session
        self.timeout = timeout
    }

    /// - Throws: ``HTTPFetchError`` when no answer arrived.
    public func postJSON(_ body: Data, to url: URL) throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        do {
            let (response, data) = try BlockingHTTP.send(request, session: session)
            return (response.statusCode, data)
        } catch {
            throw HTTPFetchError(reason: "POST to \(url.host ?? "?")\(url.path) failed: \(error)")
        }
    }
}
