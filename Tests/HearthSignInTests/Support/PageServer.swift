import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HearthSignIn

/// A tiny HTTP server on 127.0.0.1 for the headless opener's tests: answers each GET with the page `page` returns
/// for its target (always `text/html`), one connection at a time, until stopped.
final class PageServer: @unchecked Sendable {
    // @unchecked: `descriptor` and `port` are set once in init.
    let port: UInt16
    private let descriptor: Int32
    private let page: @Sendable (String) -> String
    private let done = DispatchSemaphore(value: 0)

    init(page: @escaping @Sendable (String) -> String) throws {
        self.page = page
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw SignInError(.unknown, "PageServer could not bind")
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    private func serve() {
        defer { done.signal() }
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += chunk[0..<count]
            }
            let line = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
            let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let body = page(target)
            let reply = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body
            _ = Array(reply.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
            close(client)
        }
    }

    /// Stops accepting and waits for the thread to end.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        done.wait()
    }
}
