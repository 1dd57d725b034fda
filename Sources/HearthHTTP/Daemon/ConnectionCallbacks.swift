internal import CMicroHTTPD

// The connection-level trampolines: libmicrohttpd reports each connection opened and closed, and
// the `TrackedConnection` for it lives in the connection's `socket_context` slot in between.

/// `MHD_OPTION_NOTIFY_CONNECTION`. On open, registers the connection and its socket with the
/// tracker; on close (which libmicrohttpd reports before closing the socket) removes it, and
/// releases a request state libmicrohttpd never completed.
func hearthConnectionNotify(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ event: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = ServerContext.from(cls)
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        guard let info = hearth_mhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD) else { return }
        let tracked = context.tracker.opened(descriptor: info.pointee.connect_fd, now: monotonicNanoseconds())
        socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let tracked = Unmanaged<TrackedConnection>.fromOpaque(raw).takeRetainedValue()
        context.tracker.closed(tracked)
        if let pending = tracked.replacePendingRequest(with: nil) {
            release(pending, context)
        }
    default:
        return
    }
}

/// The tracker's entry for `connection`, valid while libmicrohttpd is calling back about it.
func trackedConnection(of connection: OpaquePointer) -> TrackedConnection? {
    guard let info = hearth_mhd_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT),
          let raw = info.pointee.socket_context else { return nil }
    return Unmanaged<TrackedConnection>.fromOpaque(raw).takeUnretainedValue()
}
