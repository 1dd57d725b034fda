import Foundation
import HearthCore
import HearthProtocol

/// How every sender (SMS and email, HTTP and SMTP) retries: up to `maxAttempts` tries, waiting `initialBackoff`,
/// then twice that, … (capped at ``maximumBackoff``) between them.
struct RetrySchedule: Sendable {
    static let maximumBackoff: Duration = .seconds(30)

    let maxAttempts: Int
    let initialBackoff: Duration
    let sleep: @Sendable (Duration) -> Void

    init(maxAttempts: Int, initialBackoff: Duration, sleep: @escaping @Sendable (Duration) -> Void) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = max(.zero, initialBackoff)
        self.sleep = sleep
    }

    /// Calls `attempt` until it delivers (returns nil), fails in a way that retrying cannot fix (`transient`
    /// false), or `maxAttempts` calls were made.
    /// - Returns: nil when delivered; else the last failure and how many attempts were made.
    func run<Failure>(_ attempt: () -> (failure: Failure, transient: Bool)?) -> (failure: Failure, attempts: Int)? {
        var backoff = initialBackoff
        var attempts = 0
        while true {
            attempts += 1
            guard let outcome = attempt() else { return nil }
            if !outcome.transient || attempts >= maxAttempts { return (outcome.failure, attempts) }
            sleep(backoff)
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }

    /// `1 attempt`, `3 attempts`: for the senders' error texts.
    static func describe(attempts: Int) -> String { attempts == 1 ? "1 attempt" : "\(attempts) attempts" }
}

/// The default `sleep` of the senders: blocks the calling thread.
@usableFromInline let blockingSleep: @Sendable (Duration) -> Void = {
    Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
}

/// The HTTP senders' attempts: network errors, 429 and 5xx are retried on the ``RetrySchedule``; any other
/// non-2xx fails at once.
struct DeliveryAttempts: Sendable {
    /// The last failure of a POST that was not delivered.
    struct Failed: Sendable {
        var failure: HTTPDeliveryFailure
        var attempts: Int
        /// The gateway's own error code from the last answer, when it gave one.
        var providerErrorCode: Int?
    }

    let schedule: RetrySchedule
    let http: any OutboundHTTP
    /// Reads the gateway's own error code from an error body, if it has one.
    var providerErrorCode: @Sendable (Data) -> Int? = { _ in nil }

    init(
        maxAttempts: Int, initialBackoff: Duration, http: any OutboundHTTP,
        sleep: @escaping @Sendable (Duration) -> Void
    ) {
        schedule = RetrySchedule(maxAttempts: maxAttempts, initialBackoff: initialBackoff, sleep: sleep)
        self.http = http
    }

    static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// POSTs until a 2xx, a status not worth retrying, or the last attempt.
    /// - Returns: nil when delivered, else the last failure.
    func post(_ url: URL, headers: [String: String], body: Data) -> Failed? {
        let outcome = schedule.run { () -> (failure: (HTTPDeliveryFailure, Int?), transient: Bool)? in
            do {
                let answer = try http.send(.post(url, headers: headers, body: body))
                if (200...299).contains(answer.status) { return nil }
                return ((.status(answer.status), providerErrorCode(answer.body)), Self.isRetryable(status: answer.status))
            } catch {
                return ((.network(HTTPDeliveryFailure.networkReason(error)), nil), true)
            }
        }
        return outcome.map { Failed(failure: $0.failure.0, attempts: $0.attempts, providerErrorCode: $0.failure.1) }
    }
}
