import Dispatch
import Synchronization

/// A fixed-size pool shared by threads; the calling thread waits for a free connection.
///
/// At most `size` connections are open. The first is opened by `init`, so a bad URL or an unreachable server
/// fails there; the others are opened when a caller finds no idle one. A connection that comes back from
/// ``withConnection(_:)`` with a transaction still open is rolled back; one that is then not healthy (the server
/// restarted, the network broke, the session was terminated) is closed, and a new one is opened the next time one
/// is needed, so the pool recovers from a server restart by itself. An idle connection whose session the server
/// ended meanwhile is noticed when it is taken out (without a round trip) and replaced before `body` sees it.
///
/// ```swift
/// let pool = try PostgresConnectionPool(url: url, size: 10)
/// let count = try pool.withConnection { try $0.query("SELECT count(*) FROM notes")[0].requiredInt64(0) }
/// pool.close()
/// ```
public final class PostgresConnectionPool: Sendable {
    private let url: String
    private let size: Int
    private let permits: DispatchSemaphore
    private let idle: Mutex<[ConnectionBox]>
    private let closedFlag = Atomic<Bool>(false)
    private let busy = Atomic<Int>(0)
    private let queued = Atomic<Int>(0)
    /// Every exchange of the pool's connections with the server.
    public let roundTrips: PostgresRoundTripCounter

    /// Opens one connection at once (so a bad URL or an unreachable server fails here), the others lazily.
    ///
    /// - Throws: `PostgresError` (as ``PostgresConnection/init(url:)``, or for a `size` below 1).
    public init(url: String, size: Int) throws {
        guard size >= 1 else { throw PostgresError(message: "a connection pool needs a size of at least 1") }
        self.url = url
        self.size = size
        self.permits = DispatchSemaphore(value: size)
        let roundTrips = PostgresRoundTripCounter()
        self.roundTrips = roundTrips
        self.idle = Mutex([ConnectionBox(try PostgresConnection(url: url, roundTrips: roundTrips))])
    }

    /// Runs `body` with a connection of its own. A connection that is no longer healthy after `body` (the server
    /// restarted, the network broke) is closed and replaced by a new one the next time one is needed, so the pool
    /// recovers after a server restart without a restart of Hearth. Throws `PostgresPoolClosedError` after `close()`.
    ///
    /// - Throws: `PostgresPoolClosedError`, `PostgresError` if a new connection cannot be opened, or what `body`
    ///   throws.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        queued.add(1, ordering: .relaxed)
        permits.wait()
        queued.subtract(1, ordering: .relaxed)
        busy.add(1, ordering: .relaxed)
        defer {
            busy.subtract(1, ordering: .relaxed)
            permits.signal()
        }
        guard !closedFlag.load(ordering: .acquiring) else { throw PostgresPoolClosedError() }
        let box = try checkOut()
        defer { giveBack(box) }
        return try body(box.connection)
    }

    /// How the pool is used right now, for metrics: connections lent out, callers waiting for one, and the size.
    public var usage: (inUse: Int, waiting: Int, size: Int) {
        (busy.load(ordering: .relaxed), queued.load(ordering: .relaxed), size)
    }

    /// Waits for the calls in progress and closes every connection. Later calls throw `PostgresPoolClosedError`;
    /// closing again does nothing. Must not be called from inside ``withConnection(_:)`` (it would wait for itself).
    public func close() {
        guard closedFlag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        for _ in 0..<size { permits.wait() }
        let boxes = idle.withLock { boxes in
            defer { boxes = [] }
            return boxes
        }
        for box in boxes { box.connection.close() }
        // Wake anyone still waiting; they see the pool closed and give the permit back.
        for _ in 0..<size { permits.signal() }
    }

    /// An idle connection the server has not closed, or a new one.
    private func checkOut() throws -> ConnectionBox {
        while let box = idle.withLock({ $0.popLast() }) {
            box.connection.readInputSentWhileIdle()
            if box.connection.isHealthy { return box }
            box.connection.close()
        }
        return ConnectionBox(try PostgresConnection(url: url, roundTrips: roundTrips))
    }

    /// Puts a healthy connection back; closes one that is not.
    private func giveBack(_ box: ConnectionBox) {
        let connection = box.connection
        if connection.isInTransaction {
            try? connection.rollback()
        }
        guard connection.isHealthy, !connection.isInTransaction else {
            connection.close()
            return
        }
        idle.withLock { $0.append(box) }
    }
}

/// Thrown by ``PostgresConnectionPool/withConnection(_:)`` after the pool was closed.
public struct PostgresPoolClosedError: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the PostgreSQL connection pool is closed" }
}

/// Holds a connection while it sits in the pool.
///
/// `@unchecked Sendable` because the pool moves connections between threads: a box is only touched by the one
/// thread that took it out of `idle` (under its lock) while holding a permit, so its connection is never used by
/// two threads at once.
private final class ConnectionBox: @unchecked Sendable {
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}
