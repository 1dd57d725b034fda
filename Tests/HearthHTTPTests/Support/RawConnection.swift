import Foundation
import Glibc
@testable import HearthHTTP

/// A blocking TCP client on raw POSIX sockets, for requests no HTTP library will send
/// (malformed, oversized, trickled, abandoned half-way).
///
/// Every read has a receive timeout (`SO_RCVTIMEO`) as a guard against a hung test; no test
/// asserts on how long anything takes.
final class RawConnection {
    struct ConnectError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { "connect failed: " + String(cString: strerror(errno)) }
    }

    enum ReadEnd: Equatable {
        /// The server closed the connection (EOF or reset).
        case closed
        /// Nothing arrived before the guard timeout.
        case timedOut
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to `host:port`; with `sourceHost` (another loopback address such as `127.0.0.2`)
    /// the connection comes from that address, so tests can act as several clients.
    init(port: UInt16, host: String = "127.0.0.1", sourceHost: String? = nil, receiveTimeoutSeconds: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let sourceHost {
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = inet_addr(sourceHost)
            _ = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            // Through `close()`: a class whose init throws still runs `deinit`, which must not close the
            // descriptor again (by then its number may belong to another thread's socket).
            close()
            throw ConnectError(errno: code)
        }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Sends everything; false if the peer closed or reset the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 {
                if sent < 0 && errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Reads one response (status line, headers, `Content-Length` body). `nil` if the connection
    /// ended or timed out first.
    func readResponse(isHead: Bool = false) -> RawResponse? {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                var headers = HTTPHeaders()
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let value = line[line.index(after: colon)...].drop { $0 == " " }
                    headers.add(name: String(line[..<colon]), value: String(value))
                }
                let length = isHead ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
                let bodyStart = end + 4
                while buffer.count < bodyStart + length {
                    guard receiveMore() else { return nil }
                }
                let body = Array(buffer[bodyStart..<(bodyStart + length)])
                buffer.removeFirst(bodyStart + length)
                return RawResponse(status: status, headers: headers, body: body)
            }
            guard receiveMore() else { return nil }
        }
    }

    /// Reads until the server closes the connection, or the guard timeout fires.
    func readUntilEnd() -> ReadEnd {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 { continue }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .timedOut
            default: return .closed
            }
        }
    }

    /// Sends `pieces` one at a time, pausing `intervalMilliseconds` after each, until the server
    /// closes the connection. Returns true if it did before all were sent.
    func trickle(_ pieces: [String], intervalMilliseconds: Int) -> Bool {
        for piece in pieces {
            if peerClosed() || !send(piece) { return true }
            usleep(useconds_t(intervalMilliseconds * 1000))
        }
        return peerClosed()
    }

    /// Whether the server has closed the connection (without waiting).
    func peerClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func receiveMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }
}

struct RawResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Sends one request on a fresh connection and reads the response.
func exchange(port: UInt16, _ head: String, body: [UInt8] = [], isHead: Bool = false) throws -> RawResponse? {
    let connection = try RawConnection(port: port)
    connection.send(Array(head.utf8) + body)
    return connection.readResponse(isHead: isHead)
}

/// `GET <target>` with `Host` and nothing else.
func get(port: UInt16, _ target: String, headers: [String] = []) throws -> RawResponse? {
    let extra = headers.map { $0 + "\r\n" }.joined()
    return try exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n")
}

/// Starts a server on an ephemeral port, runs `body`, and shuts the server down.
func withServer<T>(
    _ configuration: HTTPServer.Configuration = .init(),
    errorRenderer: (@Sendable (HTTPStatusError) -> HTTPResponse)? = nil,
    log: (@Sendable (RequestLogEntry) -> Void)? = nil,
    handler: @escaping HTTPHandler,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    signal(SIGPIPE, SIG_IGN)
    let server = HTTPServer(configuration: configuration, handler: handler, errorRenderer: errorRenderer, log: log)
    try server.start()
    defer { server.shutdown(gracePeriod: .seconds(5)) }
    return try body(server)
}

/// Polls `condition` (a bounded number of times) until it holds; for state that settles
/// asynchronously on the server's threads. Not a timing assertion: only the outcome is checked.
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
