public import HearthCore
public import HearthHTTP
public import HearthMetrics

/// Hearth's metrics, as `GET /metrics` exposes them (docs/CONFIGURATION.md, "Metrics, health and logs"):
/// requests by route pattern, the operations' outcomes, deliveries, store transactions, the signing key's age,
/// the worker pool and the process.
public final class ServerMetrics: MetricsRecording {
    /// Every metric, for the exposition.
    public let registry = MetricsRegistry()
    let requests: MetricFamily<Counter>
    let requestDuration: MetricFamily<Histogram>
    let handlersInFlight: Gauge
    private let signIns: MetricFamily<Counter>
    private let refreshes: MetricFamily<Counter>
    private let secondFactors: MetricFamily<Counter>
    private let deliveries: MetricFamily<Counter>
    private let storeDuration: MetricFamily<Histogram>
    /// `storeDuration`'s two series and the successful refreshes, resolved once: the paths every request takes.
    private let readDuration, writeDuration: LazySeries<Histogram>
    private let refreshSucceeded: LazySeries<Counter>
    private let storeFailures: MetricFamily<Counter>
    private let storeRetries: Counter
    private let refusals: MetricFamily<Counter>

    /// - Parameter workerThreads: the HTTP server's worker threads (the saturation gauge compares handlers in
    ///   flight to it).
    public init(workerThreads: Int) {
        requests = registry.counter(
            "hearth_http_requests_total", help: "HTTP requests answered, by route pattern, method and status class.",
            labels: ["route", "method", "status_class"])
        requestDuration = registry.histogram(
            "hearth_http_request_duration_seconds", help: "Time handlers took to answer, by route pattern and method.",
            labels: ["route", "method"])
        handlersInFlight = registry.gauge(
            "hearth_http_handlers_in_flight", help: "Requests being handled right now (each holds a worker thread).")
            .labels()
        registry.gauge("hearth_http_worker_threads", help: "Worker threads of the HTTP server.") { Double(workerThreads) }
        signIns = registry.counter(
            "hearth_sign_ins_total", help: "signInWithIdp calls by provider and outcome (success, mfa_required, or the error code).",
            labels: ["provider", "outcome"])
        refreshes = registry.counter(
            "hearth_token_refreshes_total", help: "Token refreshes by outcome (success or the error code).", labels: ["outcome"])
        secondFactors = registry.counter(
            "hearth_mfa_operations_total", help: "Second-factor starts and finalizes by step and outcome.",
            labels: ["step", "outcome"])
        deliveries = registry.counter(
            "hearth_deliveries_total", help: "SMS and email handed to a sender, by channel, sender and outcome.",
            labels: ["channel", "sender", "outcome"])
        storeDuration = registry.histogram(
            "hearth_store_transaction_duration_seconds", help: "Store transactions by kind (read, write), failed ones included.",
            labels: ["kind"])
        readDuration = storeDuration.lazySeries(StoreTransactionKind.read.rawValue)
        writeDuration = storeDuration.lazySeries(StoreTransactionKind.write.rawValue)
        refreshSucceeded = refreshes.lazySeries(MetricsOutcome.success)
        storeFailures = registry.counter(
            "hearth_store_transaction_failures_total", help: "Store transactions that threw (rolled back), by kind.",
            labels: ["kind"])
        storeRetries = registry.counter(
            "hearth_store_transaction_retries_total", help: "Write bodies a store reran after a serialization failure.")
            .labels()
        refusals = registry.counter(
            "hearth_http_refusals_total",
            help: "Requests the HTTP layer refused before routing (413, 431, 400, the body budget's 503, CORS 403), by status.",
            labels: ["status"])
        ProcessStatistics.register(in: registry)
    }

    /// Renders an error the HTTP layer produced itself (``IdentityServer/render(_:)``) and counts it by status.
    public func renderCounting(_ error: HTTPStatusError) -> HTTPResponse {
        refusals.labels(String(error.status)).increment()
        return IdentityServer.render(error)
    }

    /// Exposes the age of the newest key of `signingKeys` (the session keys) as `hearth_signing_key_age_seconds`,
    /// measured with `time`; left out of a scrape when the keys cannot be read.
    public func exposeAge(of signingKeys: SigningKeyRing, time: any TimeSource) {
        registry.gauge("hearth_signing_key_age_seconds", help: "Seconds since the newest session signing key was created.") {
            guard let newest = (try? signingKeys.current())?.records.map(\.createdAt).max() else { return nil }
            return Double(time.nowSeconds - newest)
        }
    }

    /// Exposes a database connection pool's use, read at each scrape: `hearth_store_connections_in_use`,
    /// `hearth_store_connections_waiting` (threads waiting for a connection: the pool is too small) and
    /// `hearth_store_connections_max`.
    public func exposeConnectionPool(_ usage: @escaping @Sendable () -> (inUse: Int, waiting: Int, size: Int)) {
        registry.gauge("hearth_store_connections_in_use", help: "Database connections in use.") { Double(usage().inUse) }
        registry.gauge("hearth_store_connections_waiting", help: "Threads waiting for a database connection.") {
            Double(usage().waiting)
        }
        registry.gauge("hearth_store_connections_max", help: "Database connections the pool may hold.") {
            Double(usage().size)
        }
    }

    /// Exposes the database round trips counted so far (`hearth_store_round_trips_total`): divided by the operations
    /// served, what each costs in network latency to the database.
    public func exposeRoundTrips(_ count: @escaping @Sendable () -> Int) {
        registry.counter("hearth_store_round_trips_total", help: "Exchanges with the database (a statement, or statements sent together).") {
            UInt64(count())
        }
    }

    public func signIn(provider: String, outcome: String) {
        signIns.labels(provider, outcome).increment()
    }

    public func refresh(outcome: String) {
        if outcome == MetricsOutcome.success {
            refreshSucceeded.series.increment()
        } else {
            refreshes.labels(outcome).increment()
        }
    }

    public func secondFactor(_ step: SecondFactorStep, outcome: String) {
        secondFactors.labels(step.rawValue, outcome).increment()
    }

    public func delivery(_ channel: DeliveryChannel, sender: String, succeeded: Bool) {
        deliveries.labels(channel.rawValue, sender, succeeded ? MetricsOutcome.success : "failure").increment()
    }

    public func storeTransaction(_ kind: StoreTransactionKind, seconds: Double, succeeded: Bool) {
        switch kind {
        case .read: readDuration.series.observe(seconds)
        case .write: writeDuration.series.observe(seconds)
        }
        if !succeeded { storeFailures.labels(kind.rawValue).increment() }
    }

    public func storeTransactionRetried() {
        storeRetries.increment()
    }
}
