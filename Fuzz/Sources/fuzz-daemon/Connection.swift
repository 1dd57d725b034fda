import FuzzSupport
import Glibc

/// A TCP connection to the server under test, on raw sockets so that any bytes can be sent.
struct Connection {
    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`, on a fresh socket again when a signal (libFuzzer's timer) interrupts `connect`.
    init(port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        while true {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 {
                self.descriptor = descriptor
                break
            }
            let failure = errno
            close(descriptor)
            require(failure == EINTR, "cannot connect to the server: errno \(failure)")
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends the bytes, stopping early if the server closes the connection, then ends the sending side.
    func send(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let sent = Glibc.send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { break }
            offset += sent
        }
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// What the server sends until it closes the connection, or until it has been quiet for `quietMilliseconds`
    /// after sending something (a kept-alive connection), or `firstByteMilliseconds` before sending anything.
    func readAnswer(firstByteMilliseconds: Int32 = 10, quietMilliseconds: Int32 = 2) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let waited = poll(&ready, 1, received.isEmpty ? firstByteMilliseconds : quietMilliseconds)
            if waited < 0 && errno == EINTR { continue }
            guard waited > 0 else { return (received, false) }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (received, true) }
            received += buffer[..<count]
        }
    }

    /// Closes with a reset, so that no connection lingers in TIME_WAIT over millions of inputs.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(descriptor)
    }
}
