public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one HTTP request. The seam between HearthAuth and the network: `URLSessionTransport` in
/// apps, a fake in tests.
///
/// A transport throws only when no HTTP response arrived; HTTP error statuses come back as a
/// `TransportResponse`. Errors other than `AuthError` become `AuthErrorCode.networkError`.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

public struct TransportRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct TransportResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// `HTTPTransport` over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// - Throws: `AuthError` with code `.networkError` when the request fails without a response;
    ///   `CancellationError` if the task was cancelled.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            try Task.checkCancellation()
            // The URL (with its API key) stays out of the message.
            let reason = (error as? URLError).map { "URL error \($0.code.rawValue)" } ?? String(describing: type(of: error))
            throw AuthError(code: .networkError, message: "The request did not complete (\(reason)).")
        }
        guard let http = response as? HTTPURLResponse else {
            throw AuthError(code: .networkError, message: "The response was not an HTTP response.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
