public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one HTTP request: the seam between ``AdminAuth`` and the network (``URLSessionAdminTransport`` in
/// backends, a fake in tests).
///
/// A transport throws only when no HTTP response arrived; error statuses come back as an ``AdminHTTPResponse``.
public protocol AdminTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status.
    func send(_ request: AdminHTTPRequest) async throws -> AdminHTTPResponse
}

/// One request to Hearth or to the service account's token endpoint.
public struct AdminHTTPRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header fields by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One answer: status and body.
public struct AdminHTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(status: Int, body: Data = Data()) {
        self.status = status
        self.body = body
    }
}

/// ``AdminTransport`` over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionAdminTransport: AdminTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: the session to send with.
    ///   - timeout: seconds to wait for an answer.
    public init(session: URLSession = .shared, timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    /// - Throws: ``HearthAdminError`` `.networkError` when no response arrived; `CancellationError` when the task
    ///   was cancelled.
    public func send(_ request: AdminHTTPRequest) async throws -> AdminHTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw HearthAdminError(.networkError, message: "the answer from \(request.url.host ?? "?") was not HTTP")
            }
            return AdminHTTPResponse(status: http.statusCode, body: data)
        } catch let error as HearthAdminError {
            throw error
        } catch {
            try Task.checkCancellation()
            let reason = (error as? URLError).map { "URL error \($0.code.rawValue)" } ?? String(describing: type(of: error))
            throw HearthAdminError(.networkError, message: "the request to \(request.url.host ?? "?") did not complete (\(reason))")
        }
    }
}
