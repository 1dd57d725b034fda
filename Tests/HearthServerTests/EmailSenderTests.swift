import Foundation
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

private let message = EmailMessage(
    to: "alice@example.com", subject: "Reset your password for demo-hearth",
    text: "Reset it: https://example.com/r?oobCode=CODE123",
    html: #"<a href="https://example.com/r?oobCode=CODE123">Reset</a>"#)

private let secret = "whsec_test_secret"

/// The reason of the ``EmailDeliveryError`` `body` throws.
private func failure(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let EmailDeliveryError.failed(reason) {
        return reason
    } catch {
        return "unexpected \(error)"
    }
}

@Suite("EmailSender: webhook", .serialized)
struct WebhookEmailSenderTests {
    @Test func postsTheExactJSONBodyWithASignature() throws {
        let receiver = try Receiver(statuses: [202])
        let sleeps = Recorder<Duration>()
        try WebhookEmailSender(url: receiver.url("/hooks/email"), secret: secret, sleep: { sleeps.append($0) }).send(message)
        let request = try #require(receiver.requests.values.first)
        #expect(receiver.requests.values.count == 1)
        #expect(request.method == .post && request.path == "/hooks/email")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(String(decoding: request.body, as: UTF8.self)
            == #"{"to":"alice@example.com","subject":"Reset your password for demo-hearth","text":"Reset it: https://example.com/r?oobCode=CODE123","html":"<a href=\"https://example.com/r?oobCode=CODE123\">Reset</a>"}"#)
        // Computed independently with `openssl dgst -sha256 -hmac whsec_test_secret` over the expected body.
        #expect(request.headers["X-Hearth-Signature"]
            == "sha256=11d38ca05b51457d15631f56adb81f5cabafb18e09485f663c9fcc65f53f277b")
        #expect(sleeps.values.isEmpty)
    }

    @Test("an action's fields follow the rendered ones: kind, code, link, then locale and newEmail when given")
    func structuredFields() throws {
        let receiver = try Receiver(statuses: [200, 200])
        let sender = WebhookEmailSender(url: receiver.url("/"), sleep: { _ in })
        var withAction = message
        withAction.action = EmailAction(
            kind: "VERIFY_AND_CHANGE_EMAIL", code: "CODE123", link: "https://example.com/r?oobCode=CODE123", locale: "de",
            newEmail: "new@example.com")
        try sender.send(withAction)
        withAction.action = EmailAction(kind: "PASSWORD_RESET", code: "C", link: "https://example.com/r?oobCode=C")
        try sender.send(withAction)
        let bodies = receiver.requests.values.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies.count == 2)
        #expect(bodies.first?.hasSuffix(
            #""kind":"VERIFY_AND_CHANGE_EMAIL","code":"CODE123","link":"https://example.com/r?oobCode=CODE123","locale":"de","newEmail":"new@example.com"}"#) == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data((bodies.last ?? "").utf8)) as? [String: String])
        #expect(json["kind"] == "PASSWORD_RESET" && json["locale"] == nil && json["newEmail"] == nil && json["to"] == message.to)
    }

    @Test("X-Firebase-Locale: language tags pass, anything else is dropped")
    func locales() {
        for tag in ["fr", "en-US", "zh-Hant-TW", "es-419", "gsw"] {
            #expect(SendOobCodeRequest.locale(header: tag) == tag, "\(tag)")
        }
        for bad in [nil, "", "f", "fr_FR", "fr-", "-fr", "1a", "fr-CA\r\nX: y", "fr\"><b>", String(repeating: "a-", count: 20) + "a", "en--US"] {
            #expect(SendOobCodeRequest.locale(header: bad) == nil, "\(String(describing: bad))")
        }
    }

    @Test func aMessageWithoutHTMLHasNoHTMLMemberAndNoSecretNoSignature() throws {
        let receiver = try Receiver(statuses: [200])
        let textOnly = EmailMessage(to: "bob@example.com", subject: "Sujet « spécial »", text: "Ligne 1\nLigne \"2\"")
        try WebhookEmailSender(url: receiver.url("/"), sleep: { _ in }).send(textOnly)
        let request = try #require(receiver.requests.values.first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
        #expect(json == ["to": "bob@example.com", "subject": textOnly.subject, "text": textOnly.text])
        #expect(!request.headers.contains(name: "X-Hearth-Signature"))
    }

    @Test func retriesA503WithTheSameSignedBodyThenGivesUpWithAMaskedSecretFreeError() throws {
        let receiver = try Receiver(statuses: [503])
        let sleeps = Recorder<Duration>()
        let sender = WebhookEmailSender(
            url: receiver.url("/hook?token=query-secret"), secret: secret, initialBackoff: .milliseconds(100),
            sleep: { sleeps.append($0) })
        let reason = try #require(failure { try sender.send(message) })
        #expect(reason == "webhook email delivery to a***@example.com via 127.0.0.1 failed after 3 attempts: HTTP 503")
        #expect(sleeps.values == [.milliseconds(100), .milliseconds(200)])
        let requests = receiver.requests.values
        #expect(requests.count == 3)
        #expect(Set(requests.map(\.body)).count == 1)
        #expect(Set(requests.map { $0.headers["X-Hearth-Signature"] ?? "" }).count == 1)
        for secretPart in ["CODE123", "query-secret", secret, "alice@", message.subject] {
            #expect(!reason.contains(secretPart))
        }
    }

    @Test func doesNotRetryA400() throws {
        let receiver = try Receiver(statuses: [400])
        let sleeps = Recorder<Duration>()
        let sender = WebhookEmailSender(url: receiver.url("/"), sleep: { sleeps.append($0) })
        #expect(failure { try sender.send(message) }?.hasSuffix("failed after 1 attempt: HTTP 400") == true)
        #expect(receiver.requests.values.count == 1)
        #expect(sleeps.values.isEmpty)
    }

    @Test func theErrorMasksTheRecipientAndStaysOneLogLine() throws {
        let receiver = try Receiver(statuses: [400])
        let sender = WebhookEmailSender(url: receiver.url("/"), sleep: { _ in })
        for (to, masked) in [
            ("bob@example.com", "b***@example.com"), ("x@evil.example\n\"event=forged", "***"),
            ("\n@example.com", "***"), ("no-at-sign", "***"), ("zoë@exämple.com", "***"),
        ] {
            let reason = try #require(failure { try sender.send(EmailMessage(to: to, subject: "s", text: "t")) })
            #expect(reason == "webhook email delivery to \(masked) via 127.0.0.1 failed after 1 attempt: HTTP 400")
        }
    }
}
