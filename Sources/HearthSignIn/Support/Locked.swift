import Foundation

/// A value behind an `NSLock`.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18; this target also builds for older Apple
/// deployment targets with Foundation only.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value {
        withLock { $0 }
    }
}
