import HearthCore
import HearthHTTP
import HearthServer

/// What `hearth serve` adds for operators: metrics (unless `HEARTH_METRICS=off`), `/healthz` and `/readyz`,
/// and the management listener of `--metrics-port`.
struct ServeOperations {
    /// nil when metrics are off.
    let metrics: ServerMetrics?
    private let settings: Settings

    init(settings: Settings, workerThreads: Int) {
        self.settings = settings
        metrics = settings.operations.metricsEnabled ? ServerMetrics(workerThreads: workerThreads) : nil
    }

    /// Where the services report what they count.
    var recording: any MetricsRecording { metrics ?? NoMetrics() }

    /// The store, measured when metrics are on.
    func measured(_ store: any HearthStore) -> any HearthStore {
        metrics.map { MeasuredStore(store, metrics: $0) } ?? store
    }

    /// The SMS sender, counted when metrics are on.
    func counted(_ sender: any SMSSender) -> any SMSSender {
        metrics.map { CountedSender(sender, metrics: $0) } ?? sender
    }

    /// The email sender, counted when metrics are on.
    func counted(_ sender: any EmailSender) -> any EmailSender {
        metrics.map { CountedSender(sender, metrics: $0) } ?? sender
    }

    /// Renders the refusals the HTTP layer makes itself, counted when metrics are on.
    var errorRenderer: @Sendable (HTTPStatusError) -> HTTPResponse {
        guard let metrics else { return IdentityServer.render }
        return { metrics.renderCounting($0) }
    }

    /// The endpoints of the main listener: `/metrics` there unless a management port is set, for loopback
    /// peers in `--dev` and otherwise only with `HEARTH_METRICS_TOKEN`.
    func mainEndpoints(readiness: Readiness) -> OperatorEndpoints {
        let token = settings.operations.metricsToken
        let access = settings.operations.metricsPort != nil
            ? MetricsAccess.closed
            : MetricsAccess(served: token != nil || settings.development, bearerToken: token, loopbackOnly: token == nil)
        return OperatorEndpoints(metrics: metrics, readiness: readiness, access: access)
    }

    /// The management listener of `--metrics-port` (on `--host`; `/metrics` open to whoever reaches it unless
    /// `HEARTH_METRICS_TOKEN` is set), bound but not started; nil without a management port.
    func managementServer(readiness: Readiness) throws -> HTTPServer? {
        guard let port = settings.operations.metricsPort else { return nil }
        let endpoints = OperatorEndpoints(
            metrics: metrics, readiness: readiness,
            access: MetricsAccess(served: true, bearerToken: settings.operations.metricsToken))
        do {
            let socket = try HTTPServer.bind(host: settings.host, port: port)
            return HTTPServer(
                configuration: HTTPServer.Configuration(host: settings.host, port: socket.port, threadCount: 2),
                socket: socket, handler: OperatorRoutes.managementHandler(endpoints), errorRenderer: errorRenderer)
        } catch {
            throw StartupError("cannot listen on \(settings.host):\(port) (--metrics-port): \(error)")
        }
    }
}
