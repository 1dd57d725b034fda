import Testing
import HearthHTTP

@Suite("Middleware chains")
struct MiddlewareTests {
    /// Appends its name to a header on the way in and on the way out.
    struct Trace: HTTPMiddleware {
        let name: String
        func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
            var request = request
            request.headers.add(name: "X-In", value: name)
            var response = try next(request)
            response.headers.add(name: "X-Out", value: name)
            return response
        }
    }

    struct Refuse: HTTPMiddleware {
        func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
            .text("refused", status: 429)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "secret detail" }
    }

    struct Catch: HTTPMiddleware {
        func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
            do { return try next(request) } catch { return .text("caught", status: 418) }
        }
    }

    @Test("the first middleware is the outermost; the responder sees every change on the way in")
    func order() {
        let chain = MiddlewareChain([Trace(name: "a"), Trace(name: "b")])
        let response = chain.handler { request in
            .text(request.headers.values(for: "X-In").joined(separator: ","))
        }(HTTPRequest(method: .get, path: "/"))
        #expect(String(decoding: response.body, as: UTF8.self) == "a,b")
        #expect(response.headers.values(for: "X-Out") == ["b", "a"])
    }

    @Test("a middleware can answer by itself; the responder is not called")
    func shortCircuit() {
        let called = Box()
        let chain = MiddlewareChain([Trace(name: "a")]).appending(Refuse())
        let response = chain.handler { _ in
            called.value = true
            return .text("route")
        }(HTTPRequest(method: .get, path: "/"))
        #expect(response.status == 429)
        #expect(response.headers.values(for: "X-Out") == ["a"])
        #expect(called.value == false)
    }

    @Test("an error caught by the chain becomes its response; one that escapes is a bare 500")
    func errors() {
        let caught = MiddlewareChain([Catch(), Trace(name: "a")]).handler { _ in throw Failure() }(HTTPRequest(method: .get, path: "/"))
        #expect(caught.status == 418)
        let escaped = MiddlewareChain([Trace(name: "a")]).handler { _ in throw Failure() }(HTTPRequest(method: .get, path: "/"))
        #expect(escaped.status == 500)
        #expect(!String(decoding: escaped.body, as: UTF8.self).contains("secret"))
    }

    final class Box: @unchecked Sendable {
        var value = false
    }
}
