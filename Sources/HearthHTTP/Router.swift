/// A request handler: a plain synchronous function run on one of the server's worker threads.
/// It may block (SQLite calls, for example); the thread pool is sized for that.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// The outcome of ``Router/route(_:)``.
public enum RouteMatch: Sendable {
    /// A route matched; `parameters` holds the captured `{name}` segments, `pattern` the pattern it was
    /// registered with (`/v1/projects/{project}/accounts`: a label for metrics that never holds request values).
    case found(HTTPHandler, parameters: [String: String], pattern: String)
    /// The path matched at least one route, but none for this method.
    case methodNotAllowed(allowed: [HTTPMethod])
    /// No route matches the path.
    case notFound
}

/// Maps method + path patterns to handlers.
///
/// Pattern syntax, one rule per `/`-separated segment:
/// - a literal segment matches itself exactly; it may contain `:` (`accounts:lookup`);
/// - `{name}` captures one non-empty segment;
/// - `{name}:verb` captures a segment that ends in `:verb` (Google-style custom methods), without
///   the suffix: `/v1/projects/{project}:createSessionCookie` matches
///   `/v1/projects/demo:createSessionCookie` with `project = "demo"`.
///
/// When several patterns could match, literal segments win over `{name}:verb`, which wins over
/// `{name}`; the search backtracks, so a more specific branch that dead-ends does not hide a
/// less specific one that matches.
///
/// Policies:
/// - **Trailing slashes are significant.** `/v1/keys/` does not match `/v1/keys` (it is a 404),
///   and empty segments (`//`) never match a capture.
/// - **`HEAD`** uses the `GET` handler when no `HEAD` route is registered (the server never
///   sends a body for `HEAD`), and `Allow` lists `HEAD` wherever `GET` is allowed.
/// - Matching runs on the decoded path, so `%2F` counts as a `/`.
/// - **Cross-origin scope.** Each route says who may call it from a page at another origin (its
///   ``CrossOriginScope``, from the ``MiddlewareChain`` it was built with); the server's ``CORSPolicy`` reads it
///   through ``crossOriginScope(ofPath:)``, so a route cannot be registered without one.
///
/// ```swift
/// var router = Router()
/// router.add(.post, "/v1/accounts:signUp") { request in … }
/// router.add(.get, "/v1/projects/{project}/accounts/{uid}") { request in
///     .text(request.pathParameters["uid"] ?? "")
/// }
/// let server = HTTPServer(configuration: .init(), handler: router.handler())
/// ```
public struct Router: Sendable {
    private var root = Node()

    public init() {}

    /// Registers `handler` for `method` on `pattern`.
    ///
    /// - Parameters:
    ///   - method: the method to answer.
    ///   - pattern: a path pattern starting with `/` (see the type's documentation).
    ///   - crossOrigin: who may call it from a page at another origin.
    ///   - handler: the function to call.
    /// - Precondition: the pattern is well-formed and not already registered for `method`;
    ///   a violation is a programming error and traps.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, crossOrigin: CrossOriginScope = .anyOrigin,
        _ handler: @escaping HTTPHandler
    ) {
        let segments = Self.parse(pattern)
        let route = Route(handler: handler, pattern: pattern, crossOrigin: crossOrigin)
        root.insert(segments[...], method: method, route: route)
    }

    /// Registers a handler made by ``MiddlewareChain/handler(_:)``, with the chain's cross-origin scope.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: RouteHandler) {
        add(method, pattern, crossOrigin: handler.crossOrigin, handler.handle)
    }

    /// Every registered route, in pattern order (for listings and tests).
    public var routes: [RegisteredRoute] {
        root.routes().sorted { ($0.pattern, $0.method.rawValue) < ($1.pattern, $1.method.rawValue) }
    }

    /// The strictest cross-origin scope among the routes that match `path`, whatever their method (a preflight asks
    /// for a path before its method is known); nil when no route matches it.
    public func crossOriginScope(ofPath path: String) -> CrossOriginScope? {
        root.scopes(Self.split(path)[...]).max()
    }

    /// Finds the handler for a request.
    public func route(_ request: HTTPRequest) -> RouteMatch {
        let segments = Self.split(request.path)
        var parameters: [String: String] = [:]
        var allowed: Set<HTTPMethod> = []
        if let route = root.match(segments[...], method: request.method, parameters: &parameters, allowed: &allowed) {
            return .found(route.handler, parameters: parameters, pattern: route.pattern)
        }
        if allowed.isEmpty {
            return .notFound
        }
        if allowed.contains(.get) {
            allowed.insert(.head)
        }
        return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }

    /// A server handler that routes each request, fills `pathParameters` and calls the matched
    /// handler; 404 and 405 (with `Allow`) are rendered by `errorRenderer`.
    public func handler(
        errorRenderer: @escaping @Sendable (HTTPStatusError) -> HTTPResponse = HTTPStatusError.defaultRenderer
    ) -> HTTPHandler {
        let router = self
        return { request in
            switch router.route(request) {
            case .found(let handler, let parameters, _):
                var routed = request
                routed.pathParameters = parameters
                return handler(routed)
            case .methodNotAllowed(let allowed):
                let error = HTTPStatusError.methodNotAllowed(allowed: allowed)
                var response = errorRenderer(error)
                if !response.headers.contains(name: "Allow") {
                    response.headers["Allow"] = error.headers["Allow"]
                }
                return response
            case .notFound:
                return errorRenderer(.notFound)
            }
        }
    }

    // MARK: - Patterns

    enum Segment: Equatable {
        case literal(String)
        case capture(name: String, verb: String?)
    }

    static func split(_ path: String) -> [Substring] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.first == "" {
            segments.removeFirst()
        }
        return segments
    }

    static func parse(_ pattern: String) -> [Segment] {
        precondition(pattern.hasPrefix("/"), "Router pattern must start with '/': \(pattern)")
        return split(pattern).map { piece -> Segment in
            guard piece.hasPrefix("{") else {
                precondition(!piece.contains("{") && !piece.contains("}"), "Router: misplaced brace in \(pattern)")
                return .literal(String(piece))
            }
            guard let close = piece.firstIndex(of: "}") else {
                preconditionFailure("Router: unterminated '{' in \(pattern)")
            }
            let name = String(piece[piece.index(after: piece.startIndex)..<close])
            precondition(!name.isEmpty && !name.contains("{"), "Router: empty or nested capture name in \(pattern)")
            let rest = piece[piece.index(after: close)...]
            if rest.isEmpty {
                return .capture(name: name, verb: nil)
            }
            precondition(rest.hasPrefix(":") && rest.count > 1 && !rest.contains("}"),
                         "Router: only ':verb' may follow a capture, in \(pattern)")
            return .capture(name: name, verb: String(rest))
        }
    }

    // MARK: - Tree

    /// A registered handler, the pattern it was registered with and its cross-origin scope.
    private struct Route: Sendable {
        var handler: HTTPHandler
        var pattern: String
        var crossOrigin: CrossOriginScope
    }

    private struct Capture: Sendable {
        var name: String
        /// The suffix including its colon (":createSessionCookie"), or nil for a plain capture.
        var verb: String?
        var node: Node
    }

    private struct Node: Sendable {
        var literals: [String: Node] = [:]
        /// Verb captures first, then plain ones, each group in registration order.
        var captures: [Capture] = []
        var handlers: [HTTPMethod: Route] = [:]

        mutating func insert(_ segments: ArraySlice<Segment>, method: HTTPMethod, route: Route) {
            guard let first = segments.first else {
                precondition(handlers[method] == nil, "Router: \(method) \(route.pattern) is registered twice")
                handlers[method] = route
                return
            }
            let rest = segments.dropFirst()
            switch first {
            case .literal(let text):
                literals[text, default: Node()].insert(rest, method: method, route: route)
            case .capture(let name, let verb):
                if let index = captures.firstIndex(where: { $0.name == name && $0.verb == verb }) {
                    captures[index].node.insert(rest, method: method, route: route)
                } else {
                    var node = Node()
                    node.insert(rest, method: method, route: route)
                    let capture = Capture(name: name, verb: verb, node: node)
                    if verb != nil, let firstPlain = captures.firstIndex(where: { $0.verb == nil }) {
                        captures.insert(capture, at: firstPlain)
                    } else {
                        captures.append(capture)
                    }
                }
            }
        }

        func match(
            _ segments: ArraySlice<Substring>, method: HTTPMethod,
            parameters: inout [String: String], allowed: inout Set<HTTPMethod>
        ) -> Route? {
            guard let segment = segments.first else {
                if let route = handlers[method] ?? (method == .head ? handlers[.get] : nil) {
                    return route
                }
                allowed.formUnion(handlers.keys)
                return nil
            }
            let rest = segments.dropFirst()
            if let child = literals[String(segment)],
               let route = child.match(rest, method: method, parameters: &parameters, allowed: &allowed) {
                return route
            }
            guard !segment.isEmpty else { return nil }
            for capture in captures {
                let value: Substring
                if let verb = capture.verb {
                    guard segment.count > verb.count, segment.hasSuffix(verb) else { continue }
                    value = segment.dropLast(verb.count)
                } else {
                    value = segment
                }
                let previous = parameters[capture.name]
                parameters[capture.name] = String(value)
                if let route = capture.node.match(rest, method: method, parameters: &parameters, allowed: &allowed) {
                    return route
                }
                parameters[capture.name] = previous
            }
            return nil
        }

        /// The scopes of every route that matches `segments`, for any method, along every branch that matches.
        func scopes(_ segments: ArraySlice<Substring>) -> [CrossOriginScope] {
            guard let segment = segments.first else { return handlers.values.map(\.crossOrigin) }
            let rest = segments.dropFirst()
            var found = literals[String(segment)]?.scopes(rest) ?? []
            guard !segment.isEmpty else { return found }
            for capture in captures {
                if let verb = capture.verb, !(segment.count > verb.count && segment.hasSuffix(verb)) { continue }
                found += capture.node.scopes(rest)
            }
            return found
        }

        /// Every route registered at or below this node.
        func routes() -> [RegisteredRoute] {
            handlers.map { RegisteredRoute(method: $0.key, pattern: $0.value.pattern, crossOrigin: $0.value.crossOrigin) }
                + literals.values.flatMap { $0.routes() } + captures.flatMap { $0.node.routes() }
        }
    }
}

/// One route of a ``Router``: its method, pattern and cross-origin scope.
public struct RegisteredRoute: Sendable, Equatable {
    public let method: HTTPMethod
    public let pattern: String
    public let crossOrigin: CrossOriginScope
}
