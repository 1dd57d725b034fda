public import Foundation
public import HearthCore
public import HearthOutbound
public import HearthProtocol

/// POSTs each email to a URL the operator runs (which then talks to any email provider, or renders its own) as
/// `{"to":"alice@example.com","subject":"…","text":"…","html":"…","kind":"PASSWORD_RESET","code":"…","link":"…",
/// "locale":"fr","newEmail":"…"}` (no `html` when the message has none, no `locale` or `newEmail` when the action has
/// none), signed with `X-Hearth-Signature` and retried exactly as ``WebhookSMSSender`` does.
///
/// An answer other than 2xx, 429 or 5xx, or the last failed attempt, throws ``EmailDeliveryError``, which names
/// the masked recipient, the host and the status, never the message.
public final class WebhookEmailSender: EmailSender {
    public var url: URL { webhook.url }
    private let webhook: SignedWebhook

    /// - Parameters: as for ``WebhookSMSSender`` (https in production: the body carries an action code).
    public init(
        url: URL, secret: String? = nil, maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500),
        http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), sleep: @escaping @Sendable (Duration) -> Void = blockingSleep
    ) {
        webhook = SignedWebhook(
            url: url, secret: secret, maxAttempts: maxAttempts, initialBackoff: initialBackoff, http: http,
            sleep: sleep)
    }

    public func send(_ message: EmailMessage) throws {
        guard let failed = webhook.post(Self.body(for: message)) else { return }
        throw EmailDeliveryError.failed(
            sender: "webhook", to: message.to, host: url.host ?? "?", attempts: failed.attempts,
            reason: failed.failure.describe(providerErrorCode: nil, sender: "webhook"))
    }

    /// `{"to":…,"subject":…,"text":…,"html":…,"kind":…,"code":…,"link":…,"locale":…,"newEmail":…}`, keys in that order.
    static func body(for message: EmailMessage) -> Data {
        var members = [("to", message.to), ("subject", message.subject), ("text", message.text)]
        if let html = message.html { members.append(("html", html)) }
        if let action = message.action {
            members += [("kind", action.kind), ("code", action.code), ("link", action.link)]
            if let locale = action.locale { members.append(("locale", locale)) }
            if let newEmail = action.newEmail { members.append(("newEmail", newEmail)) }
        }
        return SignedWebhook.body(members.map { (name: $0.0, value: $0.1) })
    }
}
