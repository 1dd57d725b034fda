public import Foundation
public import HearthCore
public import HearthOutbound
public import HearthProtocol

/// POSTs each message as JSON to a URL the operator runs (which then talks to any SMS provider):
///
/// ```
/// POST <url>
/// Content-Type: application/json
/// X-Hearth-Signature: sha256=<hex HMAC-SHA256 of the exact body under the secret>   (only with a secret)
///
/// {"to":"+15555550100","code":"123456","text":"123456 is your verification code for demo-hearth.","purpose":"sign-in"}
/// ```
///
/// `purpose` is `sign-in` or `enrollment`. Any 2xx is success. Network errors, 429 and 5xx are retried with
/// exponential backoff (`initialBackoff`, twice that, …) up to `maxAttempts` requests; other statuses (3xx, 4xx)
/// fail at once with ``SMSDeliveryError``. Retries re-send the identical body and signature, so a receiver may
/// deduplicate on it.
///
/// Receivers should verify the signature over the raw body bytes before parsing, comparing in constant time.
public final class WebhookSMSSender: SMSSender {
    public var url: URL { webhook.url }
    private let webhook: SignedWebhook

    /// - Parameters:
    ///   - url: where to POST (https in production: the body carries the code).
    ///   - secret: the HMAC key for `X-Hearth-Signature`; `nil` (or empty) sends no signature.
    ///   - maxAttempts: requests made at most (at least 1).
    ///   - initialBackoff: the wait after the first failure; it doubles after each further one (capped at 30 s).
    ///   - http: how requests are made; by default over URLSession with a 10-second timeout.
    ///   - sleep: how to wait between attempts (blocking); tests pass one that records.
    public init(
        url: URL, secret: String? = nil, maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500),
        http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), sleep: @escaping @Sendable (Duration) -> Void = blockingSleep
    ) {
        webhook = SignedWebhook(
            url: url, secret: secret, maxAttempts: maxAttempts, initialBackoff: initialBackoff, http: http,
            sleep: sleep)
    }

    public func send(_ message: SMSMessage) throws {
        if let failed = webhook.post(Self.body(for: message)) {
            throw SMSDeliveryError(sender: .webhook, url: url, phoneNumber: message.phoneNumber, failed: failed)
        }
    }

    /// `{"to":…,"code":…,"text":…,"purpose":…}`, keys in that order.
    static func body(for message: SMSMessage) -> Data {
        SignedWebhook.body([
            ("to", message.phoneNumber), ("code", message.code), ("text", message.text),
            ("purpose", message.purpose.rawValue),
        ])
    }
}
