import HearthCore
import HearthHTTP
import HearthMetrics

extension ServerMetrics {
    /// The route label of requests no route matched (unknown paths, wrong methods), so raw paths never
    /// become labels.
    static let unmatchedRoute = "unmatched"

    /// Runs a request's handler, counting it by route pattern, method and status class, timing it, and
    /// keeping it in the handlers-in-flight gauge meanwhile.
    /// - Parameter route: the pattern the router matched; nil when none did.
    func measure(_ method: HTTPMethod, route: String?, _ respond: () -> HTTPResponse) -> HTTPResponse {
        handlersInFlight.add(1)
        defer { handlersInFlight.add(-1) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = respond()
        let seconds = (clock.now - start).totalSeconds
        let routeLabel = route ?? Self.unmatchedRoute
        let methodLabel = Self.knownMethods.contains(method) ? method.rawValue : "OTHER"
        requests.labels(routeLabel, methodLabel, "\(response.status / 100)xx").increment()
        requestDuration.labels(routeLabel, methodLabel).observe(seconds)
        return response
    }

    /// Methods that are their own label; any other token counts as `OTHER`.
    private static let knownMethods: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]
}
