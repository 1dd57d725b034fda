internal import CMicroHTTPD
import Glibc
import Synchronization

/// Owns one running `MHD_Daemon` and its listen socket (lesson 3: the handle lives in a final class
/// that frees it in `deinit`).
///
/// `@unchecked Sendable`: the pointer and descriptor never change after `start`; `stop` and
/// `stopAccepting` are made idempotent and thread-safe by the atomic flags.
final class Daemon: @unchecked Sendable {
    private let pointer: OpaquePointer
    let listenDescriptor: Int32
    let port: UInt16
    private let retainedContext: Unmanaged<ServerContext>
    private let watchdog: Watchdog
    private let quiesced = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// Whether `MHD_quiesce_daemon` handed the listen socket back to us, so we must close it.
    private let ownsListenDescriptor = Atomic<Bool>(false)

    private init(
        pointer: OpaquePointer, listenDescriptor: Int32, port: UInt16, retainedContext: Unmanaged<ServerContext>,
        watchdog: Watchdog
    ) {
        self.pointer = pointer
        self.listenDescriptor = listenDescriptor
        self.port = port
        self.retainedContext = retainedContext
        self.watchdog = watchdog
    }

    deinit {
        stop()
    }

    /// How many bytes past `maxBodyBytes` a chunked upload may still send (read and discarded) so the
    /// client can be told 413; beyond that the connection is dropped.
    static func overflowDrainAllowance(_ configuration: HTTPServer.Configuration) -> Int {
        max(configuration.maxBodyBytes, 64 * 1024)
    }

    /// Starts listening on the bound `socket` and starts libmicrohttpd on it. The daemon owns the
    /// socket from then on; if starting fails, the socket is closed.
    static func start(context: ServerContext, socket: ListenSocket) throws(HTTPServerError) -> Daemon {
        let configuration = context.configuration
        do {
            try socket.listen()
        } catch {
            close(socket.descriptor)
            throw error
        }
        let retained = Unmanaged.passRetained(context)
        let cls = retained.toOpaque()

        let logger: MHD_LogCallback = hearthDiagnostic
        let completed: MHD_RequestCompletedCallback = hearthRequestCompleted
        let connectionNotify: MHD_NotifyConnectionCallback = hearthConnectionNotify
        let uriLog: hearth_mhd_uri_log_callback = hearthURILog
        let unescape: hearth_mhd_unescape_callback = hearthNoUnescape

        // Options taking a function pointer and a closure pass the function as the integer value
        // (MHD_OPTION_ARRAY's documented convention) and the closure as the pointer.
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(logger, to: Int.self), ptr_value: cls),
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: max(1, configuration.maxConnections), ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: max(0, configuration.maxConnectionsPerAddress),
                           ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: max(0, configuration.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: max(4096, configuration.headerMemoryLimit), ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: cls),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotify, to: Int.self), ptr_value: cls),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(uriLog, to: Int.self), ptr_value: cls),
            MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(unescape, to: Int.self), ptr_value: cls),
        ]
        if configuration.threadCount > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        // poll(2), not epoll: in libmicrohttpd (0.9.75 and still open upstream) `MHD_quiesce_daemon` on an epoll
        // daemon with worker threads races a worker removing the listen socket from its epoll set, and the loser
        // aborts the process ("Failed to remove listen FD from epoll set"), at every graceful shutdown while
        // requests are in flight. With poll, quiescing only signals the workers over their ITC pipes.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if socket.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let started = options.withUnsafeMutableBufferPointer { buffer in
            hearth_mhd_start_daemon(UInt32(flags), hearthAccess, cls, buffer.baseAddress!)
        }
        guard let started else {
            retained.release()
            close(socket.descriptor)
            let detail = context.lastDiagnostic.withLock { $0 } ?? "unknown error"
            throw HTTPServerError(code: .daemonStartFailed, address: socket.shownAddress,
                                  reason: "libmicrohttpd could not start: " + lowercasedFirst(detail))
        }
        let watchdog = Watchdog(tracker: context.tracker, budget: context.bodyBudget, configuration: configuration)
        watchdog.start()
        return Daemon(pointer: started, listenDescriptor: socket.descriptor, port: socket.port, retainedContext: retained,
                      watchdog: watchdog)
    }

    /// Stops accepting connections: the daemon stops polling the listen socket
    /// (`MHD_quiesce_daemon`), and the socket leaves the listening state (`shutdown(2)` on a
    /// listening TCP socket), so new connection attempts are refused at once rather than queued.
    /// Connections already accepted carry on.
    func stopAccepting() {
        guard !quiesced.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let returned = MHD_quiesce_daemon(pointer)
        // The descriptor must stay open until MHD_stop_daemon returns (other threads may still use it).
        ownsListenDescriptor.store(returned != -1, ordering: .releasing)
        _ = Glibc.shutdown(listenDescriptor, Int32(SHUT_RDWR))
    }

    /// Stops the daemon: closes every connection, joins the worker threads (waiting for handlers
    /// that are still running), then releases the context. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopAccepting()
        watchdog.stop()
        MHD_stop_daemon(pointer)
        if ownsListenDescriptor.load(ordering: .acquiring) {
            close(listenDescriptor)
        }
        retainedContext.release()
    }
}
