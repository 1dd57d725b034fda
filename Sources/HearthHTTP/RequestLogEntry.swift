/// One request as the access log sees it. Handed to the `log` closure of `HTTPServer` once per
/// request, after the response has been sent (or the connection was lost).
///
/// It deliberately carries no header, query or body: queries carry API keys and tokens, headers
/// carry credentials.
public struct RequestLogEntry: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string.
    public var path: String
    /// The status code sent, or 0 when no response was sent (the connection failed or the client left).
    public var status: Int
    /// Time from the request line arriving to the response being sent, in microseconds.
    public var durationMicroseconds: Int
    /// Request body bytes received (including any that were discarded because of a limit).
    public var requestBytes: Int
    /// Response body bytes queued.
    public var responseBytes: Int
    /// The client's IP address, without the port.
    public var remoteAddress: String?
    /// Whether the request ended without the response being delivered (client went away, timeout,
    /// server shutdown).
    public var aborted: Bool

    public init(
        method: HTTPMethod, path: String, status: Int, durationMicroseconds: Int, requestBytes: Int,
        responseBytes: Int, remoteAddress: String?, aborted: Bool = false
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.requestBytes = requestBytes
        self.responseBytes = responseBytes
        self.remoteAddress = remoteAddress
        self.aborted = aborted
    }

    /// One line of `key=value` pairs in a fixed order, for example
    /// `method=GET path=/v1/accounts:lookup status=200 duration_us=182 request_bytes=31 response_bytes=412 remote=127.0.0.1`.
    ///
    /// The path is re-encoded so the line stays one line of printable ASCII: bytes outside
    /// `!`…`~`, and `%` and `"`, are written as `%XX`. `aborted=true` is appended when
    /// the response was not delivered.
    public var logLine: String {
        var line = "method="
        line += Self.sanitized(method.rawValue)
        line += " path="
        line += Self.sanitized(path)
        line += " status=\(status) duration_us=\(durationMicroseconds) request_bytes=\(requestBytes) response_bytes=\(responseBytes) remote="
        line += remoteAddress.map(Self.sanitized) ?? "-"
        if aborted {
            line += " aborted=true"
        }
        return line
    }

    /// `text` as one line of printable ASCII: bytes outside `!`…`~`, `%` and `"` written as `%XX`.
    public static func sanitized(_ text: String) -> String {
        let safe = text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "\"") }
        if safe { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "\"") {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
