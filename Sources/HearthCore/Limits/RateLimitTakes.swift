/// The tokens one request takes from a ``RateLimiter`` inside a write body.
///
/// A store may run a write body more than once (PostgreSQL runs it again when it lost a race with another write),
/// so a body must not take a token on every run: through this, each bucket and key is taken from the limiter at most
/// once per request, and a rerun gets the answer of the first take. Make one per request, outside the body.
final class RateLimitTakes {
    private struct Take: Hashable {
        let bucket: RateLimiter.Bucket
        let key: String?
    }

    private let limiter: RateLimiter
    private var answers: [Take: Bool] = [:]

    init(_ limiter: RateLimiter) {
        self.limiter = limiter
    }

    /// ``RateLimiter/take(_:key:)`` the first time it is asked for `bucket` and `key`; that answer afterwards.
    func take(_ bucket: RateLimiter.Bucket, key: String?) -> Bool {
        let take = Take(bucket: bucket, key: key)
        if let answer = answers[take] { return answer }
        let answer = limiter.take(bucket, key: key)
        answers[take] = answer
        return answer
    }
}
