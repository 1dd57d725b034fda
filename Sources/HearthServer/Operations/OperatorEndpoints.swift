/// The operator's endpoints: `GET /metrics` (when `metrics` is given and `access` allows it), `GET /healthz`
/// and `GET /readyz`. docs/CONFIGURATION.md, "Metrics, health and logs".
public struct OperatorEndpoints: Sendable {
    /// The metrics to expose and to count requests into; nil turns metrics off (`/metrics` is 404).
    public var metrics: ServerMetrics?
    public var readiness: Readiness
    public var access: MetricsAccess

    public init(metrics: ServerMetrics?, readiness: Readiness, access: MetricsAccess) {
        self.metrics = metrics
        self.readiness = readiness
        self.access = access
    }
}

/// Who may read `/metrics`, which reveals operational data (traffic, error rates, key age).
public struct MetricsAccess: Sendable {
    /// Whether `/metrics` is served on this listener at all (else 404, as for an unknown path).
    public var served: Bool
    /// A token scrapers must send as `Authorization: Bearer <token>`; nil needs none.
    public var bearerToken: String?
    /// Whether only loopback peers may read it (and only when no `X-Forwarded-For` says they relay someone
    /// else).
    public var loopbackOnly: Bool

    public init(served: Bool, bearerToken: String? = nil, loopbackOnly: Bool = false) {
        self.served = served
        self.bearerToken = bearerToken
        self.loopbackOnly = loopbackOnly
    }

    /// Not served.
    public static let closed = MetricsAccess(served: false)
}
