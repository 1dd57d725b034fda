import Synchronization

/// Makes the registry entry of an enabled `oidc.*` configuration made through the admin API (the `hearth` executable
/// builds it on a `RemoteOpenIDIssuer` found by discovery, as for the file's providers); `nil` when it cannot be used.
public typealias OpenIDProviderMaking = @Sendable (ProviderConfigRecord) -> IdentityProvider?

/// The `oidc.*` providers made through the admin API, as `signInWithIdp` sees them: read from the store per scope and
/// id, and kept for at most ``cacheLifetimeMillis`` (5 s), so a change made through another instance is seen within
/// 5 s (through this instance, at once: the service drops the scope's entries when it commits a change). Disabled,
/// deleted and unknown configurations are cached as absent too.
///
/// Each scope has its own entries: `signInWithIdp` asks ``provider(_:in:)`` for the scope of the call (the project, or the
/// tenant the call names).
public final class ProviderConfigDirectory: Sendable {
    /// How long an entry (present or absent) is used before the store is read again, in milliseconds.
    public static let cacheLifetimeMillis: Int64 = 5_000

    private struct Key: Hashable {
        var scope: StoreScope
        var id: String
    }

    private struct Entry {
        var provider: IdentityProvider?
        var readAtMillis: Int64
        /// The record it was made of, so an unchanged record keeps its provider (and its cached keys).
        var record: ProviderConfigRecord?
    }

    private let store: any HearthStore
    private let time: any TimeSource
    private let make: OpenIDProviderMaking
    private let entries = Mutex<[Key: Entry]>([:])

    public init(store: any HearthStore, time: any TimeSource, make: @escaping OpenIDProviderMaking) {
        self.store = store.scoped(to: .project)
        self.time = time
        self.make = make
    }

    /// The enabled API-made provider `id` of `scope` (an `oidc.*` id), if there is one.
    public func provider(_ id: String, in scope: StoreScope) throws -> IdentityProvider? {
        guard id.hasPrefix("oidc.") else { return nil }
        let key = Key(scope: scope, id: id)
        let now = time.nowMillis
        let cached = entries.withLock { $0[key] }
        if let cached, now - cached.readAtMillis < Self.cacheLifetimeMillis { return cached.provider }
        let record = try store.scoped(to: scope).read { try $0.providerConfig(kind: .oauth, id: id) }
        let usable = record.flatMap { $0.enabled ? $0 : nil }
        let provider: IdentityProvider? =
            if let usable {
                cached?.record == usable ? cached?.provider : make(usable)
            } else {
                nil
            }
        entries.withLock { $0[key] = Entry(provider: provider, readAtMillis: now, record: usable) }
        return provider
    }

    /// Drops the cached entries of `scope` (after a change committed through this instance).
    public func forget(_ scope: StoreScope) {
        entries.withLock { $0 = $0.filter { $0.key.scope != scope } }
    }
}
