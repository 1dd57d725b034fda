import Foundation
import HearthCommandLine
import HearthCore
import HearthServer
import SMTP

extension Settings {
    /// `"email": {"from": "Hearth <no-reply@example.com>", "smtp": {…}}` or `{"webhook": {…}}`
    /// (docs/CONFIGURATION.md, "Email delivery").
    struct EmailSettings: Decodable {
        var from: String?
        var smtp: SMTPSettings?
        var webhook: WebhookSettings?

        static let keys: Set<String> = ["from", "smtp", "webhook"]
    }

    /// `"smtp": {"url": "smtp://mail.example.com:587", "tls": "starttls", "username": "…", "passwordFile": "/path",
    /// "caFile": "/path/ca.pem"}`.
    struct SMTPSettings: Decodable {
        var url: String?
        /// `starttls` (the default for `smtp://`), `implicit` (for `smtps://`) or `none` (loopback hosts only).
        var tls: String?
        var username: String?
        /// An owner-only file holding the password (one line).
        var passwordFile: String?
        var caFile: String?

        static let keys: Set<String> = ["url", "tls", "username", "passwordFile", "caFile"]
    }

    /// `"webhook": {"url": "https://…", "secretFile": "/path"}`: the JSON webhook, signed with the secret in the file.
    struct WebhookSettings: Decodable {
        var url: String?
        var secretFile: String?

        static let keys: Set<String> = ["url", "secretFile"]
    }

    /// The `email` object of the config file; unknown keys inside it are an error.
    mutating func applyEmail(_ fileEmail: EmailSettings?, fileObject: [String: Any], path: String) throws {
        guard let fileEmail else { return }
        try Self.checkKeys(of: "email", in: fileObject, known: EmailSettings.keys, path: path)
        let emailObject = fileObject["email"] as? [String: Any] ?? [:]
        try Self.checkKeys(of: "smtp", in: emailObject, known: SMTPSettings.keys, path: path, prefix: "email.")
        try Self.checkKeys(of: "webhook", in: emailObject, known: WebhookSettings.keys, path: path, prefix: "email.")
        email = fileEmail
    }

    /// `HEARTH_EMAIL_FROM`, `HEARTH_SMTP_*` and `HEARTH_EMAIL_WEBHOOK_*`, over the config file's values.
    mutating func applyEmail(environment: [String: String]) {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        email.from = nonEmpty("HEARTH_EMAIL_FROM") ?? email.from
        /// The section with each set variable's value at its field; a section is made when one is set.
        func overridden<Section>(
            _ section: Section?, empty: Section, _ variables: [(WritableKeyPath<Section, String?>, String)]
        ) -> Section? {
            var result = section
            for (field, name) in variables {
                guard let value = nonEmpty(name) else { continue }
                var changed = result ?? empty
                changed[keyPath: field] = value
                result = changed
            }
            return result
        }
        email.smtp = overridden(email.smtp, empty: SMTPSettings(), [
            (\.url, "HEARTH_SMTP_URL"), (\.tls, "HEARTH_SMTP_TLS"), (\.username, "HEARTH_SMTP_USERNAME"),
            (\.passwordFile, "HEARTH_SMTP_PASSWORD_FILE"), (\.caFile, "HEARTH_SMTP_CA_FILE"),
        ])
        email.webhook = overridden(email.webhook, empty: WebhookSettings(), [
            (\.url, "HEARTH_EMAIL_WEBHOOK_URL"), (\.secretFile, "HEARTH_EMAIL_WEBHOOK_SECRET_FILE"),
        ])
    }

    /// The configured email sender (SMTP or the webhook), nil when none is configured. Reads the password and
    /// secret files.
    /// - Throws: `UsageError` or `StartupError` saying which setting is wrong.
    func emailSender() throws -> (any EmailSender)? {
        switch (email.smtp, email.webhook) {
        case (nil, nil):
            return nil
        case (_?, _?):
            throw UsageError("email: configure email.smtp (HEARTH_SMTP_*) or email.webhook (HEARTH_EMAIL_WEBHOOK_*), not both")
        case (let smtp?, nil):
            guard let fromText = email.from else {
                throw UsageError("email.from (HEARTH_EMAIL_FROM) is needed to send email over SMTP, e.g. 'Hearth <no-reply@example.com>'")
            }
            let from: MailAddress
            do {
                from = try MailAddress(parsing: fromText, field: "From")
            } catch {
                throw UsageError("email.from (HEARTH_EMAIL_FROM): \(error); write 'Name <address@domain>' or 'address@domain'")
            }
            return SMTPEmailSender(server: try Self.smtpServer(smtp), from: from)
        case (nil, let webhook?):
            guard let urlText = webhook.url else {
                throw UsageError("email.webhook.url (HEARTH_EMAIL_WEBHOOK_URL) is missing")
            }
            let url = try Self.providerURL(urlText, setting: "email.webhook.url (HEARTH_EMAIL_WEBHOOK_URL)")
            let secret = try webhook.secretFile.map {
                try Self.secretLine(readOwnerOnlyFile($0, what: "email webhook secret file"), file: $0)
            }
            return WebhookEmailSender(url: url, secret: secret)
        }
    }

    /// The email settings in effect must be usable, wherever each came from: checked at startup by building the
    /// sender once.
    func checkEmail() throws {
        _ = try emailSender()
    }

    private static func smtpServer(_ smtp: SMTPSettings) throws -> SMTPServer {
        guard let text = smtp.url else { throw UsageError("email.smtp.url (HEARTH_SMTP_URL) is missing") }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), scheme == "smtp" || scheme == "smtps",
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.path.isEmpty || url.path == "/",
            url.query == nil, url.fragment == nil
        else {
            // The value is not repeated: it might hold a password.
            throw UsageError(
                "email.smtp.url (HEARTH_SMTP_URL) must be smtp://host:port or smtps://host:port, with no user, "
                    + "password, path or query (credentials go in email.smtp.username and passwordFile)")
        }
        let security: SMTPServer.Security
        switch (scheme, smtp.tls?.lowercased()) {
        case ("smtp", nil), ("smtp", "starttls"): security = .startTLS
        case ("smtps", nil), ("smtps", "implicit"): security = .implicitTLS
        case ("smtp", "none"): security = .none
        case ("smtp", "implicit"):
            throw UsageError("email.smtp.tls implicit needs an smtps:// URL (usually port 465)")
        case ("smtps", _):
            throw UsageError("email.smtp.tls must be implicit (or left out) with an smtps:// URL")
        default:
            throw UsageError("email.smtp.tls (HEARTH_SMTP_TLS) must be starttls, implicit or none, not '\(smtp.tls ?? "")'")
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if security == .none, !isLoopback(bareHost) {
            throw UsageError(
                "email.smtp.tls none sends the password and the action codes in clear text: it is only allowed for a "
                    + "mail server on this machine (127.0.0.1, ::1 or localhost), not \(host)")
        }
        var credentials: (username: String, password: String)?
        switch (smtp.username, smtp.passwordFile) {
        case (nil, nil): credentials = nil
        case (let username?, let file?):
            credentials = (username, try secretLine(readOwnerOnlyFile(file, what: "SMTP password file"), file: file))
        default:
            throw UsageError("email.smtp.username and email.smtp.passwordFile (HEARTH_SMTP_USERNAME, HEARTH_SMTP_PASSWORD_FILE) go together")
        }
        if let caFile = smtp.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw UsageError("email.smtp.caFile (HEARTH_SMTP_CA_FILE): cannot read \(caFile)")
        }
        return SMTPServer(
            host: bareHost, port: url.port ?? (security == .implicitTLS ? 465 : 587), security: security,
            credentials: credentials, caFile: smtp.caFile)
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    /// The file's text without its final line break; empty is refused.
    private static func secretLine(_ text: String, file: String) throws -> String {
        var line = Substring(text)
        if line.last?.isNewline == true { line.removeLast() }
        guard !line.isEmpty else { throw UsageError("\(file) is empty") }
        return String(line)
    }
}
