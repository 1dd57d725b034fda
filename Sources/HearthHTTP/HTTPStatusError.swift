/// An error the HTTP layer itself answers with: 400 (a malformed request head, ambiguous body framing), 413 (body too large),
/// 431 (too many header fields), 503 (no room for the body), and 404/405 from
/// `Router.handler(errorRenderer:)`.
///
/// The server hands it to the caller's error renderer so the body can use the application's own
/// error format; ``defaultResponse`` is the renderer used when none is given.
public struct HTTPStatusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code to answer with.
    public let status: Int
    /// A short, fixed, human-readable reason. Never contains request data.
    public let reason: String
    /// Extra header fields the response must carry (for example `Allow` on a 405).
    public let headers: HTTPHeaders

    public init(status: Int, reason: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    public var description: String { "\(status) \(reason)" }

    /// The request body is larger than the configured limit.
    public static let payloadTooLarge = HTTPStatusError(status: 413, reason: "Request body is too large")
    /// The request has more header fields than the configured limit.
    public static let tooManyHeaders = HTTPStatusError(status: 431, reason: "Too many request header fields")
    /// The request's body length is ambiguous (`Content-Length` with `Transfer-Encoding`, a repeated
    /// one, or a transfer coding other than `chunked`), as in request smuggling; the connection is closed.
    public static let ambiguousFraming = HTTPStatusError(status: 400, reason: "Request body length is ambiguous")
    /// The request line or a header field breaks RFC 9112's syntax (a bare CR or LF, a line not ended by CR LF, a
    /// folded field, extra spaces or a control character), which a proxy could read differently; the connection is
    /// closed.
    public static let malformedRequestHead = HTTPStatusError(status: 400, reason: "Request line or header fields are malformed")
    /// Request bodies already fill the server's memory budget for them; the connection is closed.
    public static let bodyBudgetExhausted = HTTPStatusError(
        status: 503, reason: "Server is busy receiving other requests; try again", headers: ["Retry-After": "1"])
    /// No route matches the path.
    public static let notFound = HTTPStatusError(status: 404, reason: "Not found")

    /// A route matches the path, but not for this method; `Allow` lists the methods that do.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPStatusError {
        HTTPStatusError(
            status: 405, reason: "Method not allowed",
            headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
    }

    /// The default rendering: `{"error":{"code":413,"message":"Request body is too large"}}` as
    /// `application/json; charset=utf-8`, plus the error's own header fields.
    public var defaultResponse: HTTPResponse {
        var body = Array(#"{"error":{"code":"#.utf8)
        body += Array(String(status).utf8)
        body += Array(#","message":""#.utf8)
        JSONText.appendEscaped(reason, to: &body)
        body += Array(#""}}"#.utf8)
        var response = HTTPResponse.json(bytes: body, status: status)
        for (name, value) in headers {
            response.headers.add(name: name, value: value)
        }
        return response
    }

    /// The renderer used when `HTTPServer` is given none.
    public static let defaultRenderer: @Sendable (HTTPStatusError) -> HTTPResponse = { $0.defaultResponse }
}

/// Minimal JSON string escaping (RFC 8259 §7) for the default error body.
enum JSONText {
    static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
    }
}
