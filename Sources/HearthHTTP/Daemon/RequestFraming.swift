internal import CMicroHTTPD

/// How a request says where its body ends (RFC 9112 §6), read from its header fields before any of
/// the body is.
///
/// A request is refused when a proxy in front of the server could read its length differently from
/// libmicrohttpd, which is what request smuggling exploits: libmicrohttpd 0.9.75 takes
/// `Transfer-Encoding` over `Content-Length` when both are present, uses the first of repeated
/// fields, and reads a body with any other transfer coding until the connection closes.
struct RequestFraming {
    var contentLengthFields = 0
    var transferEncodingFields = 0
    /// Whether a `Transfer-Encoding` field is exactly `chunked` (in any case).
    var isChunked = false

    /// True when the length is ambiguous: `Content-Length` together with `Transfer-Encoding`,
    /// either of them repeated, or a transfer coding other than `chunked` alone.
    var isAmbiguous: Bool {
        if transferEncodingFields > 0 {
            return contentLengthFields > 0 || transferEncodingFields > 1 || !isChunked
        }
        return contentLengthFields > 1
    }

    /// Counts the framing fields of the request on `connection`.
    init(connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, hearthCountFramingField, pointer)
        }
    }

    init() {}

    mutating func count(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        if asciiCaseInsensitiveEqual(name, "Content-Length".utf8) {
            contentLengthFields += 1
        } else if asciiCaseInsensitiveEqual(name, "Transfer-Encoding".utf8) {
            transferEncodingFields += 1
            isChunked = asciiCaseInsensitiveEqual(value, "chunked".utf8)
        }
    }
}

private func hearthCountFramingField(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let framing = cls.assumingMemoryBound(to: RequestFraming.self)
    framing.pointee.count(
        name: UnsafeRawBufferPointer(start: key, count: keySize),
        value: UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize))
    return .YES
}
