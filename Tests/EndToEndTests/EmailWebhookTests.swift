import Foundation
import HearthHTTP
import Testing

/// The email webhook's structured body on the built server: what the email is for, so a team can render and send it
/// with its own service and templates.
@Suite("Email webhook: the action's fields beside the rendered text (e2e)", .blocking)
struct EmailWebhookTests {
    @Test("sendOobCode as the JS SDK sends it (X-Firebase-Locale): kind, code, link and locale reach the receiver, and the code works")
    func structuredBody() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: [
            "email": ["from": "Hearth <no-reply@example.com>", "webhook": ["url": "http://127.0.0.1:\(receiver.port)/email"]],
        ]).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
        try server.start()
        let v1 = "/identitytoolkit.googleapis.com/v1"
        let created = try server.postJSON(
            "\(v1)/accounts:signUp?key=web-key", ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
        #expect(created.status == 200, "\(created.text)")

        let send = try server.postJSON(
            "\(v1)/accounts:sendOobCode?key=web-key",
            ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "continueUrl": "http://localhost/done"],
            headers: [("X-Firebase-Locale", "fr-CA")])
        #expect(send.status == 200, "\(send.text)")
        let body = try #require(receiver.bodies.last)
        let message = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(message["to"] == "ada@example.com" && message["kind"] == "PASSWORD_RESET" && message["locale"] == "fr-CA")
        #expect(message["subject"] == "Réinitialisez votre mot de passe pour demo-hearth", "in the request's language")
        let code = try #require(message["code"])
        #expect(message["link"]?.contains("oobCode=\(code)") == true && message["text"]?.contains(message["link"] ?? "-") == true)
        #expect(message["newEmail"] == nil)
        let reset = try server.postJSON("\(v1)/accounts:resetPassword?key=web-key", ["oobCode": code, "newPassword": "new horse!"])
        #expect(reset.status == 200, "the code the webhook got is the live one: \(reset.text)")

        // A header that is no language tag is left out, never passed on.
        _ = try server.postJSON(
            "\(v1)/accounts:sendOobCode?key=web-key", ["requestType": "PASSWORD_RESET", "email": "ada@example.com"],
            headers: [("X-Firebase-Locale", "fr\"><script>")])
        let last = try #require(receiver.bodies.last)
        let second = try #require(try JSONSerialization.jsonObject(with: last) as? [String: String])
        #expect(second["kind"] == "PASSWORD_RESET" && second["locale"] == nil && receiver.bodies.count == 2)

        // A custom action handler (Node's updateProjectConfig shape): the links open it.
        let patched = try server.request(
            "PATCH", "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/config?updateMask=notification.sendEmail.callbackUri",
            headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
            body: Data(#"{"notification":{"sendEmail":{"callbackUri":"https://app.example.com/auth/action"}}}"#.utf8))
        #expect(patched.status == 200, "\(patched.text)")
        _ = try server.postJSON(
            "\(v1)/accounts:sendOobCode?key=web-key", ["requestType": "PASSWORD_RESET", "email": "ada@example.com"],
            headers: [("X-Firebase-Locale", "de")])
        let newest = try #require(receiver.bodies.last)
        let third = try #require(try JSONSerialization.jsonObject(with: newest) as? [String: String])
        #expect(third["link"]?.hasPrefix("https://app.example.com/auth/action?mode=resetPassword&oobCode=") == true, "\(third)")
        #expect(third["link"]?.hasSuffix("&lang=de") == true)
        #expect(server.stop() == 0)
    }
}
