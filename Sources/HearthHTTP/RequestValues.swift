/// Names one kind of value a middleware hands to what runs after it for one request (see ``RequestValues``).
public protocol RequestValueKey {
    associatedtype Value: Sendable
}

/// Values attached to one request by the middleware that worked them out (an authenticated caller, say), for the
/// middleware and responder after it: typed, keyed by a ``RequestValueKey`` type, never sent or read from the wire.
///
/// ```swift
/// enum CallerKey: RequestValueKey { typealias Value = String }
/// var request = request
/// request.values[CallerKey.self] = "owner"   // in a middleware
/// request.values[CallerKey.self]             // "owner", in the responder
/// ```
public struct RequestValues: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    public subscript<Key: RequestValueKey>(key: Key.Type) -> Key.Value? {
        get { storage[ObjectIdentifier(key)] as? Key.Value }
        set { storage[ObjectIdentifier(key)] = newValue }
    }
}
