import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Blocking HTTP exchanges over URLSession, safe to call from the HTTP server's worker threads. The one
/// mechanism behind the Google fetches (`URLSessionFetcher`) and the SMS senders (`URLSessionPoster`).
///
/// - Authentication challenges are never answered: a 401 comes back as the answer. (On Linux, URLSession
///   would otherwise stall until the timeout on a 401 carrying `WWW-Authenticate: Basic realm=…`.)
/// - Redirects are followed only when asked for.
/// - The call returns (throwing `URLError(.timedOut)`) at most about a second after `timeout`.
final class BlockingHTTPClient: Sendable {
    struct Answer: Sendable {
        var status: Int
        /// Header names as the server sent them.
        var headers: [String: String]
        var body: Data
    }

    private let session: URLSession
    private let exchanges: Exchanges
    private let timeout: TimeInterval

    init(timeout: TimeInterval, followRedirects: Bool) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        exchanges = Exchanges(followRedirects: followRedirects)
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
        self.timeout = timeout
    }

    func send(method: String, url: URL, headers: [String: String], body: Data?) throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let outcome = Mutex<Result<Answer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request)
        exchanges.begin(task.taskIdentifier) { result in
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

/// The session's delegate: collects each task's status, headers and body; refuses challenges, and
/// redirects unless told to follow them.
private final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Result<BlockingHTTPClient.Answer, any Error>) -> Void

    private struct Exchange {
        var completion: Completion
        var response: HTTPURLResponse?
        var body = Data()
        var refusedChallenge = false
    }

    private let followRedirects: Bool
    private let open = Mutex<[Int: Exchange]>([:])

    init(followRedirects: Bool) {
        self.followRedirects = followRedirects
    }

    func begin(_ taskIdentifier: Int, completion: @escaping Completion) {
        open.withLock { $0[taskIdentifier] = Exchange(completion: completion) }
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
        completionHandler(followRedirects ? request : nil)
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
        exchange.completion(.success(.init(status: response.statusCode, headers: headers, body: exchange.body)))
    }
}
