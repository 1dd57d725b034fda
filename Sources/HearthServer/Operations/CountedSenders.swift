public import HearthCore

/// An SMS sender that reports each send (by the sender's kind) to ``MetricsRecording/delivery(_:sender:succeeded:)``.
public struct CountedSMSSender: SMSSender {
    private let base: any SMSSender
    private let name: String
    private let metrics: any MetricsRecording

    public init(_ base: any SMSSender, metrics: any MetricsRecording) {
        self.base = base
        self.metrics = metrics
        name = switch base {
        case is TwilioSMSSender: "twilio"
        case is WebhookSMSSender: "webhook"
        case is DevelopmentSMSSender: "development"
        case is UnavailableSMSSender: "unavailable"
        default: "other"
        }
    }

    public func send(_ message: SMSMessage) throws {
        try counted(.sms, sender: name, metrics: metrics) { try base.send(message) }
    }
}

/// An email sender that reports each send (by the sender's kind) to ``MetricsRecording/delivery(_:sender:succeeded:)``.
public struct CountedEmailSender: EmailSender {
    private let base: any EmailSender
    private let name: String
    private let metrics: any MetricsRecording

    public init(_ base: any EmailSender, metrics: any MetricsRecording) {
        self.base = base
        self.metrics = metrics
        name = switch base {
        case is SMTPEmailSender: "smtp"
        case is WebhookEmailSender: "webhook"
        case is DevelopmentEmailSender: "development"
        case is UnavailableEmailSender: "unavailable"
        default: "other"
        }
    }

    public func send(_ message: EmailMessage) throws {
        try counted(.email, sender: name, metrics: metrics) { try base.send(message) }
    }
}

/// Runs `send`, reporting whether it succeeded.
private func counted(
    _ channel: DeliveryChannel, sender: String, metrics: any MetricsRecording, _ send: () throws -> Void
) throws {
    do {
        try send()
        metrics.delivery(channel, sender: sender, succeeded: true)
    } catch {
        metrics.delivery(channel, sender: sender, succeeded: false)
        throw error
    }
}
