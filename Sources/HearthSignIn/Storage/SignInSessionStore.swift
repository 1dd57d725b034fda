public import Foundation

/// Where the signed-in session (tokens, scopes, profile) is kept between runs: the keychain item's counterpart.
///
/// The data is opaque JSON written by the library. Implementations must replace it atomically.
public protocol SignInSessionStore: Sendable {
    /// The stored session, or nil when there is none.
    func load() throws -> Data?
    /// Replaces the stored session.
    func save(_ data: Data) throws
    /// Deletes the stored session; succeeds when there is none.
    func remove() throws
}

/// A ``SignInSessionStore`` in memory, for tests and for apps that must not persist tokens.
public final class InMemorySignInSessionStore: SignInSessionStore {
    private let data: Locked<Data?>

    public init(data: Data? = nil) {
        self.data = Locked(data)
    }

    public func load() throws -> Data? { data.current }

    public func save(_ data: Data) throws { self.data.withLock { $0 = data } }

    public func remove() throws { data.withLock { $0 = nil } }
}
