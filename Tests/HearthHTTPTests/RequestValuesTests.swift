import HearthHTTP
import Testing

@Suite("Request values")
struct RequestValuesTests {
    enum CallerKey: RequestValueKey { typealias Value = String }
    enum CountKey: RequestValueKey { typealias Value = Int }

    /// Sets the caller a header names, as an authenticating middleware would.
    struct Authenticate: HTTPMiddleware {
        func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
            var request = request
            request.values[CallerKey.self] = request.headers["X-Caller"]
            return try next(request)
        }
    }

    @Test("a value a middleware sets reaches the responder, typed by its key; other keys stay empty")
    func handedOn() {
        let handler = MiddlewareChain([Authenticate()]).handler { request in
            .text("\(request.values[CallerKey.self] ?? "none") \(request.values[CountKey.self].map(String.init) ?? "none")")
        }
        let named = handler(HTTPRequest(method: .get, path: "/", headers: ["X-Caller": "owner"]))
        #expect(String(decoding: named.body, as: UTF8.self) == "owner none")
        let anonymous = handler(HTTPRequest(method: .get, path: "/"))
        #expect(String(decoding: anonymous.body, as: UTF8.self) == "none none")
    }

    @Test("a request arrives with no values, and setting nil removes one")
    func emptyAndRemoved() {
        var request = HTTPRequest(method: .post, path: "/")
        #expect(request.values[CallerKey.self] == nil)
        request.values[CountKey.self] = 3
        #expect(request.values[CountKey.self] == 3)
        request.values[CountKey.self] = nil
        #expect(request.values[CountKey.self] == nil)
    }
}
