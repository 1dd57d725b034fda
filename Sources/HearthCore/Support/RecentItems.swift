import Synchronization

/// The latest `capacity` items added, oldest first, shared between threads (what the development senders keep
/// for the emulator's listings).
public final class RecentItems<Element: Sendable>: Sendable {
    private let capacity: Int
    private let items = Mutex<[Element]>([])

    public init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Adds `item`, dropping the oldest beyond the capacity.
    public func append(_ item: Element) {
        items.withLock { items in
            items.append(item)
            if items.count > capacity { items.removeFirst(items.count - capacity) }
        }
    }

    /// The items, oldest first.
    public var all: [Element] { items.withLock { $0 } }

    public func removeAll(where shouldRemove: (Element) -> Bool) {
        items.withLock { $0.removeAll(where: shouldRemove) }
    }
}
