import HearthCore
import HearthHTTP
import HearthProtocol

/// The outermost step of every Firebase route: whatever the rest throws is answered in Firebase's
/// error envelope (through `WireFailure`, the one mapping), and server faults are logged with the
/// route they happened on (error types and codes only, never request values).
struct RenderWireErrors: HTTPMiddleware {
    let log: @Sendable (String) -> Void

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        do {
            return try next(request)
        } catch {
            let failure = WireFailure(error)
            if let fault = failure.fault {
                log("\(fault) method=\(request.method) path=\(RequestLogEntry.sanitized(request.path))")
            }
            return Responses.error(failure.wire)
        }
    }
}
