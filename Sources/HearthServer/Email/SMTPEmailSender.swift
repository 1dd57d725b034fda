public import HearthCore
public import SMTP

/// Hands each email to an SMTP server (the operator's mail relay or provider) through libcurl: STARTTLS or
/// implicit TLS, `AUTH` with a user name and password, the server's certificate checked.
///
/// Transient failures (no connection, timeout, a broken connection, a 4xx refusal) are retried with exponential
/// backoff (`initialBackoff`, twice that, …, capped at 30 s) up to `maxAttempts` deliveries, each with the same
/// `Message-ID`; refused credentials, TLS failures and 5xx refusals fail at once. The thrown
/// ``EmailDeliveryError`` names the masked recipient, the server's host and the reason, never the password or
/// the message.
public final class SMTPEmailSender: EmailSender {
    private let client: SMTPClient
    private let from: MailAddress
    private let schedule: RetrySchedule

    /// - Parameters:
    ///   - server: the server, its TLS mode, credentials, CA file and timeouts.
    ///   - from: the `From` of every message and the envelope sender.
    ///   - maxAttempts: deliveries tried at most (at least 1).
    ///   - initialBackoff: the wait after the first transient failure; it doubles after each further one.
    ///   - sleep: how to wait between attempts (blocking); tests pass one that records.
    public init(
        server: SMTPServer, from: MailAddress, maxAttempts: Int = 3, initialBackoff: Duration = .seconds(1),
        sleep: @escaping @Sendable (Duration) -> Void = blockingSleep
    ) {
        client = SMTPClient(server: server)
        self.from = from
        schedule = RetrySchedule(maxAttempts: maxAttempts, initialBackoff: initialBackoff, sleep: sleep)
    }

    public func send(_ message: EmailMessage) throws {
        let mail: [UInt8]
        do throws(MailFormatError) {
            let to = try MailAddress(address: message.to, field: "To")
            mail = try MailMessage(from: from, to: to, subject: message.subject, text: message.text, html: message.html)
                .rendered()
        } catch {
            let to = EmailDeliveryError.masked(message.to)
            throw EmailDeliveryError.failed(reason: "SMTP email to \(to) not sent: \(error)")
        }
        let failed = schedule.run { () -> (failure: SMTPError, transient: Bool)? in
            do throws(SMTPError) {
                try client.send(mail, from: from.address, to: message.to)
                return nil
            } catch {
                return (error, error.isTransient)
            }
        }
        if let failed {
            throw EmailDeliveryError.failed(
                sender: "SMTP", to: message.to, host: client.server.host, attempts: failed.attempts,
                reason: failed.failure.description)
        }
    }
}
