import Glibc
import Synchronization

/// Every open connection of a daemon, for the ``Watchdog``.
///
/// libmicrohttpd reports connections opened and closed (`MHD_OPTION_NOTIFY_CONNECTION`), and it
/// reports the close before it closes the socket. Removing a connection and closing connections from
/// the watchdog take the same lock, so the watchdog only ever shuts down a descriptor that still
/// belongs to the connection it means, never one the kernel has since handed to a new socket.
final class ConnectionTracker: Sendable {
    private let connections = Mutex<[ObjectIdentifier: TrackedConnection]>([:])
    private let configuration: HTTPServer.Configuration

    /// Connections the watchdog closed because their request was not complete in time.
    let requestTimeouts = Atomic<Int>(0)
    /// Idle connections the watchdog closed to make room while the server was busy.
    let idleEvictions = Atomic<Int>(0)

    init(configuration: HTTPServer.Configuration) {
        self.configuration = configuration
    }

    var requestTimeout: UInt64 { UInt64(max(0, configuration.requestTimeout)) * 1_000_000_000 }
    private var busyIdleTimeout: UInt64 { UInt64(max(0, configuration.busyIdleTimeout)) * 1_000_000_000 }

    /// Open connections right now.
    var count: Int { connections.withLock { $0.count } }

    func opened(descriptor: Int32, now: UInt64) -> TrackedConnection {
        let connection = TrackedConnection(descriptor: descriptor, now: now, requestTimeout: requestTimeout)
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        return connection
    }

    func closed(_ connection: TrackedConnection) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Closes the connections whose request is overdue and, when at least
    /// ``HTTPServer/Configuration/busyThreshold`` are open, those idle for longer than
    /// ``HTTPServer/Configuration/busyIdleTimeout``. Returns how many connections were open.
    ///
    /// Closing is `shutdown(2)`: libmicrohttpd's worker then sees the connection end and cleans it up
    /// (and reports it closed) on its own thread.
    @discardableResult
    func sweep(now: UInt64) -> Int {
        connections.withLock { connections in
            let busy = busyIdleTimeout > 0 && connections.count >= configuration.busyThreshold
            for connection in connections.values {
                let verdict = connection.verdict(
                    now: now, busyIdleTimeout: busy ? busyIdleTimeout : nil, requestTimeout: requestTimeout,
                    lastDataAge: connection.lastDataAge)
                switch verdict {
                case .keep:
                    continue
                case .requestTimedOut:
                    requestTimeouts.add(1, ordering: .relaxed)
                case .evictedIdle:
                    idleEvictions.add(1, ordering: .relaxed)
                }
                _ = Glibc.shutdown(connection.descriptor, Int32(SHUT_RDWR))
            }
            return connections.count
        }
    }
}
