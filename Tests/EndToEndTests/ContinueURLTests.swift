import Foundation
import Testing

/// Continue URLs as browsers read them, against a production `hearth serve` (no `--dev`, authorized domains
/// configured) whose email goes to a local SMTP server, with the table of URLs that browsers and RFC 3986 parsers read
/// differently (`Tests/Fixtures/browser-urls.json`): `sendOobCode` refuses every URL the table refuses, for each
/// request type, and sends nothing; a real Chromium reads each URL with the host the table says, and the genuine
/// link of an accepted continue URL ends on its authorized host.
@Suite("Continue URLs as browsers read them (e2e)", .blocking, .serialized)
struct ContinueURLTests {
    struct Row: Decodable {
        var url: String
        var verdict: String
        var browser: String?
    }

    static let apiKey = "continue-url-key"
    /// The configured authorized domains, with the ones every project has (`localhost`, `127.0.0.1`, the public host).
    static let authorizedDomains: Set<String> = ["good.example", "app.example.com", "localhost", "127.0.0.1"]

    static func table() throws -> [Row] {
        struct Table: Decodable { var rows: [Row] }
        let file = PythonClients.repository.appendingPathComponent("Tests/Fixtures/browser-urls.json")
        return try JSONDecoder().decode(Table.self, from: Data(contentsOf: file)).rows
    }

    /// A production server (API key and a Google client ID configured, no `--dev`) sending email to `sink`.
    static func server(sendingTo sink: SMTPSink) throws -> HearthProcess {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: [
            "emailActions": [
                "authorizedDomains": ["good.example", "app.example.com"], "sendsPerEmailPerHour": 1_000,
                "sendsPerClientPerHour": 1_000, "emailChangesPerAccountPerHour": 1_000,
                "emailChangesPerClientPerHour": 1_000,
            ],
            "email": ["from": "Hearth <no-reply@example.com>", "smtp": ["url": "smtp://127.0.0.1:\(sink.port)", "tls": "none"]],
        ]).write(to: config)
        let server = HearthProcess(
            arguments: ["--project-id", "continue-prod", "--config", config.path],
            environment: ["HEARTH_API_KEYS": apiKey, "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"],
            dataDirectory: directory)
        try server.start()
        return server
    }

    /// `POST /v1/accounts:<name>` as the web SDK sends it.
    static func call(_ server: HearthProcess, _ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=\(apiKey)", body,
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web"), ("Origin", "http://localhost:5173")])
    }

    /// The bodies of each request type that takes a continue URL, for a signed-up user.
    static func requests(_ server: HearthProcess) throws -> [[String: Any]] {
        let signedUp = try call(server, "signUp", ["email": "victim@example.com", "password": "a long passphrase", "returnSecureToken": true])
        let idToken = try #require(signedUp.json["idToken"] as? String, "\(signedUp.text)")
        return [
            ["requestType": "EMAIL_SIGNIN", "email": "victim@example.com", "canHandleCodeInApp": true],
            ["requestType": "PASSWORD_RESET", "email": "victim@example.com"],
            ["requestType": "VERIFY_EMAIL", "idToken": idToken],
            ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "new@example.com"],
        ]
    }

    /// The action link in an email's text.
    static func link(in message: SMTPSink.Message) throws -> String {
        let text = try #require(message.text)
        return try #require(text.split(separator: "\n").first { $0.hasPrefix("http://") }.map(String.init), "no link in \(text)")
    }

    /// The `continueUrl` an action link carries.
    static func continueURL(of link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "continueUrl" }?.value
    }

    /// `host` of `host[:port]` (IPv6 in brackets).
    static func withoutPort(_ host: String) -> String {
        let end = host.hasPrefix("[") ? host.firstIndex(of: "]").map { host.index(after: $0) } : host.firstIndex(of: ":")
        return String(host[..<(end ?? host.endIndex)])
    }

    @Test("every continue URL of the table that browsers could read with another host is INVALID_CONTINUE_URI for each request type, nothing sent; accepted ones are sent to authorized hosts only")
    func sendOobCodeRefusesTheTable() throws {
        let sink = try SMTPSink()
        let server = try Self.server(sendingTo: sink)
        let requests = try Self.requests(server)
        let rows = try Self.table()
        var sent: [String] = []
        for row in rows {
            let authorized = row.verdict == "accept" && Self.authorizedDomains.contains(Self.withoutPort(row.browser ?? ""))
            for var body in requests {
                body["continueUrl"] = row.url
                let answer = try Self.call(server, "sendOobCode", body)
                let what = "\(body["requestType"] ?? "") \(row.url.debugDescription)"
                if row.verdict != "accept" {
                    // A NUL is refused before, by the JSON reader (`INVALID_ARGUMENT`).
                    let refused = answer.wireError.hasPrefix("INVALID_CONTINUE_URI : ")
                        || row.url.contains("\u{0}") && answer.wireError.hasPrefix("Invalid JSON payload received.")
                    #expect(answer.status == 400 && refused, "\(what): \(answer.text)")
                } else if !authorized {
                    #expect(answer.wireError == "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project", "\(what): \(answer.text)")
                } else {
                    #expect(answer.status == 200, "\(what): \(answer.text)")
                    sent.append(row.url)
                }
            }
        }
        #expect(sent.count >= 4 * 15)
        // Delivery is synchronous, so every email asked for has reached the sink's log, or is about to.
        let messages = sink.waitForMessages(sent.count)
        #expect(messages.count == sent.count)
        #expect(try messages.map { Self.continueURL(of: try Self.link(in: $0)) ?? "" } == sent)
        #expect(server.stop() == 0)
    }

    @Test("in Chromium: every URL of the table has the host the table says; the genuine sign-in link ends on its authorized host, the issue's attack has no link")
    func chromium() throws {
        let sink = try SMTPSink()
        let server = try Self.server(sendingTo: sink)
        let attack = try Self.call(server, "sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": "victim@example.com", "canHandleCodeInApp": true,
            "continueUrl": "http://ATTACKER\\@localhost:\(server.port)/finish",
        ])
        #expect(attack.wireError.hasPrefix("INVALID_CONTINUE_URI : "), "\(attack.text)")
        let genuine = "http://localhost:\(server.port)/finish?from=email"
        let sent = try Self.call(server, "sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": "victim@example.com", "canHandleCodeInApp": true, "continueUrl": genuine,
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let messages = sink.waitForMessages(1)
        #expect(messages.count == 1)
        let link = try Self.link(in: try #require(messages.first))
        #expect(Self.continueURL(of: link) == genuine)

        let rows = try Self.table()
        let urls = server.dataDirectory.appendingPathComponent("urls.json")
        try JSONSerialization.data(withJSONObject: rows.map(\.url)).write(to: urls)
        try PythonClients.browser.get()
        let facts = try PythonClients.run("browser_urls.py", [urls.path, link])
        let hosts = try #require(facts["hosts"] as? [Any])
        #expect(hosts.count == rows.count)
        for (row, host) in zip(rows, hosts) {
            #expect((host as? String) == row.browser, "Chromium reads \(row.url.debugDescription) with host \(host)")
        }
        let landed = try #require((facts["landed"] as? [String])?.first)
        #expect(landed.hasPrefix(genuine + "&"), "\(landed)")
        #expect(URLComponents(string: landed)?.host == "localhost")
        #expect(landed.contains("mode=signIn") && landed.contains("oobCode="))
        #expect(server.stop() == 0)
    }
}
