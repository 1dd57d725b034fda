import Foundation
import HearthHTTP
import HearthProtocol

/// Building HTTP responses from wire values.
enum Responses {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        do {
            return HTTPResponse.json(try encoder.encode(value), status: status)
        } catch {
            return self.error(WireError(.internalError, "The response could not be encoded."))
        }
    }

    static func json(_ object: [String: JSONValue], status: Int = 200) -> HTTPResponse {
        HTTPResponse.json(JSONValue.object(object).jsonData(), status: status)
    }

    static func error(_ error: WireError) -> HTTPResponse {
        HTTPResponse.json(error.envelope(), status: error.httpStatus)
    }

    /// A response with `Cache-Control: public, max-age=…` for documents verifiers cache.
    static func cacheable(_ response: HTTPResponse, maxAge: Int) -> HTTPResponse {
        var response = response
        response.headers["Cache-Control"] = "public, max-age=\(maxAge), must-revalidate, no-transform"
        return response
    }

    /// A page of Hearth's own (the action page, the console): never cached, never framed, no referrer to other
    /// sites, no sniffing, under `contentSecurityPolicy`.
    static func securedPage(_ response: HTTPResponse, contentSecurityPolicy: String) -> HTTPResponse {
        var response = response
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        return response
    }
}
