public import Foundation
import Synchronization

/// Where Hearth reads the current time; tests inject a `ManualTimeSource`.
public protocol TimeSource: Sendable {
    var now: Date { get }
}

extension TimeSource {
    /// Whole seconds since 1970.
    public var nowSeconds: Int64 { Int64(now.timeIntervalSince1970.rounded(.down)) }
    /// Milliseconds since 1970.
    public var nowMillis: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// The system clock.
public struct SystemTimeSource: TimeSource {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that only moves when told to.
public final class ManualTimeSource: TimeSource {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
