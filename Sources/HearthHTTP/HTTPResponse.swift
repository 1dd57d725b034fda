public import Foundation

/// What a handler returns: a status code, header fields and a body.
///
/// The server adds `Content-Length` and `Date` itself (a `Content-Length` set here is ignored);
/// fields whose name or value contain CR, LF or NUL are dropped rather than sent.
///
/// ```swift
/// return .json(try JSONEncoder().encode(reply))
/// return .redirect(to: "https://example.com/done?code=…", status: 302)
/// ```
public struct HTTPResponse: Sendable {
    /// The status code, 100…999.
    public var status: Int
    /// Header fields to send, in order.
    public var headers: HTTPHeaders
    /// The body bytes (never sent for `HEAD` requests, though `Content-Length` still describes them).
    public var body: [UInt8]

    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ data: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: [UInt8](data))
    }

    /// A JSON response from bytes that are already encoded.
    public static func json(bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: bytes)
    }

    /// A plain-text response with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(s.utf8))
    }

    /// An HTML response with `Content-Type: text/html; charset=utf-8`.
    public static func html(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(s.utf8))
    }

    /// A redirect with a `Location` header and an empty body (302 unless told otherwise).
    public static func redirect(to location: String, status: Int = 302) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }
}
