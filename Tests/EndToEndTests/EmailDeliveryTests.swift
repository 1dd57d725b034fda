import Foundation
import HearthCore
import HearthServer
import SMTP
import Synchronization
import Testing

/// Hearth's SMTP sender against a real SMTP server (aiosmtpd, ``SMTPSink``) on loopback.
@Suite("Email delivery over SMTP", .blocking, .serialized)
struct EmailDeliveryTests {
    static let from = try! MailAddress(parsing: "Hearth <no-reply@example.com>", field: "From")
    static let password = "s3cret-Pa55word"

    static let message = EmailMessage(
        to: "alice@example.com", subject: "Verify your email for demo-hearth",
        text: "Follow this link to verify your email address.\nhttps://example.com/__/auth/action?mode=verifyEmail&oobCode=CODE123\n",
        html: "<p>Follow <a href=\"https://example.com/__/auth/action?mode=verifyEmail&amp;oobCode=CODE123\">this link</a>.</p>")

    /// The waits a sender asked for, instead of waiting.
    final class Sleeps: Sendable {
        private let recorded = Mutex<[Duration]>([])
        var values: [Duration] { recorded.withLock { $0 } }
        var sleep: @Sendable (Duration) -> Void { { duration in self.recorded.withLock { $0.append(duration) } } }
    }

    static func server(
        _ sink: SMTPSink, security: SMTPServer.Security = .none, password: String? = nil, caFile: String? = nil,
        timeout: Duration = .seconds(20)
    ) -> SMTPServer {
        SMTPServer(
            host: "127.0.0.1", port: Int(sink.port), security: security,
            credentials: password.map { ("hearth-test", $0) }, caFile: caFile, connectTimeout: timeout, timeout: timeout)
    }

    /// What the sender threw, as text (``EmailDeliveryError/failed(reason:)``'s reason).
    static func failure(_ sender: SMTPEmailSender, _ message: EmailMessage = message) -> String? {
        do {
            try sender.send(message)
            return nil
        } catch let EmailDeliveryError.failed(reason) {
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("a message is delivered in clear to a loopback server: envelope, headers and both bodies arrive")
    func plainDelivery() throws {
        let sink = try SMTPSink()
        try SMTPEmailSender(server: Self.server(sink), from: Self.from).send(Self.message)
        let received = try #require(sink.waitForMessages(1).first)
        #expect(received.mailFrom == "no-reply@example.com")
        #expect(received.recipients == ["alice@example.com"])
        #expect(!received.tls && received.login == nil)
        #expect(received.from == "Hearth <no-reply@example.com>")
        #expect(received.to == "alice@example.com")
        #expect(received.subject == Self.message.subject)
        #expect(received.messageID.hasSuffix("@example.com>"))
        #expect(received.text == Self.message.text)
        #expect(received.html == Self.message.html! + "\n")
        let raw = String(decoding: received.raw, as: UTF8.self)
        #expect(raw.contains("MIME-Version: 1.0\r\n") && raw.contains("Content-Type: multipart/alternative;"))
    }

    @Test("STARTTLS and AUTH: the server's self-signed certificate is trusted through caFile")
    func startTLSAndAuth() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.password)))
        let server = Self.server(sink, security: .startTLS, password: Self.password, caFile: sink.certificateFile)
        try SMTPEmailSender(server: server, from: Self.from).send(Self.message)
        let received = try #require(sink.waitForMessages(1).first)
        #expect(received.tls)
        #expect(received.login == "hearth-test")
        #expect(received.text == Self.message.text)
    }

    @Test("a certificate the client does not trust is a final TLS failure: nothing is sent, no retry")
    func untrustedCertificate() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.password)))
        let sleeps = Sleeps()
        let sender = SMTPEmailSender(
            server: Self.server(sink, security: .startTLS, password: Self.password), from: Self.from,
            sleep: sleeps.sleep)
        let reason = try #require(Self.failure(sender))
        #expect(reason.hasSuffix("failed after 1 attempt: TLS failure"), "\(reason)")
        #expect(sleeps.values.isEmpty)
        #expect(!reason.contains(Self.password))
        #expect(sink.messages.isEmpty)
    }

    @Test("a server that requires STARTTLS is never sent the password in clear")
    func noTLSAgainstAServerThatRequiresIt() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.password)))
        let sender = SMTPEmailSender(
            server: Self.server(sink, security: .none, password: Self.password), from: Self.from, maxAttempts: 1)
        let reason = try #require(Self.failure(sender))
        #expect(reason.hasSuffix("failed after 1 attempt: sender refused (530)"), "\(reason)")
        #expect(sink.messages.isEmpty)
        // The sink logs every command it receives (its log reaches us a little later): MAIL came, AUTH, which would
        // have come before it, never did.
        #expect(sink.waitForLine { $0.contains("readline: b'MAIL FROM") }, "\(sink.lines)")
        #expect(!sink.lines.contains { $0.contains("readline: b'AUTH") })
    }

    @Test("a wrong password is a clear final error: one attempt, no wait, no password in the error")
    func wrongPassword() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.password)))
        let sleeps = Sleeps()
        let wrong = "wrong-Pa55word-42"
        let sender = SMTPEmailSender(
            server: Self.server(sink, security: .startTLS, password: wrong, caFile: sink.certificateFile),
            from: Self.from, sleep: sleeps.sleep)
        let reason = try #require(Self.failure(sender))
        #expect(reason == "SMTP email delivery to a***@example.com via 127.0.0.1 failed after 1 attempt: authentication refused (535)")
        #expect(sleeps.values.isEmpty)
        #expect(sink.messages.isEmpty)
    }

    @Test("a server that cannot be reached is retried with backoff, then fails")
    func unreachable() throws {
        let sink = try SMTPSink()
        let server = Self.server(sink)
        sink.stop()
        let sleeps = Sleeps()
        let sender = SMTPEmailSender(
            server: server, from: Self.from, maxAttempts: 3, initialBackoff: .milliseconds(200), sleep: sleeps.sleep)
        let reason = try #require(Self.failure(sender))
        #expect(reason.hasSuffix("failed after 3 attempts: could not connect"), "\(reason)")
        #expect(sleeps.values == [.milliseconds(200), .milliseconds(400)])
    }

    @Test("a server that accepts the connection and never answers times out instead of hanging")
    func silentServer() throws {
        let sink = try SMTPSink(.init(silent: true))
        let sleeps = Sleeps()
        let sender = SMTPEmailSender(
            server: Self.server(sink, timeout: .seconds(1)), from: Self.from, maxAttempts: 2, sleep: sleeps.sleep)
        let reason = try #require(Self.failure(sender))
        #expect(reason.hasSuffix("failed after 2 attempts: timed out"), "\(reason)")
        #expect(sleeps.values.count == 1)
    }

    @Test("a refused recipient is final; a temporary refusal is retried and then delivered once")
    func refusals() throws {
        let refusing = try SMTPSink(.init(refusedRecipientPrefix: "nobody"))
        let sleeps = Sleeps()
        let sender = SMTPEmailSender(server: Self.server(refusing), from: Self.from, sleep: sleeps.sleep)
        var message = Self.message
        message.to = "nobody@example.com"
        #expect(Self.failure(sender, message)?.hasSuffix("failed after 1 attempt: recipient refused (550)") == true)
        #expect(sleeps.values.isEmpty && refusing.messages.isEmpty)

        let busy = try SMTPSink(.init(temporaryFailures: 1))
        let retried = Sleeps()
        try SMTPEmailSender(server: Self.server(busy), from: Self.from, sleep: retried.sleep).send(Self.message)
        #expect(retried.values.count == 1)
        #expect(busy.waitForMessages(1).count == 1)
    }

    @Test("non-ASCII subjects, names and bodies, long lines and lines starting with a dot arrive intact")
    func nonASCII() throws {
        let sink = try SMTPSink()
        let from = try MailAddress(parsing: "Équipe « Hearth » <no-reply@example.com>", field: "From")
        let subject = "Réinitialisez votre mot de passe pour « Démo Hearth » — 🔑 ça expire dans une heure, Zoë"
        let text = """
            Bonjour Zoë,

            .Une ligne qui commence par un point.
            ..
            .
            From the start of a line: ünïcødé ✓ 🔑 日本語
            \(String(repeating: "Très longue ligne sans coupure = ", count: 12))
            Fin avec espaces   \n
            """
        let html = "<p>Bonjour Zoë — <a href=\"https://example.com/?a=1&amp;b=2\">réinitialiser</a></p>\n<p>.</p>"
        try SMTPEmailSender(server: Self.server(sink), from: from)
            .send(EmailMessage(to: "zoe@example.com", subject: subject, text: text, html: html))
        let received = try #require(sink.waitForMessages(1).first)
        #expect(received.subject == subject)
        #expect(received.from == "Équipe « Hearth » <no-reply@example.com>")
        #expect(received.text == text)
        #expect(received.html == html + "\n")
        for line in String(decoding: received.raw, as: UTF8.self).components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 78 && line.utf8.allSatisfy { $0 < 0x80 }, "\(line)")
        }
    }

    @Test("header injection through the recipient or the subject is refused before anything is sent")
    func headerInjection() throws {
        let sink = try SMTPSink()
        let sender = SMTPEmailSender(server: Self.server(sink), from: Self.from)
        var injectedRecipient = Self.message
        injectedRecipient.to = "alice@example.com\r\nBcc: victim@example.com"
        var injectedSubject = Self.message
        injectedSubject.subject = "Hello\r\nBcc: victim@example.com"
        #expect(Self.failure(sender, injectedRecipient) == "SMTP email to a***@example.com not sent: the To header must not contain a line break")
        #expect(Self.failure(sender, injectedSubject) == "SMTP email to a***@example.com not sent: the Subject header must not contain a line break")
        #expect(sink.messages.isEmpty)
    }
}
