public import HearthCore
import Synchronization

/// The `--dev` email sender: nothing leaves the machine. It logs one line per email (recipient and subject only;
/// the codes' own log lines come from `IssuedOOBCodes`) and keeps the latest `capacity` messages.
public final class DevelopmentEmailSender: EmailSender {
    private let log: @Sendable (String) -> Void
    private let capacity: Int
    private let messages = Mutex<[EmailMessage]>([])

    /// - Parameters:
    ///   - log: receives one line per email.
    ///   - capacity: how many messages are kept; the oldest are dropped first.
    public init(log: @escaping @Sendable (String) -> Void, capacity: Int = 1000) {
        self.log = log
        self.capacity = max(0, capacity)
    }

    /// Records the message and logs that it was sent; never throws.
    public func send(_ message: EmailMessage) throws {
        messages.withLock { messages in
            messages.append(message)
            if messages.count > capacity { messages.removeFirst(messages.count - capacity) }
        }
        log("event=email_sent_dev to=\(message.to) subject=\"\(message.subject)\"")
    }

    /// Messages sent, oldest first.
    public var sentMessages: [EmailMessage] { messages.withLock { $0 } }
}
