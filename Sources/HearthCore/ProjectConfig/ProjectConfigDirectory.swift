import Synchronization

/// The enforced configuration settings (``ProjectSettings``) per scope, as client calls see them: read through
/// ``ProjectConfigService/settings(in:)`` (``IdentityPlatform/configSettings()``) and kept for at most ``cacheLifetimeMillis`` (5 s), so a change made
/// through another instance is enforced here within 5 s, and one made through this instance at once (the service's
/// `changed:` hook calls ``forget(_:)``). A read that fails is not cached: the call fails with it.
public final class ProjectConfigDirectory: Sendable {
    /// How long settings are used before the store is read again, in milliseconds.
    public static let cacheLifetimeMillis: Int64 = 5_000

    private struct Entry {
        var settings: ProjectSettings
        var readAtMillis: Int64
    }

    private let time: any TimeSource
    private let entries = Mutex<[StoreScope: Entry]>([:])

    public init(time: any TimeSource) {
        self.time = time
    }

    /// The settings of `scope`: the cached ones while fresh, else what `read` answers (then cached).
    public func settings(in scope: StoreScope, read: (StoreScope) throws -> ProjectSettings) throws -> ProjectSettings {
        let now = time.nowMillis
        if let cached = entries.withLock({ $0[scope] }), cached.readAtMillis <= now,
            now - cached.readAtMillis < Self.cacheLifetimeMillis
        {
            return cached.settings
        }
        let settings = try read(scope)
        entries.withLock { $0[scope] = Entry(settings: settings, readAtMillis: now) }
        return settings
    }

    /// Drops the cached settings of `scope` (after a change committed through this instance).
    public func forget(_ scope: StoreScope) {
        _ = entries.withLock { $0.removeValue(forKey: scope) }
    }
}
