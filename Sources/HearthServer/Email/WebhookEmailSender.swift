public import Foundation
public import HearthCore

/// POSTs each email as JSON to a URL the operator runs (which then talks to any email provider), signed and
/// retried exactly like ``WebhookSMSSender``:
///
/// ```
/// POST <url>
/// Content-Type: application/json
/// X-Hearth-Signature: sha256=<hex HMAC-SHA256 of the exact body under the secret>   (only with a secret)
///
/// {"to":"alice@example.com","subject":"Reset your password for demo-hearth","text":"…","html":"…"}
/// ```
///
/// `html` is left out when the message has none. Any 2xx is success; network errors, 429 and 5xx are retried
/// with exponential backoff up to `maxAttempts` requests; other statuses fail at once with
/// ``EmailDeliveryError``, which names the masked recipient, the host and the status, never the message.
public final class WebhookEmailSender: EmailSender {
    public var url: URL { webhook.url }
    private let webhook: SignedWebhook

    /// - Parameters: as for ``WebhookSMSSender`` (https in production: the body carries an action code).
    public init(
        url: URL, secret: String? = nil, maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500),
        transport: any HTTPPosting = URLSessionPoster(), sleep: @escaping @Sendable (Duration) -> Void = blockingSleep
    ) {
        webhook = SignedWebhook(
            url: url, secret: secret,
            attempts: DeliveryAttempts(
                maxAttempts: maxAttempts, initialBackoff: initialBackoff, transport: transport, sleep: sleep))
    }

    public func send(_ message: EmailMessage) throws {
        guard let failed = webhook.post(Self.body(for: message)) else { return }
        throw EmailDeliveryError.failed(
            sender: "webhook", to: message.to, host: url.host ?? "?", attempts: failed.attempts,
            reason: failed.failure.describe(providerErrorCode: nil, sender: "webhook"))
    }

    /// `{"to":…,"subject":…,"text":…,"html":…}`, keys in that order.
    static func body(for message: EmailMessage) -> Data {
        var members = [("to", message.to), ("subject", message.subject), ("text", message.text)]
        if let html = message.html { members.append(("html", html)) }
        return SignedWebhook.body(members.map { (name: $0.0, value: $0.1) })
    }
}
