import Foundation
import HearthCore

/// The retry policy the HTTP senders share: network errors, 429 and 5xx are retried with exponential backoff
/// (`initialBackoff`, then twice that, …, capped at ``maximumBackoff``) up to `maxAttempts` requests; any other
/// non-2xx fails at once.
struct DeliveryAttempts: Sendable {
    static let maximumBackoff: Duration = .seconds(30)

    let sender: SMSDeliveryError.Sender
    let maxAttempts: Int
    let initialBackoff: Duration
    let transport: any HTTPPosting
    let sleep: @Sendable (Duration) -> Void
    /// Reads the gateway's own error code from an error body, if it has one.
    var providerErrorCode: @Sendable (Data) -> Int? = { _ in nil }

    init(
        sender: SMSDeliveryError.Sender, maxAttempts: Int, initialBackoff: Duration, transport: any HTTPPosting,
        sleep: @escaping @Sendable (Duration) -> Void
    ) {
        self.sender = sender
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = max(.zero, initialBackoff)
        self.transport = transport
        self.sleep = sleep
    }

    static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    func post(_ url: URL, headers: [String: String], body: Data, to phoneNumber: String) throws(SMSDeliveryError) {
        var backoff = initialBackoff
        var attempt = 0
        while true {
            attempt += 1
            let failure: SMSDeliveryError.Failure
            var providerCode: Int?
            var retryable = true
            do {
                let answer = try transport.post(url, headers: headers, body: body)
                if (200...299).contains(answer.status) { return }
                failure = .status(answer.status)
                providerCode = providerErrorCode(answer.body)
                retryable = Self.isRetryable(status: answer.status)
            } catch {
                failure = .network(SMSDeliveryError.networkReason(error))
            }
            if !retryable || attempt >= maxAttempts {
                throw SMSDeliveryError(
                    sender: sender, host: url.host ?? "?", maskedPhoneNumber: PhoneNumbers.masked(phoneNumber),
                    failure: failure, attempts: attempt, providerErrorCode: providerCode)
            }
            sleep(backoff)
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }
}
