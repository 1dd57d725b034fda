import HearthCore
import HearthHTTP

/// Reports how a call ended, `success` or the wire code of what the rest of the chain threw
/// (``MetricsOutcome``), for the refresh and second-factor metrics.
struct CountOutcome: HTTPMiddleware {
    let record: @Sendable (_ outcome: String) -> Void

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        do {
            let response = try next(request)
            record(MetricsOutcome.success)
            return response
        } catch {
            record(MetricsOutcome.failure(error))
            throw error
        }
    }
}
