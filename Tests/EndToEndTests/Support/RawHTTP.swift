import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A deliberately small HTTP/1.1 client over a plain socket, so tests control every byte sent and
/// see redirects instead of following them.
struct HTTPResult: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object (empty if it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// `error.message` of a wire error envelope.
    var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Sends one request and reads the whole response (`Connection: close`).
    static func send(
        port: UInt16, method: String, path: String, headers: [(String, String)] = [], body: Data = Data(),
        timeout: TimeInterval = 15
    ) throws -> HTTPResult {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return try exchange(port: port, bytes: Data(head.utf8) + body, timeout: timeout)
    }

    /// Writes `bytes` as they are and parses what comes back.
    static func exchange(port: UInt16, bytes: Data, timeout: TimeInterval = 15) throws -> HTTPResult {
        let raw = try roundTrip(port: port, bytes: bytes, timeout: timeout)
        return try parse(raw)
    }

    static func roundTrip(port: UInt16, bytes: Data, timeout: TimeInterval) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port) failed (errno \(errno))") }
        var offset = 0
        let payload = [UInt8](bytes)
        while offset < payload.count {
            let written = payload[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { break }  // the server may answer (413) and close before reading everything
            offset += written
        }
        shutdown(fd, Int32(SHUT_WR))
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        return response
    }

    static func parse(_ raw: Data) throws -> HTTPResult {
        guard let separator = raw.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no HTTP response (\(raw.count) bytes)")
        }
        let head = String(decoding: raw[..<separator.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(raw[separator.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPResult(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var result = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = rest.index(start, offsetBy: size, limitedBy: rest.endIndex) ?? rest.endIndex
            result.append(rest[start..<end])
            rest = rest[min(rest.endIndex, rest.index(end, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex)...]
        }
        return result
    }
}
