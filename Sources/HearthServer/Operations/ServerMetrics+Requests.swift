import HearthCore
import HearthHTTP
import HearthMetrics

extension ServerMetrics {
    /// The route label of requests no route matched (unknown paths, wrong methods), so raw paths never
    /// become labels.
    static let unmatchedRoute = "unmatched"

    /// The request series of every route of a server, looked up once: counting a request on a registered route
    /// takes no lock and hashes nothing but its pattern. Series are still created on first use, so a route never
    /// called is not exposed.
    func requestMeters(for routes: [RegisteredRoute]) -> RequestMeters {
        var meters: [String: [HTTPMethod: RequestMeters.Meter]] = [:]
        for route in routes {
            // HEAD is answered by the GET route when it has none of its own.
            for method in route.method == .get ? [.get, .head] : [route.method] where meters[route.pattern]?[method] == nil {
                meters[route.pattern, default: [:]][method] = meter(route: route.pattern, method: method)
            }
        }
        return RequestMeters(metrics: self, byRoute: meters)
    }

    fileprivate func meter(route: String, method: HTTPMethod) -> RequestMeters.Meter {
        let methodLabel = Self.methodLabel(method)
        return RequestMeters.Meter(
            duration: requestDuration.lazySeries(route, methodLabel),
            byStatusClass: (1...5).map { requests.lazySeries(route, methodLabel, "\($0)xx") })
    }

    /// Counts one answered request by route pattern, method and status class, and its duration.
    fileprivate func record(route: String, _ method: HTTPMethod, status: Int, seconds: Double) {
        let methodLabel = Self.methodLabel(method)
        requests.labels(route, methodLabel, "\(status / 100)xx").increment()
        requestDuration.labels(route, methodLabel).observe(seconds)
    }

    /// Methods that are their own label; any other token counts as `OTHER`.
    private static func methodLabel(_ method: HTTPMethod) -> String {
        knownMethods.contains(method) ? method.rawValue : "OTHER"
    }

    private static let knownMethods: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]
}

/// Times and counts requests by the route pattern that matched, with the series of the server's routes resolved in
/// advance (``ServerMetrics/requestMeters(for:)``).
struct RequestMeters: Sendable {
    /// One route and method's series.
    struct Meter: Sendable {
        let duration: LazySeries<Histogram>
        /// 1xx to 5xx.
        let byStatusClass: [LazySeries<Counter>]
    }

    let metrics: ServerMetrics
    let byRoute: [String: [HTTPMethod: Meter]]

    /// Runs a request's handler, counting it by route pattern, method and status class, timing it, and
    /// keeping it in the handlers-in-flight gauge meanwhile.
    /// - Parameter route: the pattern the router matched; nil when none did.
    func measure(_ method: HTTPMethod, route: String?, _ respond: () -> HTTPResponse) -> HTTPResponse {
        metrics.handlersInFlight.add(1)
        defer { metrics.handlersInFlight.add(-1) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = respond()
        let seconds = (clock.now - start).totalSeconds
        let statusClass = response.status / 100
        if let route, let meter = byRoute[route]?[method], (1...5).contains(statusClass) {
            meter.byStatusClass[statusClass - 1].series.increment()
            meter.duration.series.observe(seconds)
        } else {
            metrics.record(route: route ?? ServerMetrics.unmatchedRoute, method, status: response.status, seconds: seconds)
        }
        return response
    }
}
