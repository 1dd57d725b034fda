import Glibc
import Synchronization

/// Everything the libmicrohttpd callbacks need, reached through their `void *cls` argument.
///
/// `Daemon` keeps one retained reference for as long as the daemon runs (`Unmanaged.passRetained`
/// at start, released after `MHD_stop_daemon` returns, when no callback can run any more), so
/// callbacks use it unretained.
final class ServerContext: Sendable {
    let configuration: HTTPServer.Configuration
    let handler: HTTPHandler
    let errorRenderer: @Sendable (HTTPStatusError) -> HTTPResponse
    let log: (@Sendable (RequestLogEntry) -> Void)?
    let diagnostics: (@Sendable (String) -> Void)?

    /// Requests whose handler has been called (or whose error response has been queued) and whose
    /// response has not been fully sent yet. Idle keep-alive connections and bodies still uploading
    /// are not counted. Shutdown waits for this to reach zero.
    let inFlight = Atomic<Int>(0)
    /// Live `RequestState` objects; lets tests prove per-request state is always released.
    let liveRequestStates = Atomic<Int>(0)
    /// Set once shutdown begins: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// The most recent libmicrohttpd diagnostic, used to explain a failed start.
    let lastDiagnostic = Mutex<String?>(nil)
    /// Every open connection, for the request deadline and idle eviction.
    let tracker: ConnectionTracker
    /// Memory for request bodies, shared by all connections.
    let bodyBudget: BodyBudget

    init(
        configuration: HTTPServer.Configuration,
        handler: @escaping HTTPHandler,
        errorRenderer: @escaping @Sendable (HTTPStatusError) -> HTTPResponse,
        log: (@Sendable (RequestLogEntry) -> Void)?,
        diagnostics: (@Sendable (String) -> Void)?
    ) {
        self.configuration = configuration
        self.handler = handler
        self.errorRenderer = errorRenderer
        self.log = log
        self.diagnostics = diagnostics
        self.tracker = ConnectionTracker(configuration: configuration)
        self.bodyBudget = BodyBudget(limit: configuration.bodyBudgetBytes, smallBodyBytes: configuration.smallBodyBytes)
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> ServerContext {
        Unmanaged<ServerContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// Per-request state, stored in libmicrohttpd's `con_cls` slot.
///
/// Created by the URI-log callback (the first callback of every request, which also makes
/// libmicrohttpd promise a `NOTIFY_COMPLETED` call for it), retained into `con_cls`, and released
/// by the completion callback, whatever way the request ended (done, error, timeout, client gone,
/// daemon shutdown). libmicrohttpd 0.9.75 breaks that promise when the query does not fit in its
/// memory pool; its `TrackedConnection` releases such a state when the connection closes. Only the worker
/// thread that owns the connection touches it, so it needs no lock.
final class RequestState {
    let startNanoseconds: UInt64
    /// The request target as sent (`/path?query`), before any decoding.
    let target: String
    /// The target's length in bytes as sent (`target` repairs bytes that are not UTF-8).
    let targetLength: Int
    let remoteAddress: String?
    /// The connection the request arrived on, as the watchdog tracks it.
    let connection: TrackedConnection?

    var method: HTTPMethod?
    var sawHeaders = false
    var countedInFlight = false
    var body = BodyBuffer()
    var bodyBytesReceived = 0
    /// Why the body is being discarded (too large, or no room in the body budget); answered once it ends.
    var bodyRejection: HTTPStatusError?
    /// Status of the response we queued; 0 if none.
    var status = 0
    var responseBytes = 0

    /// `target`: the request target libmicrohttpd read (nil for none: `/`).
    init(target: UnsafePointer<CChar>?, remoteAddress: String?, connection: TrackedConnection?) {
        self.startNanoseconds = monotonicNanoseconds()
        self.target = target.map { String(cString: $0) } ?? "/"
        targetLength = target.map { strlen($0) } ?? 1
        self.remoteAddress = remoteAddress
        self.connection = connection
    }

    /// The raw path part of the target (before `?`).
    var rawPath: Substring {
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return target[..<mark]
        }
        return target[...]
    }

    /// The raw query part of the target (after `?`), or empty.
    var rawQuery: Substring {
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return target[target.utf8.index(after: mark)...]
        }
        return ""
    }
}

// Request state is confined to the worker thread that owns its connection; it crosses into C only
// as an opaque pointer and must never be shared between threads in Swift.
@available(*, unavailable)
extension RequestState: Sendable {}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}
