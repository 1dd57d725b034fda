public import HearthCore
public import HearthHTTP
import HearthProtocol

/// Hearth's HTTP face: Firebase Auth's wire protocol (Identity Toolkit v1, the iOS SDK's legacy v3
/// paths, Secure Token), the admin endpoints (for the callers `ServerOptions.adminVerifiers` accept), the key
/// documents, and in development the dev IdP and emulator helpers.
///
/// `handle` is a plain synchronous function; the HTTP server calls it on its worker threads.
public final class IdentityServer: Sendable {
    let platform: IdentityPlatform
    let options: ServerOptions
    private let router: Router
    /// The request metrics of `router`'s routes; nil without metrics.
    private let requestMeters: RequestMeters?
    private let log: @Sendable (String) -> Void

    /// - Parameter log: receives operator log lines (never secrets).
    public init(platform: IdentityPlatform, options: ServerOptions, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.platform = platform
        self.options = options
        self.log = log
        var router = Router()
        let edge = Edge(platform: platform, options: options, log: log)
        IdentityToolkitRoutes(platform: platform, edge: edge).register(in: &router)
        AdminRoutes(platform: platform, edge: edge).register(in: &router)
        TenantRoutes(platform: platform, edge: edge).register(in: &router)
        ProviderConfigRoutes(platform: platform, edge: edge).register(in: &router)
        ProjectConfigRoutes(platform: platform, edge: edge, development: options.development).register(in: &router)
        AuditRoutes(platform: platform, edge: edge).register(in: &router)
        EmailActionRoutes(platform: platform, options: options, edge: edge).register(in: &router)
        PasswordPolicyRoutes(edge: edge).register(in: &router)
        KeyRoutes(platform: platform, options: options, edge: edge).register(in: &router)
        ServiceAccountTokenRoutes(platform: platform, publicURL: options.publicURL, edge: edge, log: log)
            .register(in: &router)
        if options.development {
            EmulatorRoutes(platform: platform, sentCodes: options.sentVerificationCodes, edge: edge).register(in: &router)
            if let dev = options.devIdentityProvider {
                DevIdPRoutes(provider: dev, edge: edge, log: log).register(in: &router)
                DevPlaygroundRoutes(
                    platform: platform, provider: dev, publicURL: options.publicURL, pending: .init(), edge: edge
                ).register(in: &router)
            }
            if let devSAML = options.devSAML, let dev = options.devIdentityProvider {
                DevSAMLRoutes(
                    issuer: devSAML, accounts: dev, publicURL: options.publicURL, edge: edge, time: platform.time, log: log
                ).register(in: &router)
            }
            if let devApple = options.devApple {
                DevAppleRoutes(provider: devApple, edge: edge, log: log).register(in: &router)
            }
        }
        ConsoleRoutes(platform: platform, options: options, log: log).register(in: &router, edge: edge)
        if let operations = options.operations {
            OperatorRoutes(operations).register(in: &router)
        }
        self.router = router
        requestMeters = options.operations?.metrics?.requestMeters(for: router.routes)
    }

    /// Answers one request; with metrics, counts and times it by the route pattern that matched.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let match = router.route(request)
        guard let requestMeters else { return respond(to: request, match) }
        let pattern: String? = if case .found(_, _, let pattern) = match { pattern } else { nil }
        return requestMeters.measure(request.method, route: pattern) { respond(to: request, match) }
    }

    private func respond(to request: HTTPRequest, _ match: RouteMatch) -> HTTPResponse {
        switch match {
        case .found(let handler, let parameters, _):
            var request = request
            request.pathParameters = parameters
            return handler(request)
        case .methodNotAllowed(let allowed):
            var response = Responses.error(
                WireError(.methodNotAllowed, "Method \(request.method) is not allowed here."))
            response.headers["Allow"] = allowed.map(\.description).joined(separator: ", ")
            return response
        case .notFound:
            if let name = Self.firebaseName(of: request.path) {
                return Responses.error(WireError(.notImplemented, "\(name) is not implemented by this Hearth server."))
            }
            return Responses.error(WireError(.notFound, "Not found: \(request.method) \(request.path)"))
        }
    }

    /// The prefixes of Firebase Auth's APIs: a path under one that is not a route is a Firebase call Hearth does not
    /// serve (501 `NOT_IMPLEMENTED`, never a 404 the SDKs would report as "not found").
    static let firebasePrefixes = [
        "/identitytoolkit.googleapis.com/v1/", "/identitytoolkit.googleapis.com/v2/",
        "/www.googleapis.com/identitytoolkit/v3/", "/securetoken.googleapis.com/v1/",
    ]

    /// The path's name after its Firebase prefix (`accounts:sendVerificationCode`), or nil outside those prefixes.
    static func firebaseName(of path: String) -> String? {
        guard let prefix = firebasePrefixes.first(where: { path.hasPrefix($0) && path.count > $0.count }) else {
            return nil
        }
        return String(path.dropFirst(prefix.count).prefix(200))
    }

    /// Every route this server answers, with the cross-origin scope each declares.
    public var routes: [RegisteredRoute] { router.routes }

    /// The cross-origin scope of the routes matching `path` (``Router/crossOriginScope(ofPath:)``), which
    /// ``CrossOriginRules/policy(for:)`` reads; nil when no route matches.
    public func crossOriginScope(ofPath path: String) -> CrossOriginScope? { router.crossOriginScope(ofPath: path) }

    /// The dev playground's redirect URI (`/dev/google/callback`), which the dev client must accept.
    public static func playgroundCallbackURI(publicURL: String) -> String {
        DevPlaygroundRoutes.callbackURI(publicURL: publicURL)
    }

    /// The admin console's redirect URI (`/console/callback`), which its client at the sign-in provider must accept.
    public static func consoleCallbackURI(publicURL: String) -> String {
        ConsoleSignInRoutes.callbackURI(publicURL: publicURL)
    }

    /// Renders errors the HTTP layer produces itself (oversize bodies, too many headers, a refused
    /// origin, an exhausted body budget) in the wire envelope, keeping their headers (`Allow`,
    /// `Retry-After`).
    public static func render(_ error: HTTPStatusError) -> HTTPResponse {
        let code: ErrorCode = switch error.status {
        case 413: .payloadTooLarge
        case 431: .headersTooLarge
        case 404: .notFound
        case 405: .methodNotAllowed
        case 403: .permissionDenied
        case 503: .unavailable
        case 400: .invalidArgument
        default: .internalError
        }
        var response = Responses.error(WireError(code, error.reason, httpStatus: error.status))
        for (name, value) in error.headers where !response.headers.contains(name: name) {
            response.headers.add(name: name, value: value)
        }
        return response
    }
}
