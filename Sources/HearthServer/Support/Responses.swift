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
}
