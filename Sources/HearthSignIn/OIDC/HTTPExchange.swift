import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthProtocol

/// Requests through a ``SignInTransport`` with the library's error mapping: cancellation becomes `.canceled`,
/// any other transport failure `.unknown` naming the host (never the URL's query, which can hold a token).
struct HTTPExchange: Sendable {
    let transport: any SignInTransport

    struct Reply: Sendable {
        var status: Int
        var body: Data
        /// How long the answer may be reused, from its `Cache-Control` and `Age` headers.
        var freshnessLifetime: TimeInterval?

        var isSuccess: Bool { (200..<300).contains(status) }

        /// The body as a JSON object, or nil.
        var json: [String: JSONValue]? { (try? JSONValue(parsing: body))?.objectValue }

        /// `error` and `error_description` of an OAuth error body (RFC 6749 §5.2), when there is one.
        var oauthError: (error: String, description: String?)? {
            guard let json, let error = json["error"]?.stringValue else { return nil }
            return (error, json["error_description"]?.stringValue)
        }
    }

    func get(_ url: URL, bearer: String? = nil, purpose: String) async throws(SignInError) -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        return try await send(request, purpose: purpose)
    }

    func postForm(_ url: URL, _ pairs: [(String, String)], purpose: String) async throws(SignInError) -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(FormEncoding.encode(pairs).utf8)
        return try await send(request, purpose: purpose)
    }

    private func send(_ request: URLRequest, purpose: String) async throws(SignInError) -> Reply {
        do {
            let (data, response) = try await transport.send(request)
            let lifetime = CacheControl.freshnessLifetime(
                cacheControl: response.value(forHTTPHeaderField: "Cache-Control"),
                age: response.value(forHTTPHeaderField: "Age"))
            return Reply(status: response.statusCode, body: data, freshnessLifetime: lifetime)
        } catch let error as SignInError {
            throw error
        } catch is CancellationError {
            throw SignInError.canceled
        } catch let error as URLError where error.code == .cancelled {
            throw SignInError.canceled
        } catch {
            let host = request.url?.host ?? "the server"
            throw SignInError(.unknown, "Cannot reach \(host) for \(purpose): \(error.localizedDescription)")
        }
    }
}
