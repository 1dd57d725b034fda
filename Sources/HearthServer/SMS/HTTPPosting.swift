public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A blocking HTTP POST, for the SMS senders. Implementations apply a timeout and do not follow redirects.
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
/// - Authentication challenges are not answered: a 401 comes back as the answer. (On Linux, URLSession would
///   otherwise stall until the timeout on a 401 carrying `WWW-Authenticate: Basic realm=…`, which is exactly
///   what Twilio sends for a wrong auth token.)
public struct URLSessionPoster: HTTPPosting {
    private let session: URLSession
    private let exchanges: Exchanges
    private let timeout: TimeInterval

    /// - Parameter timeout: seconds for the whole request; the call returns (throwing `URLError(.timedOut)`)
    ///   at most about a second after it.
    public init(timeout: TimeInterval = 10) {
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

    public func post(_ url: URL, headers: [String: String], body: Data) throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let outcome = Mutex<Result<(status: Int, body: Data), any Error>?>(nil)
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

/// The session's delegate: collects each task's status and body, and refuses redirects and challenges.
private final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Result<(status: Int, body: Data), any Error>) -> Void

    private struct Exchange {
        var completion: Completion
        var status: Int?
        var body = Data()
        var refusedChallenge = false
    }

    private let open = Mutex<[Int: Exchange]>([:])

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
            open.withLock { $0[dataTask.taskIdentifier]?.status = http.statusCode }
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
        completionHandler(nil)
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
        let status = exchange.status ?? (task.response as? HTTPURLResponse)?.statusCode
        if let status, error == nil || exchange.refusedChallenge {
            exchange.completion(.success((status, exchange.body)))
        } else {
            exchange.completion(.failure(error ?? URLError(.badServerResponse)))
        }
    }
}
