import Glibc
import Synchronization

/// One open connection as the ``Watchdog`` sees it: its socket, and whether it is idle or in the
/// middle of receiving a request, and until when.
///
/// The worker thread that owns the connection reports each step; the watchdog reads the timing and
/// decides. Both sides go through the same small lock, so a decision never mixes two requests.
final class TrackedConnection: Sendable {
    /// The connection's socket. Valid for as long as the connection is in the ``ConnectionTracker``:
    /// libmicrohttpd reports a connection closed before it closes the descriptor.
    let descriptor: Int32
    private let timing: Mutex<Timing>
    /// The address of the request state (`con_cls`) not yet completed, as a bit pattern: touched only by
    /// the worker thread that owns the connection, but kept behind a lock so the type stays `Sendable`.
    private let pendingRequest = Mutex<UInt>(0)

    private struct Timing {
        /// When the connection last had no request in progress (opened, or previous response sent);
        /// nil while a request is being received or answered.
        var idleSince: UInt64?
        /// When the request being received must be complete; nil when none is being received or
        /// there is no request timeout.
        var deadline: UInt64?
        /// Set once the watchdog has closed the socket; libmicrohttpd has yet to notice.
        var closing = false
    }

    /// What the watchdog should do with a connection.
    enum Verdict: Equatable {
        case keep
        /// The request was not complete by its deadline.
        case requestTimedOut
        /// The server is busy and the connection has been idle too long.
        case evictedIdle
    }

    /// A connection just accepted: its first request is due `requestTimeout` after now.
    init(descriptor: Int32, now: UInt64, requestTimeout: UInt64) {
        self.descriptor = descriptor
        self.timing = Mutex(Timing(idleSince: now, deadline: requestTimeout > 0 ? now + requestTimeout : nil))
    }

    /// Records `raw` as the request state in progress; returns the one recorded before, which
    /// libmicrohttpd never completed (nil when there is none).
    func replacePendingRequest(with raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        let previous = pendingRequest.withLock { pending in
            defer { pending = raw.map { UInt(bitPattern: $0) } ?? 0 }
            return pending
        }
        return UnsafeMutableRawPointer(bitPattern: previous)
    }

    /// Forgets `raw` as the request state in progress, when it is the one recorded.
    func clearPendingRequest(_ raw: UnsafeMutableRawPointer) {
        pendingRequest.withLock { pending in
            if pending == UInt(bitPattern: raw) { pending = 0 }
        }
    }

    /// The request line has arrived. A later request on a keep-alive connection is due
    /// `requestTimeout` after its first byte (when the watchdog saw that) or after now.
    func requestStarted(now: UInt64, requestTimeout: UInt64) {
        timing.withLock { timing in
            timing.idleSince = nil
            if timing.deadline == nil && requestTimeout > 0 {
                timing.deadline = now + requestTimeout
            }
        }
    }

    /// The request has been received in full (or answered early): no deadline while it is handled
    /// and answered.
    func requestReceived() {
        timing.withLock { $0.deadline = nil }
    }

    /// The response has been sent; the connection waits for its next request.
    func requestEnded(now: UInt64) {
        timing.withLock { timing in
            timing.idleSince = now
            timing.deadline = nil
        }
    }

    /// The watchdog's look at the connection at `now`.
    ///
    /// - Parameters:
    ///   - busyIdleTimeout: when non-nil, the server is busy and idle connections older than this go.
    ///   - requestTimeout: the request deadline, or 0.
    ///   - lastDataAge: how long ago the socket last received data (asked only for an idle
    ///     keep-alive connection without a deadline yet): data newer than the idle period means the
    ///     next request has started arriving, and its deadline starts then.
    func verdict(
        now: UInt64, busyIdleTimeout: UInt64?, requestTimeout: UInt64, lastDataAge: () -> UInt64?
    ) -> Verdict {
        timing.withLock { timing in
            guard !timing.closing else { return .keep }
            let verdict = Self.judge(&timing, now: now, busyIdleTimeout: busyIdleTimeout, requestTimeout: requestTimeout,
                                     lastDataAge: lastDataAge)
            timing.closing = verdict != .keep
            return verdict
        }
    }

    private static func judge(
        _ timing: inout Timing, now: UInt64, busyIdleTimeout: UInt64?, requestTimeout: UInt64, lastDataAge: () -> UInt64?
    ) -> Verdict {
        if let deadline = timing.deadline, now >= deadline {
            return .requestTimedOut
        }
        guard let idleSince = timing.idleSince else { return .keep }
        // A worker may have stamped idleSince just after the watchdog read the clock.
        if let busyIdleTimeout, now > idleSince, now - idleSince >= busyIdleTimeout {
            return .evictedIdle
        }
        if timing.deadline == nil, requestTimeout > 0, let age = lastDataAge(), age <= now {
            let arrival = now - age
            // The previous request's last bytes arrived just before idleSince; the kernel's clock is
            // coarser than ours, so only data clearly after it counts as the next request's start.
            if arrival > idleSince + clockSlack {
                timing.deadline = arrival + requestTimeout
                if now >= arrival + requestTimeout { return .requestTimedOut }
            }
        }
        return .keep
    }

    /// Margin between the kernel's receive timestamps (jiffies) and `CLOCK_MONOTONIC`.
    static let clockSlack: UInt64 = 20_000_000

    /// How long ago the socket last received data (`TCP_INFO`'s `tcpi_last_data_recv`), in nanoseconds.
    /// Only call while the descriptor is known to be open (under the tracker's lock).
    func lastDataAge() -> UInt64? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return UInt64(info.tcpi_last_data_recv) * 1_000_000
    }
}
