import Foundation

/// A real SMTP server on an ephemeral loopback port: aiosmtpd (`Tests/Python/smtp_sink.py`) in the tests' Python
/// environment. It records every message it accepts; the process is stopped when the object goes away (or by
/// ``ServiceProcess/stop()``), and its folder (with the throwaway certificate) removed.
final class SMTPSink: ServiceProcess, @unchecked Sendable {
    struct Options {
        /// Offer STARTTLS with a self-signed certificate for 127.0.0.1 (``certificateFile``) and require it.
        var startTLS = false
        /// Require `AUTH` with these credentials (after STARTTLS when it is on).
        var credentials: (username: String, password: String)?
        /// Refuse `RCPT TO` addresses starting with this (550).
        var refusedRecipientPrefix: String?
        /// Answer 451 to the first this many messages.
        var temporaryFailures = 0
        /// Accept connections but never answer.
        var silent = false
    }

    /// One message the sink accepted: the envelope, the raw bytes, and what Python's `email` package reads in it.
    struct Message {
        var mailFrom: String
        var recipients: [String]
        var raw: Data
        /// Whether it came over TLS.
        var tls: Bool
        /// The user name it authenticated as.
        var login: String?
        var subject: String
        var from: String
        var to: String
        var messageID: String
        var text: String?
        var html: String?
    }

    static let readyPrefix = "SMTP sink listening on 127.0.0.1:"

    /// Starts the sink and waits until it listens.
    init(_ options: Options = Options()) throws {
        let directory = Self.temporaryDirectory()
        var arguments = [PythonClients.script("smtp_sink.py").path]
        if options.startTLS {
            try Self.makeCertificate(in: directory)
            arguments += ["--tls", directory.appendingPathComponent("cert.pem").path, directory.appendingPathComponent("key.pem").path]
        }
        if let credentials = options.credentials { arguments += ["--auth", credentials.username, credentials.password] }
        if let prefix = options.refusedRecipientPrefix { arguments += ["--refuse", prefix] }
        if options.temporaryFailures > 0 { arguments += ["--tempfail", String(options.temporaryFailures)] }
        if options.silent { arguments.append("--silent") }
        super.init(
            executable: try PythonClients.python.get(), dataDirectory: directory,
            readyPrefixes: [Self.readyPrefix]
        ) { [arguments] _, _ in arguments }
        try start()
    }

    /// The PEM certificate the sink presents with STARTTLS: the CA file a client must trust.
    var certificateFile: String { dataDirectory.appendingPathComponent("cert.pem").path }

    /// The messages accepted so far, oldest first.
    var messages: [Message] {
        lines.compactMap { line in
            guard line.hasPrefix("MESSAGE "),
                let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst("MESSAGE ".count).utf8)) as? [String: Any]
            else { return nil }
            return Message(
                mailFrom: object["mailFrom"] as? String ?? "", recipients: object["rcptTos"] as? [String] ?? [],
                raw: Data(base64Encoded: object["data"] as? String ?? "") ?? Data(), tls: object["tls"] as? Bool ?? false,
                login: object["login"] as? String, subject: object["subject"] as? String ?? "",
                from: object["from"] as? String ?? "", to: object["to"] as? String ?? "",
                messageID: object["messageId"] as? String ?? "", text: object["text"] as? String,
                html: object["html"] as? String)
        }
    }

    /// The messages once `count` have arrived (a bound against hangs, 30 s, not a timing assertion).
    func waitForMessages(_ count: Int) -> [Message] {
        let deadline = Date().addingTimeInterval(30)
        while messages.count < count, Date() < deadline { usleep(10_000) }
        return messages
    }

    /// A self-signed P-256 certificate for 127.0.0.1 and localhost, valid for a day, made with the `openssl` CLI.
    private static func makeCertificate(in directory: URL) throws {
        let result = try runProgramSplit(URL(fileURLWithPath: "/usr/bin/openssl"), [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", directory.appendingPathComponent("key.pem").path,
            "-out", directory.appendingPathComponent("cert.pem").path,
        ])
        guard result.status == 0 else { throw RawHTTP.Failure(description: "openssl req failed: \(result.stderr)") }
    }
}
