public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import HearthCore
import Synchronization

/// Blocking GETs over URLSession, for Google's keys, tokeninfo and userinfo.
public final class URLSessionFetcher: HTTPFetching {
    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 10) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func get(_ url: URL, headers: [String: String]) throws -> FetchedResponse {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Mutex<Result<FetchedResponse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            let result: Result<FetchedResponse, any Error>
            if let http = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { fields[name] = value }
                }
                result = .success(FetchedResponse(status: http.statusCode, headers: fields, body: data ?? Data()))
            } else {
                result = .failure(error ?? URLError(.badServerResponse))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut { throw URLError(.timedOut) }
        return try outcome.withLock { $0 ?? .failure(URLError(.unknown)) }.get()
    }
}
