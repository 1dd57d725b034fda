import HearthCore
import HearthHTTP
import HearthProtocol

/// Refuses client calls without an accepted API key: `?key=` or the `x-goog-api-key` header
/// (PROTOCOL.md §1.3).
struct RequireAPIKey: HTTPMiddleware {
    let policy: ProjectConfiguration.APIKeyPolicy

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        let key = request.query["key"] ?? request.headers["x-goog-api-key"] ?? ""
        guard !key.isEmpty else {
            throw WireError(.permissionDenied, "The request is missing a valid API key.", reason: "forbidden")
        }
        guard policy.accepts(key) else {
            throw WireError(
                .invalidArgument, "API key not valid. Please pass a valid API key.", httpStatus: 400,
                reason: "keyInvalid")
        }
        return try next(request)
    }
}
