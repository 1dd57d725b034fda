import Synchronization

/// Access tokens already verified, by the SHA-256 of the token (never the token itself), each until its expiry:
/// a repeated access-token sign-in makes no outbound call. Bounded: when full, the oldest entry is forgotten.
final class AccessTokenCache: Sendable {
    private struct Entry {
        var profile: FederatedProfile
        var expiresAt: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys in insertion order from `head` on; each key in `entries` appears exactly once.
        var order: [String] = []
        var head = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The key for `accessToken`: its SHA-256, hex.
    static func key(_ accessToken: String) -> String { Identifiers.hash(accessToken) }

    /// The profile verified for this key, unless it has expired by `now`.
    func profile(forKey key: String, now: Int64) -> FederatedProfile? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.expiresAt > now else { return nil }
            return entry.profile
        }
    }

    /// Remembers a verified profile until `expiresAt` (seconds since 1970).
    func remember(_ profile: FederatedProfile, forKey key: String, expiresAt: Int64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key] = Entry(profile: profile, expiresAt: expiresAt)
                return
            }
            while state.entries.count >= capacity {
                state.entries[state.order[state.head]] = nil
                state.head += 1
            }
            if state.head >= capacity {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.entries[key] = Entry(profile: profile, expiresAt: expiresAt)
            state.order.append(key)
        }
    }

    /// Entries held (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
