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
/// A chain also says who may call its routes from a page at another origin (``crossOrigin``): the handlers it
/// makes carry that scope into the ``Router``, so every route behind, say, an admin check has the admin scope.
///
/// ```swift
/// let api = MiddlewareChain([RenderErrors(), CheckAPIKey()])
/// router.add(.post, "/v1/accounts:lookup", api.handler { request in try lookup(request) })
/// let admin = api.appending(RequireAdmin()).crossOrigin(.trustedOrigins)
/// ```
public struct MiddlewareChain: Sendable {
    public let middlewares: [any HTTPMiddleware]
    /// Who may call the chain's routes from a page at another origin.
    public let crossOrigin: CrossOriginScope

    public init(_ middlewares: [any HTTPMiddleware], crossOrigin: CrossOriginScope = .anyOrigin) {
        self.middlewares = middlewares
        self.crossOrigin = crossOrigin
    }

    /// This chain with `middleware` run inside its last step (and the same cross-origin scope).
    public func appending(_ middleware: any HTTPMiddleware) -> MiddlewareChain {
        MiddlewareChain(middlewares + [middleware], crossOrigin: crossOrigin)
    }

    /// This chain for routes with the cross-origin scope `scope`.
    public func crossOrigin(_ scope: CrossOriginScope) -> MiddlewareChain {
        MiddlewareChain(middlewares, crossOrigin: scope)
    }

    /// `responder` wrapped by every middleware of the chain.
    public func wrap(_ responder: @escaping HTTPResponder) -> HTTPResponder {
        middlewares.reversed().reduce(responder) { next, middleware in
            { request in try middleware.respond(to: request, next: next) }
        }
    }

    /// A route handler running `responder` through the chain, with the chain's cross-origin scope. The chain
    /// should render errors itself (its first middleware catching what the rest throw); anything that still
    /// escapes is answered with a bare 500, without its description.
    public func handler(_ responder: @escaping HTTPResponder) -> RouteHandler {
        let wrapped = wrap(responder)
        return RouteHandler(crossOrigin: crossOrigin) { request in
            do {
                return try wrapped(request)
            } catch {
                return HTTPStatusError(status: 500, reason: "Internal error").defaultResponse
            }
        }
    }
}

/// A route's handler and who may call it from a page at another origin, as ``MiddlewareChain/handler(_:)`` makes
/// it for ``Router/add(_:_:_:)``. Call it like a function.
public struct RouteHandler: Sendable {
    public let crossOrigin: CrossOriginScope
    public let handle: HTTPHandler

    public init(crossOrigin: CrossOriginScope, _ handle: @escaping HTTPHandler) {
        self.crossOrigin = crossOrigin
        self.handle = handle
    }

    public func callAsFunction(_ request: HTTPRequest) -> HTTPResponse { handle(request) }
}
