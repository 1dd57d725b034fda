import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd, running one synchronous handler on a pool of worker threads.
///
/// The daemon runs in thread-pool mode with epoll (`MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL`,
/// `MHD_OPTION_THREAD_POOL_SIZE`). Each worker thread owns a share of the connections and calls the
/// handler directly, so a handler may block (SQLite, for example) but then holds up the other
/// connections of its thread; size ``Configuration/threadCount`` for that.
///
/// What the server does before the handler sees a request:
/// - bodies over ``Configuration/maxBodyBytes`` get 413: at once when `Content-Length` says so (the
///   body is not read), otherwise once a chunked upload crosses the limit (the excess is read and
///   discarded, not buffered; an upload running more than the limit again past it is cut off);
/// - more than ``Configuration/maxHeaderCount`` header fields get 431;
/// - a header block larger than ``Configuration/headerMemoryLimit`` is answered by libmicrohttpd
///   itself with **431 Request Header Fields Too Large** (its own small HTML body) and the
///   connection is closed;
/// - a connection idle for ``Configuration/connectionTimeout`` seconds, including one that sends
///   its request too slowly, is closed;
/// - with ``CORSPolicy/reflectAnyOrigin``, CORS preflights are answered 204 (see `CORS`).
///
/// The 413 and 431 bodies come from the `errorRenderer`, so the application can use its own
/// error format. `HEAD` requests reach the handler as `.head`; libmicrohttpd sends the headers of
/// the handler's response without its body.
///
/// ```swift
/// var router = Router()
/// router.add(.get, "/health") { _ in .text("ok") }
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 9099), handler: router.handler(),
///                         log: { print($0.logLine) })
/// do { try server.start() } catch { print("hearth: \(error)"); exit(1) }
/// …
/// server.shutdown(gracePeriod: .seconds(10))
/// ```
///
/// Related libmicrohttpd documentation: https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html
public final class HTTPServer: Sendable {
    /// Whether and how the server answers cross-origin requests.
    public enum CORSPolicy: Sendable {
        /// No CORS headers; `OPTIONS` goes to the handler like any method.
        case disabled
        /// Preflights are answered 204 before routing, and every response to a request with
        /// `Origin` reflects that origin (`Access-Control-Allow-Origin: <origin>`, `Vary: Origin`).
        case reflectAnyOrigin
    }

    /// Listening address, thread pool and limits.
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
        /// Seconds a connection may stay idle (or trickle its request) before it is closed; 0 disables.
        public var connectionTimeout: Int
        /// Most simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`); further ones are closed on accept.
        public var maxConnections: Int
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
            self.cors = cors
        }
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let context: ServerContext
    private let lifecycle = Mutex<Lifecycle>(.idle)

    private enum Lifecycle {
        case idle
        case running(Daemon)
        case stopping(port: UInt16)
        case stopped(port: UInt16)
    }

    /// Creates a server; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - handler: called for every request that passes the limits (and is not a CORS preflight).
    ///   - errorRenderer: builds the response for errors the server produces itself (413, 431);
    ///     `nil` uses ``HTTPStatusError/defaultResponse``.
    ///   - log: called once per request, after the response went out, on a worker thread.
    ///   - diagnostics: receives libmicrohttpd's own error messages (which otherwise go nowhere).
    public init(
        configuration: Configuration,
        handler: @escaping HTTPHandler,
        errorRenderer: (@Sendable (HTTPStatusError) -> HTTPResponse)? = nil,
        log: (@Sendable (RequestLogEntry) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.context = ServerContext(
            configuration: configuration,
            handler: handler,
            errorRenderer: errorRenderer ?? HTTPStatusError.defaultRenderer,
            log: log,
            diagnostics: diagnostics)
    }

    deinit {
        // Dropping the daemon stops it (Daemon.deinit); nothing to wait for.
        lifecycle.withLock { state in
            if case .running(let daemon) = state {
                daemon.stop()
            }
            state = .stopped(port: 0)
        }
    }

    /// Binds the socket and starts serving.
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be parsed or bound (its description
    ///   reads like `127.0.0.1:9099: address already in use`), when libmicrohttpd refuses to
    ///   start, or when the server was already started.
    public func start() throws {
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(
                    code: .alreadyStarted,
                    address: ListenSocket.format(host: configuration.host, port: configuration.port),
                    reason: "server already started")
            }
            state = .running(try Daemon.start(context: context))
        }
    }

    /// The bound port (useful with port 0); 0 before ``start()``.
    public var port: UInt16 {
        lifecycle.withLock { state in
            switch state {
            case .idle: 0
            case .running(let daemon): daemon.port
            case .stopping(let port), .stopped(let port): port
            }
        }
    }

    /// Stops the server gracefully.
    ///
    /// New connections are refused at once; requests already being handled (or being sent) may
    /// finish until `gracePeriod` runs out, and their responses carry `Connection: close`. Then the
    /// daemon stops and closes every connection. Idle keep-alive connections do not delay it.
    /// A handler that is still running after the grace period cannot be interrupted (it is plain
    /// synchronous code): stopping waits for it to return, but its response is not sent.
    ///
    /// Calling it again, concurrently or later, returns at once. Must not be called from a handler.
    public func shutdown(gracePeriod: Duration = .seconds(10)) {
        let taken: Daemon? = lifecycle.withLock { state in
            guard case .running(let daemon) = state else { return nil }
            state = .stopping(port: daemon.port)
            return daemon
        }
        guard let daemon = taken else { return }
        context.draining.store(true, ordering: .releasing)
        daemon.stopAccepting()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while context.inFlight.load(ordering: .acquiring) > 0 && clock.now < deadline {
            usleep(2_000)
        }
        daemon.stop()
        lifecycle.withLock { $0 = .stopped(port: daemon.port) }
    }

    /// Requests currently between "headers received" and "response sent".
    @_spi(Fuzzing) public var inFlightRequests: Int { context.inFlight.load(ordering: .acquiring) }

    /// Per-request state objects alive right now (0 when idle: nothing leaks).
    @_spi(Fuzzing) public var liveRequestStates: Int { context.liveRequestStates.load(ordering: .acquiring) }
}
