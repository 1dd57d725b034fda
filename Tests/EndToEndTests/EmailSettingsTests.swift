import Foundation
import Testing

/// `hearth serve` refuses unusable `email` settings at startup, saying which one and why.
@Suite("Email delivery settings", .blocking)
struct EmailSettingsTests {
    /// Runs `hearth serve --dev` with `config` as the config file (and `environment`); `files` are written next to it
    /// first (name → (contents, mode)). The data directory given is the config file itself, so that settings the
    /// server wrongly accepted end in "not a directory" (exit 1) instead of a server that never exits.
    static func serve(
        _ config: [String: Any], environment: [String: String] = [:], files: [String: (String, Int)] = [:]
    ) throws -> (status: Int32, output: String, directory: URL) {
        let directory = HearthProcess.temporaryDirectory()
        for (name, (contents, mode)) in files {
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: mode]))
        }
        let file = directory.appendingPathComponent("hearth.json")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
            .replacingOccurrences(of: "DIR", with: directory.path)
        try Data(text.utf8).write(to: file)
        let result = try HearthProcess.run(
            ["serve", "--dev", "--port", "0", "--config", file.path, "--data-dir", file.path],
            environment: environment)
        return (result.status, result.output, directory)
    }

    static let from = "Hearth <no-reply@example.com>"

    @Test("each unusable setting is refused with a message naming it", arguments: [
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com:25", "tls": "none"}}"#,
         "it is only allowed for a mail server on this machine"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com", "tls": "implicit"}}"#,
         "implicit needs an smtps:// URL"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtps://mail.example.com", "tls": "starttls"}}"#,
         "must be implicit (or left out)"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com", "tls": "sometimes"}}"#,
         "must be starttls, implicit or none"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "http://mail.example.com"}}"#,
         "must be smtp://host:port or smtps://host:port"),
        (#"{"smtp": {"url": "smtp://mail.example.com"}}"#, "email.from (HEARTH_EMAIL_FROM) is needed"),
        (#"{"from": "Hearth <no-reply>", "smtp": {"url": "smtp://mail.example.com"}}"#,
         "email.from (HEARTH_EMAIL_FROM): the From address"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com", "username": "u"}}"#,
         "go together"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com", "pasword": "x"}}"#,
         "unknown setting 'email.smtp.pasword'"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com", "caFile": "/nonexistent/ca.pem"}}"#,
         "cannot read /nonexistent/ca.pem"),
        (#"{"form": "Hearth <no-reply@example.com>"}"#, "unknown setting 'email.form'"),
        (#"{"from": "Hearth <no-reply@example.com>", "smtp": {"url": "smtp://mail.example.com"}, "webhook": {"url": "https://hooks.example.com/email"}}"#,
         "not both"),
        (#"{"webhook": {"url": "http://hooks.example.com/email"}}"#,
         "email.webhook.url (HEARTH_EMAIL_WEBHOOK_URL) must be an absolute https URL"),
        (#"{"webhook": {"secretFile": "/nonexistent/secret"}}"#, "email.webhook.url (HEARTH_EMAIL_WEBHOOK_URL) is missing"),
    ])
    func refused(email: String, message: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(email.utf8)) as? [String: Any])
        let result = try Self.serve(["email": object])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(result.status == 64)
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test("a password file others may read is refused, and an SMTP URL with a password in it is not echoed")
    func secretFiles() throws {
        let loose = try Self.serve(
            ["email": ["from": Self.from, "smtp": ["url": "smtp://mail.example.com", "username": "u", "passwordFile": "DIR/password"]]],
            files: ["password": ("hunter2-secret\n", 0o644)])
        defer { try? FileManager.default.removeItem(at: loose.directory) }
        #expect(loose.status == 1)
        #expect(loose.output.contains("SMTP password file \(loose.directory.path)/password is accessible to other users (mode 0644)"), "\(loose.output)")
        #expect(!loose.output.contains("hunter2"))

        let looseSecret = try Self.serve(
            ["email": ["webhook": ["url": "https://hooks.example.com/email", "secretFile": "DIR/secret"]]],
            files: ["secret": ("whsec\n", 0o640)])
        defer { try? FileManager.default.removeItem(at: looseSecret.directory) }
        #expect(looseSecret.status == 1)
        #expect(looseSecret.output.contains("email webhook secret file"), "\(looseSecret.output)")

        let inURL = try Self.serve(["email": ["from": Self.from, "smtp": ["url": "smtp://u:hunter2-secret@mail.example.com"]]])
        defer { try? FileManager.default.removeItem(at: inURL.directory) }
        #expect(inURL.status == 64)
        #expect(!inURL.output.contains("hunter2"), "\(inURL.output)")
    }

    @Test("environment variables configure SMTP and are checked the same way")
    func environment() throws {
        let refused = try Self.serve(
            [:], environment: ["HEARTH_SMTP_URL": "smtp://mail.example.com:25", "HEARTH_SMTP_TLS": "none", "HEARTH_EMAIL_FROM": Self.from])
        defer { try? FileManager.default.removeItem(at: refused.directory) }
        #expect(refused.status == 64)
        #expect(refused.output.contains("only allowed for a mail server on this machine"), "\(refused.output)")
        let noFrom = try Self.serve([:], environment: ["HEARTH_SMTP_URL": "smtp://mail.example.com"])
        defer { try? FileManager.default.removeItem(at: noFrom.directory) }
        #expect(noFrom.output.contains("HEARTH_EMAIL_FROM"), "\(noFrom.output)")
    }

    @Test("usable SMTP and webhook settings start the server")
    func accepted() throws {
        for email: [String: Any] in [
            ["from": Self.from, "smtp": ["url": "smtp://127.0.0.1:2525", "tls": "none"]],
            ["from": Self.from, "smtp": ["url": "smtps://mail.example.com", "username": "u", "passwordFile": "DIR/password"]],
            ["webhook": ["url": "https://hooks.example.com/email", "secretFile": "DIR/password"]],
        ] {
            let directory = HearthProcess.temporaryDirectory()
            let password = directory.appendingPathComponent("password").path
            #expect(FileManager.default.createFile(atPath: password, contents: Data("pw\n".utf8), attributes: [.posixPermissions: 0o600]))
            let config = directory.appendingPathComponent("hearth.json")
            let text = String(decoding: try JSONSerialization.data(withJSONObject: ["email": email]), as: UTF8.self)
                .replacingOccurrences(of: "DIR", with: directory.path)
            try Data(text.utf8).write(to: config)
            let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
            try server.start()
            #expect(try server.request("GET", "/demo-hearth/.well-known/openid-configuration").status == 200)
        }
    }
}
