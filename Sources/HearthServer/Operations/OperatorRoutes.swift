public import HearthHTTP
import HearthCrypto
import HearthMetrics
import HearthProtocol

/// `GET /metrics`, `GET /healthz` and `GET /readyz`, on the main listener or on the management port
/// (``managementHandler(_:)``).
public struct OperatorRoutes: Sendable {
    let endpoints: OperatorEndpoints

    public init(_ endpoints: OperatorEndpoints) {
        self.endpoints = endpoints
    }

    func register(in router: inout Router) {
        let endpoints = endpoints
        router.add(.get, "/healthz") { _ in Self.json(200, ["status": "alive"]) }
        router.add(.get, "/readyz") { _ in
            guard let problem = endpoints.readiness.problem() else { return Self.json(200, ["status": "ready"]) }
            return Self.json(503, ["status": "not ready", "reason": .string(problem)])
        }
        router.add(.get, "/metrics", crossOrigin: .trustedOrigins) { request in
            guard endpoints.access.served, let metrics = endpoints.metrics else { return Self.notFound }
            if let refusal = Self.refusal(of: request, access: endpoints.access) { return refusal }
            var response = HTTPResponse(status: 200, body: Array(metrics.registry.exposition().utf8))
            response.headers["Content-Type"] = MetricsRegistry.contentType
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    /// The handler of a management listener: these three routes only.
    public static func managementHandler(_ endpoints: OperatorEndpoints) -> HTTPHandler {
        var router = Router()
        OperatorRoutes(endpoints).register(in: &router)
        return router.handler(errorRenderer: IdentityServer.render)
    }

    /// 401 without the configured bearer token, 403 for a peer that is not loopback (or relays someone) when
    /// only loopback may read; nil when the request may read the metrics.
    static func refusal(of request: HTTPRequest, access: MetricsAccess) -> HTTPResponse? {
        if let expected = access.bearerToken {
            let presented = RequireAdmin.bearerToken(of: request) ?? ""
            guard ConstantTime.equals(SHA256.hash(presented), SHA256.hash(expected)) else {
                var response = Responses.error(WireError(.unauthenticated, "Metrics need the configured bearer token."))
                response.headers["WWW-Authenticate"] = "Bearer"
                return response
            }
        }
        if access.loopbackOnly {
            let isLoopback = request.remoteAddress.flatMap { IPAddress($0) }?.isLoopback ?? false
            guard isLoopback, !request.headers.contains(name: "X-Forwarded-For") else {
                return Responses.error(WireError(.permissionDenied, "Metrics are served to loopback clients only."))
            }
        }
        return nil
    }

    private static var notFound: HTTPResponse {
        Responses.error(WireError(.notFound, "Not found: GET /metrics"))
    }

    private static func json(_ status: Int, _ object: [String: JSONValue]) -> HTTPResponse {
        var response = Responses.json(object, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
