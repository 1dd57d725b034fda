import Synchronization

/// Token buckets kept in memory by one server instance: they shed floods (sign-ins, second-factor
/// calls, failing refreshes, account creation) before those cost a signature check or a store write.
///
/// Each ``Bucket`` holds `capacity` tokens per key (a client address or an account id) and refills at
/// `refillPerSecond`; a request takes one token and is refused with `TOO_MANY_ATTEMPTS_TRY_LATER`
/// when there is none. Limits that must hold across instances and restarts (wrong codes, SMS) are
/// ``LimitCounter``s in the store instead.
///
/// Memory is bounded: at most `maximumKeys` keys are kept; when a shard is full, keys whose bucket
/// has refilled (which carry no information) are dropped first, then the least recently used.
public final class RateLimiter: Sendable {
    /// What is limited, and for whom.
    public enum Bucket: String, Sendable, CaseIterable {
        case signInPerClient
        case signInPerAccount
        case refreshFailuresPerClient
        case mfaPerClient
        case mfaPerAccount
        case accountCreationPerClient
        case serviceAccountTokenFailuresPerClient
    }

    /// A bucket's size and refill rate.
    public struct Rule: Sendable, Equatable {
        public var capacity: Double
        public var refillPerSecond: Double

        public init(capacity: Double, refillPerSecond: Double) {
            self.capacity = capacity
            self.refillPerSecond = refillPerSecond
        }

        /// `capacity` requests at once, then `perMinute` a minute.
        public static func burst(_ capacity: Double, perMinute: Double) -> Rule {
            Rule(capacity: capacity, refillPerSecond: perMinute / 60)
        }
    }

    /// One rule per bucket.
    public struct Rules: Sendable, Equatable {
        public var signInPerClient = Rule.burst(60, perMinute: 120)
        public var signInPerAccount = Rule.burst(20, perMinute: 30)
        public var refreshFailuresPerClient = Rule.burst(30, perMinute: 30)
        public var mfaPerClient = Rule.burst(60, perMinute: 120)
        public var mfaPerAccount = Rule.burst(20, perMinute: 20)
        public var accountCreationPerClient = Rule.burst(20, perMinute: 10)
        public var serviceAccountTokenFailuresPerClient = Rule.burst(10, perMinute: 10)

        public init() {}

        /// Every bucket `factor` times as large and as fast (development: present but out of the way).
        public func relaxed(by factor: Double) -> Rules {
            var rules = self
            for bucket in Bucket.allCases {
                rules[bucket].capacity *= factor
                rules[bucket].refillPerSecond *= factor
            }
            return rules
        }

        public subscript(bucket: Bucket) -> Rule {
            get {
                switch bucket {
                case .signInPerClient: signInPerClient
                case .signInPerAccount: signInPerAccount
                case .refreshFailuresPerClient: refreshFailuresPerClient
                case .mfaPerClient: mfaPerClient
                case .mfaPerAccount: mfaPerAccount
                case .accountCreationPerClient: accountCreationPerClient
                case .serviceAccountTokenFailuresPerClient: serviceAccountTokenFailuresPerClient
                }
            }
            set {
                switch bucket {
                case .signInPerClient: signInPerClient = newValue
                case .signInPerAccount: signInPerAccount = newValue
                case .refreshFailuresPerClient: refreshFailuresPerClient = newValue
                case .mfaPerClient: mfaPerClient = newValue
                case .mfaPerAccount: mfaPerAccount = newValue
                case .accountCreationPerClient: accountCreationPerClient = newValue
                case .serviceAccountTokenFailuresPerClient: serviceAccountTokenFailuresPerClient = newValue
                }
            }
        }
    }

    public let rules: Rules
    /// When false, every request is allowed and nothing is kept (for measuring what limiting costs).
    public let isEnabled: Bool
    private let time: any TimeSource
    private let shards: [LockedShard]
    private let keysPerShard: Int

    /// - Parameters:
    ///   - maximumKeys: keys kept at most, over all buckets.
    ///   - isEnabled: false allows everything (benchmarks compare the two).
    public init(
        rules: Rules = Rules(), time: any TimeSource = SystemTimeSource(), maximumKeys: Int = 200_000,
        isEnabled: Bool = true
    ) {
        self.rules = rules
        self.isEnabled = isEnabled
        self.time = time
        let shardCount = 32
        shards = (0..<shardCount).map { _ in LockedShard() }
        keysPerShard = max(1, maximumKeys / shardCount)
    }

    /// Takes a token for `key` from `bucket`; false (nothing taken) when the bucket is empty.
    /// A nil key (no client address, for in-process calls) is never limited.
    public func take(_ bucket: Bucket, key: String?) -> Bool {
        update(bucket, key: key, cost: 1, onlyIfAvailable: true)
    }

    /// Whether `bucket` has a token for `key`, without taking it (to refuse before work whose failure
    /// is what costs a token: see ``charge(_:key:)``).
    public func hasToken(_ bucket: Bucket, key: String?) -> Bool {
        update(bucket, key: key, cost: 0, onlyIfAvailable: true)
    }

    /// Takes a token even if that leaves the bucket empty (a failure already happened).
    public func charge(_ bucket: Bucket, key: String?) {
        _ = update(bucket, key: key, cost: 1, onlyIfAvailable: false)
    }

    /// Keys currently kept (for tests of the memory bound).
    var keyCount: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.buckets.count } } }

    private func update(_ bucket: Bucket, key: String?, cost: Double, onlyIfAvailable: Bool) -> Bool {
        guard isEnabled, let key else { return true }
        let rule = rules[bucket]
        let compositeKey = Key(bucket: bucket, key: key)
        let now = Double(time.nowMillis) / 1000
        let shard = shards[Int(UInt(bitPattern: compositeKey.hashValue) % UInt(shards.count))]
        return shard.state.withLock { shard in
            var state = shard.buckets[compositeKey] ?? Tokens(available: rule.capacity, updated: now)
            let elapsed = max(0, now - state.updated)
            state.available = min(rule.capacity, state.available + elapsed * rule.refillPerSecond)
            state.updated = now
            let allowed = state.available >= 1
            if allowed || !onlyIfAvailable {
                state.available = max(-rule.capacity, state.available - cost)
            }
            if shard.buckets[compositeKey] == nil, shard.buckets.count >= keysPerShard {
                shard.evict(now: now, rules: rules, keep: keysPerShard / 2)
            }
            shard.buckets[compositeKey] = state
            return allowed
        }
    }

    private struct Key: Hashable {
        var bucket: Bucket
        var key: String
    }

    private struct Tokens {
        var available: Double
        /// Seconds since 1970 of the last update.
        var updated: Double
    }

    private final class LockedShard: Sendable {
        let state = Mutex(Shard())
    }

    private struct Shard {
        var buckets: [Key: Tokens] = [:]

        /// Drops buckets that have refilled, then the least recently updated, until `keep` remain.
        mutating func evict(now: Double, rules: Rules, keep: Int) {
            buckets = buckets.filter { key, tokens in
                let rule = rules[key.bucket]
                return tokens.available + (now - tokens.updated) * rule.refillPerSecond < rule.capacity
            }
            if buckets.count > keep {
                let newest = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(keep)
                buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
            }
        }
    }
}
