import Glibc
import Synchronization

extension HTTPServer {
    /// A server address bound before the server that answers on it exists.
    ///
    /// The port is taken and known (port 0 has been resolved), but the socket does not listen yet,
    /// so a client that connects now is refused at once rather than kept waiting; the server that is
    /// given this socket starts listening in ``HTTPServer/start()``. A socket no server started on is
    /// closed when the last reference to it goes.
    ///
    /// ```swift
    /// let socket = try HTTPServer.bind(host: "127.0.0.1", port: 0)
    /// let publicURL = "http://127.0.0.1:\(socket.port)"   // needed to build the handler
    /// let server = HTTPServer(configuration: .init(), socket: socket, handler: makeHandler(publicURL))
    /// try server.start()
    /// ```
    public final class BoundSocket: Sendable {
        /// The bound port.
        public let port: UInt16
        /// `host:port` as asked for, for messages.
        let address: String
        /// The numeric address and port it is bound to, as `host:port` (`127.0.0.1:41234`, `[::1]:41234`): where
        /// clients reach it, whatever name or port 0 was asked for.
        public let boundAddress: String
        private let socket: Mutex<ListenSocket?>

        init(_ socket: ListenSocket) {
            self.port = socket.port
            self.address = socket.shownAddress
            self.boundAddress = socket.boundAddress
            self.socket = Mutex(socket)
        }

        deinit {
            if let socket = take() {
                close(socket.descriptor)
            }
        }

        /// Hands the socket to the server that starts on it; nil once taken.
        func take() -> ListenSocket? {
            socket.withLock { socket in
                defer { socket = nil }
                return socket
            }
        }
    }

    /// Binds `host:port` without listening (see ``BoundSocket``).
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be parsed or bound, with the same
    ///   descriptions as ``start()`` (`127.0.0.1:9099: address already in use`).
    public static func bind(host: String, port: UInt16) throws(HTTPServerError) -> BoundSocket {
        BoundSocket(try ListenSocket.bind(host: host, port: port))
    }
}
