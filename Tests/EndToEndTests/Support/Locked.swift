import Synchronization

/// A value behind a lock that closures can share (a `Mutex` itself cannot be captured by copy).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }

    var value: Value { mutex.withLock { $0 } }
}
