import Glibc

/// Creates, binds and listens on the server socket ourselves, so that a failure reports the real
/// `errno` (libmicrohttpd only answers NULL). The descriptor is then handed to the daemon with
/// `MHD_OPTION_LISTEN_SOCKET`.
///
/// Binding and listening are separate steps: between them the port is taken and known, but
/// connection attempts are refused (there is no listen queue), which lets a server learn its port
/// before it is ready to answer.
struct ListenSocket {
    let descriptor: Int32
    let port: UInt16
    let isIPv6: Bool
    /// `host:port` as configured, for error messages.
    let shownAddress: String
    /// The numeric address and port the socket is bound to (`127.0.0.1:41234`, `[::1]:41234`).
    let boundAddress: String

    /// Creates the socket and binds it, without listening.
    static func bind(host: String, port: UInt16) throws(HTTPServerError) -> ListenSocket {
        let shownAddress = Self.format(host: host, port: port)
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            let reason = status == 0 ? "no address found" : String(cString: gai_strerror(status))
            throw HTTPServerError(code: .invalidAddress, address: shownAddress, reason: "invalid address: " + lowercasedFirst(reason))
        }
        defer { freeaddrinfo(results) }

        let info = first.pointee
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            throw failure(.bindFailed, shownAddress, Glibc.errno)
        }
        var on: Int32 = 1
        // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT; on Linux it
        // still refuses a second listener on the same address.
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.bind(fd, info.ai_addr, info.ai_addrlen) != 0 {
            let code = Glibc.errno
            close(fd)
            throw failure(code == EADDRINUSE ? .addressInUse : .bindFailed, shownAddress, code)
        }

        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = Glibc.errno
            close(fd)
            throw failure(.bindFailed, shownAddress, code)
        }
        let boundPort: UInt16
        if Int32(bound.ss_family) == AF_INET6 {
            boundPort = withUnsafePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        } else {
            boundPort = withUnsafePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        var numericHost = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let formatted = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &numericHost, socklen_t(numericHost.count), nil, 0, NI_NUMERICHOST)
            }
        }
        let boundHost = formatted == 0 ? String(cString: numericHost) : host
        return ListenSocket(
            descriptor: fd, port: boundPort, isIPv6: info.ai_family == AF_INET6, shownAddress: shownAddress,
            boundAddress: Self.format(host: boundHost, port: boundPort))
    }

    /// Starts listening. Fails with `addressInUse` if another socket began listening on the same
    /// address since the bind (possible because of `SO_REUSEADDR`). Leaves the descriptor open either way.
    func listen() throws(HTTPServerError) {
        if Glibc.listen(descriptor, SOMAXCONN) != 0 {
            let code = Glibc.errno
            throw Self.failure(code == EADDRINUSE ? .addressInUse : .bindFailed, shownAddress, code)
        }
    }

    /// `host:port`, with IPv6 literals in brackets.
    static func format(host: String, port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func failure(_ code: HTTPServerError.Code, _ address: String, _ number: Int32) -> HTTPServerError {
        HTTPServerError(code: code, address: address, reason: lowercasedFirst(String(cString: strerror(number))), errno: number)
    }
}

/// "Address already in use" → "address already in use".
func lowercasedFirst(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.lowercased() + text.dropFirst()
}
