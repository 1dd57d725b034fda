import Foundation
import Testing
@testable import HearthCore

@Suite("Limit policies")
struct LimitPolicyTests {
    let policy = FailureLockout(burst: 5, lockout: 900, maximumPerWindow: 20, window: 86_400)

    /// Records `count` failures at `now`, returning the counter and how many started a lockout.
    private func fail(_ counter: LimitCounter?, times count: Int, at now: Int64) -> (LimitCounter?, Int) {
        var counter = counter
        var lockouts = 0
        for _ in 0..<count {
            let (next, locked) = policy.recordFailure(counter, key: "k", nowMillis: now)
            counter = next
            if locked { lockouts += 1 }
        }
        return (counter, lockouts)
    }

    @Test("five failures in a row lock for 15 minutes, then 30, then 60; twenty a day lock the rest of the day")
    func lockoutBackoff() throws {
        var now: Int64 = 1_000_000
        var (counter, lockouts) = fail(nil, times: 4, at: now)
        #expect(lockouts == 0)
        #expect(policy.lockedUntil(counter, nowMillis: now) == nil)
        (counter, lockouts) = fail(counter, times: 1, at: now)
        #expect(lockouts == 1)
        #expect(policy.lockedUntil(counter, nowMillis: now) == now + 900_000)
        now += 900_000
        #expect(policy.lockedUntil(counter, nowMillis: now) == nil)
        (counter, _) = fail(counter, times: 5, at: now)
        #expect(policy.lockedUntil(counter, nowMillis: now) == now + 1_800_000)
        now += 1_800_000
        (counter, _) = fail(counter, times: 5, at: now)
        #expect(policy.lockedUntil(counter, nowMillis: now) == now + 3_600_000)
        now += 3_600_000
        (counter, _) = fail(counter, times: 5, at: now)
        // The twentieth failure: locked until the day that began with the first one is over.
        let until = try #require(policy.lockedUntil(counter, nowMillis: now))
        #expect(until == 1_000_000 + 86_400_000)
        #expect(counter?.expiresAtMillis == until)
        // A new day starts a new window.
        (counter, lockouts) = fail(counter, times: 1, at: until)
        #expect(counter?.count == 1)
        #expect(counter?.lockouts == 0)
        #expect(lockouts == 0)
    }

    @Test("at most maximumPerWindow failures fit in a window, whatever the request rate")
    func boundPerWindow() {
        // An attacker retrying the moment each lockout ends.
        var counter: LimitCounter?
        var now: Int64 = 0
        var checked = 0
        while now < 86_400_000 {
            if let until = policy.lockedUntil(counter, nowMillis: now) {
                now = until
                continue
            }
            counter = policy.recordFailure(counter, key: "k", nowMillis: now).counter
            checked += 1
            now += 10
        }
        #expect(checked == 20)
    }

    @Test("huge settings saturate instead of overflowing")
    func saturation() {
        let huge = FailureLockout(burst: 1, lockout: .max / 2, maximumPerWindow: .max, window: .max)
        var counter: LimitCounter?
        for _ in 0..<70 { counter = huge.recordFailure(counter, key: "k", nowMillis: .max - 5).counter }
        #expect(counter?.lockedUntilMillis == .max)
        let quota = WindowQuota(limit: 2, window: .max)
        #expect(quota.charge(nil, key: "q", nowMillis: .max)?.expiresAtMillis == .max)
    }

    @Test("a window quota allows its limit per window, then refuses until the window is over")
    func quota() {
        let quota = WindowQuota(limit: 3, window: 60)
        var counter: LimitCounter?
        for _ in 0..<3 { counter = quota.charge(counter, key: "q", nowMillis: 1_000) }
        #expect(counter?.count == 3)
        #expect(quota.charge(counter, key: "q", nowMillis: 60_999) == nil)
        #expect(quota.charge(counter, key: "q", nowMillis: 61_000)?.count == 1)
    }

    @Test("token buckets: a burst, then refill; charges leave debt; no key is never limited")
    func buckets() {
        let time = ManualTimeSource()
        var rules = RateLimiter.Rules()
        rules.signInPerClient = .burst(3, perMinute: 60)
        let limiter = RateLimiter(rules: rules, time: time)
        #expect((0..<4).map { _ in limiter.take(.signInPerClient, key: "a") } == [true, true, true, false])
        #expect(limiter.take(.signInPerClient, key: "b"), "buckets are per key")
        #expect(limiter.take(.signInPerAccount, key: "a"), "and per bucket")
        #expect(limiter.take(.signInPerClient, key: nil))
        time.advance(by: 1)
        #expect(limiter.hasToken(.signInPerClient, key: "a"))
        #expect(limiter.hasToken(.signInPerClient, key: "a"), "looking takes nothing")
        limiter.charge(.signInPerClient, key: "a")
        limiter.charge(.signInPerClient, key: "a")
        time.advance(by: 1)
        #expect(limiter.take(.signInPerClient, key: "a") == false, "failures charged past empty must be paid back")
        time.advance(by: 2)
        #expect(limiter.take(.signInPerClient, key: "a"))
    }

    @Test("the limiter keeps a bounded number of keys however many clients it sees")
    func boundedMemory() {
        let limiter = RateLimiter(rules: RateLimiter.Rules(), time: ManualTimeSource(), maximumKeys: 3_200)
        for index in 0..<50_000 { _ = limiter.take(.signInPerClient, key: "client-\(index)") }
        #expect(limiter.keyCount <= 3_200)
        let relaxed = RateLimiter.Rules().relaxed(by: 100)
        #expect(relaxed.mfaPerAccount.capacity == RateLimiter.Rules().mfaPerAccount.capacity * 100)
    }
}
