import HearthCore
import HearthHTTP
import HearthProtocol

/// The API key of a client call: `?key=` or the `x-goog-api-key` header (PROTOCOL.md §1.3).
enum APIKey {
    static func check(_ request: HTTPRequest, policy: ProjectConfiguration.APIKeyPolicy) throws {
        let key = request.query["key"] ?? request.headers["x-goog-api-key"] ?? ""
        guard !key.isEmpty else {
            throw WireError(.permissionDenied, "The request is missing a valid API key.", reason: "forbidden")
        }
        guard policy.accepts(key) else {
            throw WireError(
                .invalidArgument, "API key not valid. Please pass a valid API key.", httpStatus: 400,
                reason: "keyInvalid")
        }
    }
}
