import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one `URLSession` request and waits for it on the calling thread.
///
/// The completion handler runs on the session's own delegate queue, so waiting here cannot deadlock unless the
/// caller *is* that queue, which callers of this library never are.
enum BlockingHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `request` and returns the response and body. Throws ``Failure`` on a transport error.
    static func send(_ request: URLRequest, session: URLSession) throws -> (response: HTTPURLResponse, body: Data) {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure(Failure(description: "request failed: \(error.localizedDescription)"))
            } else if let response = response as? HTTPURLResponse {
                box.result = .success((response, data ?? Data()))
            } else {
                box.result = .failure(Failure(description: "no HTTP response"))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        // The semaphore orders the handler's write before this read.
        guard let result = box.result else { throw Failure(description: "no response") }
        return try result.get()
    }

    /// `@unchecked Sendable`: written once by the completion handler before `signal()`, read after `wait()`.
    private final class ResultBox: @unchecked Sendable {
        var result: Result<(HTTPURLResponse, Data), Failure>?
    }
}
