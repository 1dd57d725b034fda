/// A store that reports how long each of its transactions took, and whether it succeeded, to
/// ``MetricsRecording/storeTransaction(_:seconds:succeeded:)``; everything else goes to `base` unchanged.
public struct MeasuredStore: HearthStore {
    /// The store doing the work.
    public let base: any HearthStore
    private let metrics: any MetricsRecording

    public var scope: StoreScope { base.scope }

    /// The base's view in `scope`, measured too.
    public func scoped(to scope: StoreScope) -> any HearthStore {
        MeasuredStore(base.scoped(to: scope), metrics: metrics)
    }

    public init(_ base: any HearthStore, metrics: any MetricsRecording) {
        self.base = base
        self.metrics = metrics
    }

    public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try measured(.read) { try base.read(body) }
    }

    public func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        try measured(.write) { try base.write(isolation, body) }
    }

    public func close() {
        base.close()
    }

    private func measured<T>(_ kind: StoreTransactionKind, _ transaction: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let value = try transaction()
            metrics.storeTransaction(kind, seconds: (clock.now - start).totalSeconds, succeeded: true)
            return value
        } catch {
            metrics.storeTransaction(kind, seconds: (clock.now - start).totalSeconds, succeeded: false)
            throw error
        }
    }
}
