public import HearthCore

/// An SMS or email sender that reports each send, by the kind of sender, to
/// ``MetricsRecording/delivery(_:sender:succeeded:)``.
public struct CountedSender<Message: Sendable>: Sendable {
    private let deliver: @Sendable (Message) throws -> Void
    private let channel: DeliveryChannel
    private let kind: String
    private let metrics: any MetricsRecording

    public func send(_ message: Message) throws {
        do {
            try deliver(message)
            metrics.delivery(channel, sender: kind, succeeded: true)
        } catch {
            metrics.delivery(channel, sender: kind, succeeded: false)
            throw error
        }
    }
}

extension CountedSender: SMSSender where Message == SMSMessage {
    public init(_ base: any SMSSender, metrics: any MetricsRecording) {
        self.init(deliver: base.send, channel: .sms, kind: senderKind(base), metrics: metrics)
    }
}

extension CountedSender: EmailSender where Message == EmailMessage {
    public init(_ base: any EmailSender, metrics: any MetricsRecording) {
        self.init(deliver: base.send, channel: .email, kind: senderKind(base), metrics: metrics)
    }
}

/// The `sender` label of an SMS or email sender.
private func senderKind(_ sender: Any) -> String {
    switch sender {
    case is TwilioSMSSender: "twilio"
    case is SMTPEmailSender: "smtp"
    case is WebhookSMSSender, is WebhookEmailSender: "webhook"
    case is DevelopmentSMSSender, is DevelopmentEmailSender: "development"
    case is UnavailableSMSSender, is UnavailableEmailSender: "unavailable"
    default: "other"
    }
}
