public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends the library's HTTP requests (discovery, JWKS, token, userinfo, revoke). Swap it in tests, or to add
/// proxies, logging or certificate pinning.
public protocol SignInTransport: Sendable {
    /// Sends `request` and returns the body and response, whatever the status code. Throws only when no response
    /// arrived (network failure, cancellation).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// ``SignInTransport`` over `URLSession` (FoundationNetworking on Linux), with an ephemeral configuration: no
/// cookies, no cache, no credential storage.
public struct URLSessionSignInTransport: SignInTransport {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    /// Uses `session` as given.
    public init(session: URLSession) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}
