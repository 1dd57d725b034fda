import HearthCore
import HearthHTTP
import HearthProtocol

/// Takes a token from the client's bucket before the route runs; answers Firebase's
/// `TOO_MANY_ATTEMPTS_TRY_LATER` (HTTP 400, as Firebase does) when there is none.
struct Throttle: HTTPMiddleware {
    let limiter: RateLimiter
    let bucket: RateLimiter.Bucket

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        guard limiter.take(bucket, key: request.clientKey) else { throw Self.refusal }
        return try next(request)
    }

    static let refusal = WireError(.tooManyAttemptsTryLater, "Too many requests from this client; try again later.")
}

/// Charges the client's bucket for each failed request, and refuses a client whose bucket is empty
/// before the route runs: for calls whose failures are what an attacker makes many of (refreshes with
/// guessed or stolen tokens), without slowing the calls that succeed.
struct ThrottleFailures: HTTPMiddleware {
    let limiter: RateLimiter
    let bucket: RateLimiter.Bucket

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        let client = request.clientKey
        guard limiter.hasToken(bucket, key: client) else { throw Throttle.refusal }
        do {
            return try next(request)
        } catch {
            // The client's failures, not the server's (a store outage must not lock clients out).
            if WireFailure(error).fault == nil { limiter.charge(bucket, key: client) }
            throw error
        }
    }
}
