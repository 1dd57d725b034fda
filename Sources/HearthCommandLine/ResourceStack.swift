/// What a program has opened so far, each with how to close it, closed last-opened first.
///
/// A bootstrap pushes every resource as it opens it (a store, a listener, a background thread). If a later step
/// fails, ``unwinding(_:)`` closes what the earlier steps opened before the error goes on; at shutdown,
/// ``closeAll()`` closes the same resources in the same order. Each resource is closed at most once, however often
/// either is called.
///
/// ```swift
/// let resources = ResourceStack()
/// let server = try resources.unwinding {
///     let store = resources.push(try openStore()) { $0.close() }
///     let http = try startServer(store)
///     resources.push { http.shutdown() }
///     return http
/// }
/// waitForSignal()
/// resources.closeAll()   // http, then store
/// ```
///
/// Not thread-safe: one thread opens and closes (the main thread of `hearth serve`).
public final class ResourceStack {
    private var closers: [() -> Void] = []

    /// An empty stack.
    public init() {}

    /// Pushes how to close something just opened.
    public func push(_ close: @escaping () -> Void) {
        closers.append(close)
    }

    /// Pushes `resource` with how to close it, and returns it.
    @discardableResult
    public func push<Resource>(_ resource: Resource, closing close: @escaping (Resource) -> Void) -> Resource {
        push { close(resource) }
        return resource
    }

    /// Runs `steps`; if they throw, closes everything on the stack (in reverse order) and rethrows the error.
    public func unwinding<Result>(_ steps: () throws -> Result) rethrows -> Result {
        do {
            return try steps()
        } catch {
            closeAll()
            throw error
        }
    }

    /// Closes everything on the stack, last pushed first, and empties it.
    public func closeAll() {
        while let close = closers.popLast() {
            close()
        }
    }
}
