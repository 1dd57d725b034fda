/// A route's logic: answers a request or throws. A ``MiddlewareChain`` turns what it throws into a
/// response.
public typealias HTTPResponder = @Sendable (HTTPRequest) throws -> HTTPResponse

/// One step of the request edge, run around a route's logic: it may answer by itself (a missing API
/// key, an exhausted rate limit), change the request on its way in, change the response on its way
/// out, or catch what the route throws (error rendering).
///
/// ```swift
/// struct RequireHeader: HTTPMiddleware {
///     func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
///         guard request.headers["X-Token"] != nil else { return .text("missing", status: 401) }
///         return try next(request)
///     }
/// }
/// ```
public protocol HTTPMiddleware: Sendable {
    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse
}

/// Middlewares applied in order around a responder: the first is the outermost. Chains are composed
/// once, when routes are registered, so a request pays only for the calls themselves.
///
/// ```swift
/// let api = MiddlewareChain([RenderErrors(), CheckAPIKey()])
/// router.add(.post, "/v1/accounts:lookup", api.handler { request in try lookup(request) })
/// ```
public struct MiddlewareChain: Sendable {
    public let middlewares: [any HTTPMiddleware]

    public init(_ middlewares: [any HTTPMiddleware]) {
        self.middlewares = middlewares
    }

    /// This chain with `middleware` run inside its last step.
    public func appending(_ middleware: any HTTPMiddleware) -> MiddlewareChain {
        MiddlewareChain(middlewares + [middleware])
    }

    /// `responder` wrapped by every middleware of the chain.
    public func wrap(_ responder: @escaping HTTPResponder) -> HTTPResponder {
        middlewares.reversed().reduce(responder) { next, middleware in
            { request in try middleware.respond(to: request, next: next) }
        }
    }

    /// A server handler running `responder` through the chain. The chain should render errors itself
    /// (its first middleware catching what the rest throw); anything that still escapes is answered
    /// with a bare 500, without its description.
    public func handler(_ responder: @escaping HTTPResponder) -> HTTPHandler {
        let wrapped = wrap(responder)
        return { request in
            do {
                return try wrapped(request)
            } catch {
                return HTTPStatusError(status: 500, reason: "Internal error").defaultResponse
            }
        }
    }
}
