@_spi(Fuzzing) import HearthHTTP

/// An HTTP/1.1 request in its text form, read leniently into the `HTTPRequest` the server's daemon would build:
/// a request line (`POST /path?query HTTP/1.1`), header lines up to an empty line (CRLF or LF), then the body.
///
/// Anything missing gets a neutral value (method `GET`, target `/`), so every input becomes some request. The path
/// is percent-decoded and the query split off exactly as the daemon does it.
enum RawRequest {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPRequest {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        var bodyStart = bytes.count
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var line = bytes[lineStart..<index]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                lineStart = index + 1
                if line.isEmpty && !lines.isEmpty {
                    bodyStart = lineStart
                    break
                }
                lines.append(ArraySlice(line))
            }
            index += 1
        }
        if bodyStart == bytes.count, lineStart < bytes.count {
            lines.append(ArraySlice(bytes[lineStart...]))
        }

        let requestLine = lines.first.map { $0.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true) } ?? []
        let method = requestLine.first.map(text) ?? "GET"
        let target = requestLine.count > 1 ? text(requestLine[1]) : "/"
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            headers.append((text(line[..<colon]), text(value)))
        }

        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = question.map { target[..<$0] } ?? target[...]
        let rawQuery = question.map { String(target[target.utf8.index(after: $0)...]) } ?? ""
        return HTTPRequest(
            method: HTTPMethod(rawValue: method), path: PercentDecoding.decodePath(rawPath), rawQuery: rawQuery,
            headers: HTTPHeaders(headers), body: Array(bytes[bodyStart...]), remoteAddress: "127.0.0.1")
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
