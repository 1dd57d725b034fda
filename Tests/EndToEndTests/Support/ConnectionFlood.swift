import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An attacker holding many connections to a local server, driven by one background thread.
///
/// Every connection comes from a loopback source address other than 127.0.0.1 (`127.0.0.2`, …), so
/// the server sees the attacker as other clients than the legitimate requests a test sends from
/// 127.0.0.1. Each connection sends `opening` once connected, then `trickle` every
/// `trickleSeconds` for as long as the server keeps it open; with `reconnect`, a connection the
/// server closes is opened again a second later, as attack tools do. The flood only counts what
/// happens; tests assert on what legitimate clients get.
final class ConnectionFlood: @unchecked Sendable {
    // @unchecked: `slots` and `thread` belong to the flood's own thread between start() and stop().
    struct Plan {
        var connections: Int
        /// Source addresses, used in turn.
        var sources: [String]
        var opening: [UInt8] = []
        var trickle: [UInt8]?
        var trickleSeconds = 1.0
        var reconnect = false
    }

    struct Counts: Sendable {
        /// Connections established (the kernel completed the handshake).
        var opened = 0
        /// Connections the server closed.
        var closedByServer = 0
        /// Responses received, by status code.
        var statuses: [Int: Int] = [:]
        /// Connections open at the last look.
        var open = 0
        /// Connections still writing their opening at the last look.
        var writing = 0
    }

    private final class Slot {
        let source: String
        var descriptor: Int32 = -1
        var sent = 0
        var answered = false
        var everOpened = false
        var nextAction = 0.0

        init(source: String) { self.source = source }
    }

    private let port: UInt16
    private let plan: Plan
    private let slots: [Slot]
    private let counts = Locked(Counts())
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    init(port: UInt16, plan: Plan) {
        self.port = port
        self.plan = plan
        self.slots = (0..<plan.connections).map { Slot(source: plan.sources[$0 % plan.sources.count]) }
    }

    var current: Counts { counts.value }

    func start() {
        let thread = Thread { [self] in
            while !stopped.value {
                if !step() { usleep(50_000) }
            }
            for slot in slots where slot.descriptor >= 0 {
                close(slot.descriptor)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops the flood, closes its connections and returns the final counts. Later calls just return them.
    @discardableResult
    func stop() -> Counts {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first {
            finished.wait()
        }
        return counts.value
    }

    /// Waits (boundedly) until `condition` holds for the counts.
    func wait(until condition: (Counts) -> Bool) -> Bool {
        for _ in 0..<600 where !condition(current) {
            usleep(100_000)
        }
        return condition(current)
    }

    /// One pass over every connection. Returns true when some opening is still being written.
    private func step() -> Bool {
        let now = Date().timeIntervalSinceReferenceDate
        var writing = false
        for slot in slots {
            if slot.descriptor < 0 {
                if (!slot.everOpened || plan.reconnect) && now >= slot.nextAction {
                    open(slot, now: now)
                }
                continue
            }
            guard readAnswer(slot) else {
                closeByServer(slot, now: now)
                continue
            }
            if slot.sent < plan.opening.count {
                guard writeOpening(slot) else {
                    closeByServer(slot, now: now)
                    continue
                }
                writing = writing || slot.sent < plan.opening.count
            } else if let trickle = plan.trickle, now >= slot.nextAction {
                slot.nextAction = now + plan.trickleSeconds
                // A few bytes: the socket takes them at once or the server is gone.
                let written = trickle.withUnsafeBytes {
                    send(slot.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK { closeByServer(slot, now: now) }
            }
        }
        let open = slots.filter { $0.descriptor >= 0 }
        let stillWriting = open.filter { $0.sent < plan.opening.count }.count
        counts.withLock { counts in
            counts.open = open.count
            counts.writing = stillWriting
        }
        return writing
    }

    private func open(_ slot: Slot, now: Double) {
        slot.nextAction = now + 1
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        var source = sockaddr_in()
        source.sin_family = sa_family_t(AF_INET)
        source.sin_addr.s_addr = inet_addr(slot.source)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A full listen queue makes connect wait; give up after a second and try again later.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &source) { sourcePointer in
            withUnsafePointer(to: &target) { targetPointer in
                sourcePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { from in
                    targetPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { to in
                        bind(descriptor, from, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                            && connect(descriptor, to, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
            }
        }
        guard connected else {
            close(descriptor)
            return
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        slot.descriptor = descriptor
        slot.sent = 0
        slot.answered = false
        slot.everOpened = true
        slot.nextAction = now + plan.trickleSeconds
        counts.withLock { $0.opened += 1 }
    }

    /// Reads whatever the server sent; false once it has closed the connection.
    private func readAnswer(_ slot: Slot) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(slot.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return false }
            if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            if !slot.answered, count >= 12, let status = Int(String(decoding: buffer[9..<12], as: UTF8.self)) {
                slot.answered = true
                counts.withLock { $0.statuses[status, default: 0] += 1 }
            }
        }
    }

    /// Writes as much of the rest of the opening as the socket takes; false if the server closed it.
    private func writeOpening(_ slot: Slot) -> Bool {
        let bytes = plan.opening
        while slot.sent < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(slot.descriptor, raw.baseAddress! + slot.sent, raw.count - slot.sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written > 0 {
                slot.sent += written
            } else {
                return written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            }
        }
        return true
    }

    private func closeByServer(_ slot: Slot, now: Double) {
        _ = readAnswer(slot)  // a response may have arrived just before the close
        close(slot.descriptor)
        slot.descriptor = -1
        slot.nextAction = now + 1
        counts.withLock { $0.closedByServer += 1 }
    }
}
