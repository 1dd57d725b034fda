import Foundation
import Testing

/// Every email action through a real SMTP exchange: `hearth serve` sends over STARTTLS with AUTH to a local
/// aiosmtpd, and the link in each received email completes its action with the web SDK's requests.
@Suite("Email actions over SMTP (e2e)", .blocking, .serialized)
struct EmailActionsOverSMTPTests {
    static let smtpPassword = "smtp-Pa55word-e2e"

    /// A `--dev` server whose email goes to `sink` (STARTTLS, the sink's certificate as the CA file, AUTH), with a
    /// dead proxy in its environment.
    static func server(sendingTo sink: SMTPSink) throws -> HearthProcess {
        let directory = HearthProcess.temporaryDirectory()
        let passwordFile = directory.appendingPathComponent("smtp-password").path
        #expect(FileManager.default.createFile(
            atPath: passwordFile, contents: Data("\(smtpPassword)\n".utf8), attributes: [.posixPermissions: 0o600]))
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: [
            "emailActions": ["appName": "Démo Hearth"],
            "email": [
                "from": "Démo Hearth <no-reply@example.com>",
                "smtp": [
                    "url": "smtp://127.0.0.1:\(sink.port)", "tls": "starttls", "caFile": sink.certificateFile,
                    "username": "hearth-test", "passwordFile": passwordFile,
                ],
            ],
        ]).write(to: config)
        // Proxies named in the environment are not used: through this one, nothing would arrive.
        let proxy = "socks5h://127.0.0.1:9"
        let server = HearthProcess(
            arguments: ["--dev", "--config", config.path], environment: ["all_proxy": proxy, "ALL_PROXY": proxy],
            dataDirectory: directory)
        try server.start()
        return server
    }

    /// `POST /identitytoolkit.googleapis.com/v1/accounts:<name>?key=…` as the web SDK sends it.
    static func call(_ server: HearthProcess, _ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=web-api-key", body,
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web")])
    }

    /// The action link in an email's text, and its `mode` and `oobCode`.
    static func link(in message: SMTPSink.Message) throws -> (url: URLComponents, mode: String, oobCode: String) {
        let text = try #require(message.text)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("http://") }, "no link in \(text)")
        let url = try #require(URLComponents(string: String(line)))
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        return (url, try #require(query["mode"]), try #require(query["oobCode"]))
    }

    @Test("sign-in link, verification, email change and password reset each arrive by SMTP and complete over HTTP")
    func everyAction() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.smtpPassword)))
        let server = try Self.server(sendingTo: sink)
        let email = "zoe.user@example.com"

        // EMAIL_SIGNIN: the link signs the user in (and up).
        let continueURL = "https://app.example.com/finish?from=email"
        let sent = try Self.call(server, "sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": continueURL, "canHandleCodeInApp": true,
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let signInMail = try #require(sink.waitForMessages(1).last)
        #expect(signInMail.tls && signInMail.login == "hearth-test")
        #expect(signInMail.recipients == [email] && signInMail.mailFrom == "no-reply@example.com")
        #expect(signInMail.from == "Démo Hearth <no-reply@example.com>")
        #expect(signInMail.subject == "Sign in to Démo Hearth requested at your email address")
        #expect(signInMail.html?.contains("Démo Hearth") == true)
        let signInLink = try Self.link(in: signInMail)
        #expect(signInLink.mode == "signIn" && signInLink.url.port == Int(server.port))
        #expect(try server.request("GET", signInLink.url.percentEncodedPath + "?" + (signInLink.url.percentEncodedQuery ?? "")).status < 400)
        let signedIn = try Self.call(server, "signInWithEmailLink", ["email": email, "oobCode": signInLink.oobCode])
        #expect(signedIn.status == 200, "\(signedIn.text)")
        let idToken = try #require(signedIn.json["idToken"] as? String)
        #expect(signedIn.json["email"] as? String == email)

        // VERIFY_EMAIL: applying the code marks the email verified.
        #expect(try Self.call(server, "sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": idToken]).status == 200)
        let verifyMail = try #require(sink.waitForMessages(2).last)
        #expect(verifyMail.recipients == [email] && verifyMail.subject == "Verify your email for Démo Hearth")
        let verifyLink = try Self.link(in: verifyMail)
        #expect(verifyLink.mode == "verifyEmail")
        let verified = try Self.call(server, "update", ["oobCode": verifyLink.oobCode])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(verified.json["emailVerified"] as? Bool == true)

        // VERIFY_AND_CHANGE_EMAIL: the link goes to the new address; applying it changes the account's email.
        let newEmail = "new.address@example.com"
        let change = try Self.call(server, "sendOobCode", [
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": newEmail,
        ])
        #expect(change.status == 200, "\(change.text)")
        let changeMail = try #require(sink.waitForMessages(3).last)
        #expect(changeMail.recipients == [newEmail])
        let changeLink = try Self.link(in: changeMail)
        #expect(changeLink.mode == "verifyAndChangeEmail")
        let changed = try Self.call(server, "update", ["oobCode": changeLink.oobCode])
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json["email"] as? String == newEmail)
        // … and the old address is told, with a link that would undo it.
        let recoverMail = try #require(sink.waitForMessages(4).last)
        #expect(recoverMail.recipients == [email])
        #expect(try Self.link(in: recoverMail).mode == "recoverEmail")

        // PASSWORD_RESET to the new address: the code sets a password once.
        #expect(try Self.call(server, "sendOobCode", ["requestType": "PASSWORD_RESET", "email": newEmail]).status == 200)
        let resetMail = try #require(sink.waitForMessages(5).last)
        #expect(resetMail.recipients == [newEmail] && resetMail.subject == "Reset your password for Démo Hearth")
        let resetLink = try Self.link(in: resetMail)
        #expect(resetLink.mode == "resetPassword")
        let reset = try Self.call(server, "resetPassword", ["oobCode": resetLink.oobCode, "newPassword": "a new Passw0rd!"])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(reset.json["email"] as? String == newEmail && reset.json["requestType"] as? String == "PASSWORD_RESET")
        let reused = try Self.call(server, "resetPassword", ["oobCode": resetLink.oobCode, "newPassword": "another Passw0rd!"])
        #expect(reused.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(reused.text)")

        #expect(sink.messages.count == 5)
        #expect(!server.lines.contains { $0.contains(Self.smtpPassword) })
    }

    @Test("when the SMTP server is gone, sendOobCode answers UNAVAILABLE after the retries and logs why, without the password")
    func serverGone() throws {
        let sink = try SMTPSink(.init(startTLS: true, credentials: ("hearth-test", Self.smtpPassword)))
        let server = try Self.server(sendingTo: sink)
        sink.stop()
        let sent = try Self.call(server, "sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": "gone@example.com", "continueUrl": "https://app.example.com/",
        ])
        #expect(sent.status == 503, "\(sent.text)")
        #expect((sent.json["error"] as? [String: Any])?["status"] as? String == "UNAVAILABLE", "\(sent.text)")
        #expect(server.waitForLine { $0.contains("failed after 3 attempts: could not connect") }, "\(server.lines)")
        #expect(server.waitForLine { $0.contains("event=email_not_delivered") && $0.contains("g***@example.com") })
        #expect(!server.lines.contains { $0.contains(Self.smtpPassword) })
    }
}
