import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd, running one synchronous handler on a pool of worker threads.
///
/// The daemon runs in thread-pool mode with poll (`MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL`,
/// `MHD_OPTION_THREAD_POOL_SIZE`; not epoll, whose quiescing can abort the process, see `Daemon.start`).
/// Each worker thread owns a share of the connections and calls the handler directly, so a handler may
/// block (SQLite, for example) but then holds up the other connections of its thread; size
/// ``Configuration/threadCount`` for that.
///
/// What the server does before the handler sees a request:
/// - at most ``Configuration/maxConnections`` connections are open (more wait in the kernel's listen
///   queue), and at most ``Configuration/maxConnectionsPerAddress`` from one client address (more
///   are closed as soon as they are accepted);
/// - a request must arrive whole (headers and body) within ``Configuration/requestTimeout`` seconds
///   of its connection being accepted, or of its first byte on a keep-alive connection, however
///   steadily it trickles; otherwise the connection is closed;
/// - a connection silent for ``Configuration/connectionTimeout`` seconds is closed, and while
///   ``Configuration/busyConnections`` connections are open, one without a request in progress is
///   closed after ``Configuration/busyIdleTimeout`` seconds;
/// - a request whose body length is ambiguous (`Content-Length` and `Transfer-Encoding` together,
///   either repeated, or a transfer coding other than `chunked`) gets 400 and its connection is
///   closed, so nothing in front of the server can be made to read a different request;
/// - bodies over ``Configuration/maxBodyBytes`` get 413: at once when `Content-Length` says so (the
///   body is not read), otherwise once a chunked upload crosses the limit (the excess is read and
///   discarded, not buffered; an upload running more than the limit again past it is cut off);
/// - a body that does not fit in what is left of ``Configuration/bodyBudgetBytes`` (shared by all
///   requests) gets 503 and its connection is closed: at once when `Content-Length` announces it,
///   otherwise when the chunked body ends, nothing more of it being kept;
/// - more than ``Configuration/maxHeaderCount`` header fields get 431;
/// - a header block larger than ``Configuration/headerMemoryLimit`` is answered by libmicrohttpd
///   itself with **431 Request Header Fields Too Large** (its own small HTML body) and the
///   connection is closed;
/// - with a ``CORSPolicy`` other than `.disabled`, CORS preflights are answered before the handler
///   (204, or 403 for an origin the policy refuses), and a request from a refused origin gets 403 (see `CORS`).
///
/// The 400, 413, 431 and 503 bodies come from the `errorRenderer`, so the application can use its
/// own error format. `HEAD` requests reach the handler as `.head`; libmicrohttpd sends the headers of
/// the handler's response without its body. After a burst of large bodies, or of connections, the
/// server gives the freed memory back to the system (``Configuration/memoryTrimInterval``).
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
/// To learn the port (of port 0, say) before the handler exists, bind first with
/// ``bind(host:port:)`` and pass the ``BoundSocket`` to the server once it can answer; until then
/// connection attempts are refused.
///
/// Related libmicrohttpd documentation: https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    private let context: ServerContext
    private let boundSocket: BoundSocket?
    private let lifecycle = Mutex<Lifecycle>(.idle)

    private enum Lifecycle {
        case idle
        case running(Daemon)
        case stopping(port: UInt16)
        case stopped(port: UInt16)
    }

    /// Creates a server; nothing is bound until ``start()``, unless `socket` was bound already.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - socket: an address bound with ``bind(host:port:)``, to serve on instead of binding
    ///     `configuration.host` and `configuration.port`.
    ///   - handler: called for every request that passes the limits (and is not a CORS preflight).
    ///   - errorRenderer: builds the response for errors the server produces itself (400, 413, 431, 503);
    ///     `nil` uses ``HTTPStatusError/defaultResponse``.
    ///   - log: called once per request, after the response went out, on a worker thread.
    ///   - diagnostics: receives libmicrohttpd's own error messages (which otherwise go nowhere).
    public init(
        configuration: Configuration,
        socket: BoundSocket? = nil,
        handler: @escaping HTTPHandler,
        errorRenderer: (@Sendable (HTTPStatusError) -> HTTPResponse)? = nil,
        log: (@Sendable (RequestLogEntry) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.boundSocket = socket
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

    /// Binds the socket (unless the server was given one), listens, and starts serving.
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be parsed or bound (its description
    ///   reads like `127.0.0.1:9099: address already in use`), when libmicrohttpd refuses to
    ///   start, or when the server (or another one on the same ``BoundSocket``) was already started.
    public func start() throws {
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(code: .alreadyStarted, address: address, reason: "server already started")
            }
            let socket: ListenSocket
            if let boundSocket {
                guard let taken = boundSocket.take() else {
                    throw HTTPServerError(code: .alreadyStarted, address: address, reason: "socket already used by another server")
                }
                socket = taken
            } else {
                socket = try ListenSocket.bind(host: configuration.host, port: configuration.port)
            }
            state = .running(try Daemon.start(context: context, socket: socket))
        }
    }

    /// `host:port` for error messages.
    private var address: String {
        boundSocket?.address ?? ListenSocket.format(host: configuration.host, port: configuration.port)
    }

    /// The bound port (useful with port 0); before ``start()``, the port of the ``BoundSocket`` or 0.
    public var port: UInt16 {
        lifecycle.withLock { state in
            switch state {
            case .idle: boundSocket?.port ?? 0
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

    /// Connections open right now.
    var openConnections: Int { context.tracker.count }

    /// Bytes of request bodies reserved in the body budget right now.
    var reservedBodyBytes: Int { context.bodyBudget.reservedBytes }
}
