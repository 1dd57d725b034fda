/// Why ``HTTPServer/start()`` failed. Its `description` is one line meant for an operator, for
/// example `127.0.0.1:9099: address already in use`.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; compare with the static members (`.addressInUse`, …).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case addressInUse, bindFailed, invalidAddress, daemonStartFailed, alreadyStarted
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Another socket is already listening on the address (`EADDRINUSE`).
        public static let addressInUse = Code(.addressInUse)
        /// The socket could not be created, bound or put into listening state for another reason.
        public static let bindFailed = Code(.bindFailed)
        /// The host is not an address this machine can parse or resolve.
        public static let invalidAddress = Code(.invalidAddress)
        /// libmicrohttpd refused to start the daemon.
        public static let daemonStartFailed = Code(.daemonStartFailed)
        /// `start()` was called on a server that was already started (or stopped).
        public static let alreadyStarted = Code(.alreadyStarted)

        public var description: String { value.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The address the server tried to use, as `host:port` (`[::1]:8080` for IPv6).
    public let address: String
    /// What went wrong, in lower-case words (`address already in use`).
    public let reason: String
    /// The `errno` value behind the failure, when there is one.
    public let errno: Int32?

    init(code: Code, address: String, reason: String, errno: Int32? = nil) {
        self.code = code
        self.address = address
        self.reason = reason
        self.errno = errno
    }

    public var description: String { "\(address): \(reason)" }
}
