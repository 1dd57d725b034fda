import Foundation

extension HTTPServer {
    /// Listening address, thread pool and limits.
    ///
    /// The limits bound what one client, or many, can make the server hold: connections (in total,
    /// per client address, and how long an unfinished request or an idle connection may keep one),
    /// and memory (header block per connection, body per request, bodies across all requests).
    /// docs/CONFIGURATION.md ("HTTP limits") says what each one defends against.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal, or a name such as `localhost`.
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
        public var port: UInt16
        /// Worker threads in libmicrohttpd's pool; each runs handlers for its share of connections.
        public var threadCount: Int
        /// Largest request body accepted; larger ones get 413.
        public var maxBodyBytes: Int
        /// Most request header fields accepted; more get 431.
        public var maxHeaderCount: Int
        /// libmicrohttpd's per-connection memory pool (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`), which
        /// bounds the request line plus header block; larger ones get 431 from libmicrohttpd.
        public var headerMemoryLimit: Int
        /// Seconds a connection may stay silent before it is closed; 0 disables. Any bytes received
        /// restart this clock, so it does not bound a client that trickles: ``requestTimeout`` does.
        public var connectionTimeout: Int
        /// Most simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`). Further connections are not
        /// accepted: they wait in the kernel's listen queue (costing the server no memory) until a
        /// connection closes.
        public var maxConnections: Int
        /// Most simultaneous connections from one client IP address
        /// (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`); further ones are closed as soon as they are
        /// accepted, before anything is read or allocated for them. 0 disables. Behind a reverse
        /// proxy every connection comes from the proxy's address: raise it above the proxy's
        /// connection count, or set 0 and limit per client in the proxy.
        public var maxConnectionsPerAddress: Int
        /// Seconds a client has to send a whole request (request line, headers and body), counted from
        /// the connection being accepted for its first request and from the request's first byte for
        /// later ones on a keep-alive connection. A request not complete by then has its connection
        /// closed, however steadily bytes trickle in. 0 disables.
        public var requestTimeout: Int
        /// Open connections at which the server counts as busy, when idle connections get
        /// ``busyIdleTimeout`` instead of ``connectionTimeout``; `nil` means three quarters of
        /// ``maxConnections``.
        public var busyConnections: Int?
        /// Seconds a connection without a request in progress (just accepted, or keep-alive between
        /// requests) may stay open while the server is busy; then it is closed to make room. 0 disables.
        public var busyIdleTimeout: Int
        /// Bytes of request bodies all connections together may hold in memory, beyond each
        /// request's first ``smallBodyBytes``. A request whose body does not fit is answered 503 and
        /// its connection closed: at once when `Content-Length` announces it, otherwise when the
        /// chunked body ends (nothing more of it is kept).
        public var bodyBudgetBytes: Int
        /// The part of each request body that does not count against ``bodyBudgetBytes``, so small
        /// requests are served while large uploads exhaust the budget (at most
        /// ``maxConnections`` × this in total).
        public var smallBodyBytes: Int
        /// Least seconds between two returns of freed memory to the operating system
        /// (glibc `malloc_trim`), which the server does once buffered bodies drop back to zero after
        /// a burst; 0 never returns it.
        public var memoryTrimInterval: Int
        /// CORS behaviour.
        public var cors: CORSPolicy

        /// `max(2, active processor count)`.
        public static var defaultThreadCount: Int {
            max(2, ProcessInfo.processInfo.activeProcessorCount)
        }

        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            threadCount: Int = Configuration.defaultThreadCount,
            maxBodyBytes: Int = 1_048_576,
            maxHeaderCount: Int = 64,
            headerMemoryLimit: Int = 32 * 1024,
            connectionTimeout: Int = 30,
            maxConnections: Int = 1024,
            maxConnectionsPerAddress: Int = 64,
            requestTimeout: Int = 20,
            busyConnections: Int? = nil,
            busyIdleTimeout: Int = 2,
            bodyBudgetBytes: Int = 64 * 1_048_576,
            smallBodyBytes: Int = 16 * 1024,
            memoryTrimInterval: Int = 5,
            cors: CORSPolicy = .disabled
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderCount = maxHeaderCount
            self.headerMemoryLimit = headerMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.requestTimeout = requestTimeout
            self.busyConnections = busyConnections
            self.busyIdleTimeout = busyIdleTimeout
            self.bodyBudgetBytes = bodyBudgetBytes
            self.smallBodyBytes = smallBodyBytes
            self.memoryTrimInterval = memoryTrimInterval
            self.cors = cors
        }

        /// ``busyConnections``, or three quarters of ``maxConnections`` when it is `nil`.
        var busyThreshold: Int {
            busyConnections ?? max(1, maxConnections * 3 / 4)
        }
    }
}
