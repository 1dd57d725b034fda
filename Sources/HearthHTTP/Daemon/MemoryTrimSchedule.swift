internal import CMicroHTTPD

/// Returns freed heap memory to the operating system after a burst, at most once per interval.
///
/// glibc keeps memory that request bodies and connection buffers used in its arenas after they are
/// freed (and, after a large block is freed, serves later large blocks from those arenas rather
/// than from fresh mappings), so without this a burst of uploads leaves the process as large as its
/// peak. `malloc_trim(0)` gives back every free page of every arena. Used only by the watchdog thread.
struct MemoryTrimSchedule {
    private let interval: UInt64
    private var lastTrim: UInt64?
    private var pending = false

    /// - Parameter interval: least nanoseconds between two trims; 0 never trims.
    init(interval: UInt64) {
        self.interval = interval
    }

    /// A burst is over: trim as soon as the interval allows.
    mutating func burstEnded() {
        pending = interval > 0
    }

    /// Trims if a burst ended and the last trim is at least the interval ago. Returns whether it trimmed.
    @discardableResult
    mutating func trimIfDue(now: UInt64) -> Bool {
        guard pending else { return false }
        if let lastTrim, now < lastTrim + interval { return false }
        _ = malloc_trim(0)
        lastTrim = now
        pending = false
        return true
    }
}
