public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import HearthProtocol
import Synchronization

/// ``OutboundHTTP`` over URLSession: the one client behind Hearth's calls to identity providers, Apple, SMS gateways
/// and webhooks, and HearthVerify's JWKS and revocation lookups. Blocking, and safe to call from the HTTP server's
/// worker threads and from Dispatch threads (async callers hop off the cooperative pool before calling it, as
/// HearthVerify's async `verify` does).
///
/// - Authentication challenges are never answered: a 401 comes back as the answer. (On Linux, URLSession
///   would otherwise stall until the timeout on a 401 carrying `WWW-Authenticate: Basic realm=…`.)
/// - Redirects are followed only when the request says so (``OutboundRequest/followsRedirects``: GETs, not POSTs).
/// - No cookies, credentials or cache are stored.
/// - A call returns (throwing `URLError(.timedOut)`) at most about a second after `timeout`.
public final class URLSessionOutboundHTTP: OutboundHTTP {
    private let session: URLSession
    private let exchanges: Exchanges
    private let timeout: TimeInterval

    /// - Parameter timeout: seconds a whole exchange may take (Hearth's `outbound.timeoutSeconds`, 5 by default).
    public init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        exchanges = Exchanges()
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
        self.timeout = timeout
    }

    public func send(_ request: OutboundRequest) throws -> OutboundResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let outcome = Mutex<Result<OutboundResponse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest)
        exchanges.begin(task.taskIdentifier, followsRedirects: request.followsRedirects) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            exchanges.abandon(task.taskIdentifier)
            task.cancel()
            throw URLError(.timedOut)
        }
        return try outcome.withLock { $0 ?? .failure(URLError(.unknown)) }.get()
    }
}

/// The session's delegate: collects each task's status, headers and body; refuses challenges, and redirects of the
/// tasks that do not follow them.
private final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Result<OutboundResponse, any Error>) -> Void

    private struct Exchange {
        var completion: Completion
        var followsRedirects: Bool
        var response: HTTPURLResponse?
        var body = Data()
        var refusedChallenge = false
    }

    private let open = Mutex<[Int: Exchange]>([:])

    func begin(_ taskIdentifier: Int, followsRedirects: Bool, completion: @escaping Completion) {
        open.withLock { $0[taskIdentifier] = Exchange(completion: completion, followsRedirects: followsRedirects) }
    }

    func abandon(_ taskIdentifier: Int) {
        _ = open.withLock { $0.removeValue(forKey: taskIdentifier) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            open.withLock { $0[dataTask.taskIdentifier]?.response = http }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        open.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follows = open.withLock { $0[task.taskIdentifier]?.followsRedirects ?? false }
        completionHandler(follows ? request : nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation only reaches this for a 401 it has already read; "default handling" without a
        // stored credential would never complete the task, so cancel and report the 401 (didCompleteWithError).
        open.withLock { $0[task.taskIdentifier]?.refusedChallenge = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Darwin: without credentials, default handling delivers the 401 (and server-trust evaluation stays normal).
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = open.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        guard let response = exchange.response ?? (task.response as? HTTPURLResponse),
            error == nil || exchange.refusedChallenge
        else {
            exchange.completion(.failure(error ?? URLError(.badServerResponse)))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        exchange.completion(.success(OutboundResponse(status: response.statusCode, headers: headers, body: exchange.body)))
    }
}
