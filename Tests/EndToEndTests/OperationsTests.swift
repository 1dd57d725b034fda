import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `/metrics`, `/healthz`, `/readyz` and `--log-format json` against the real binary.
@Suite("Metrics, health and logs (e2e)", .blocking)
struct OperationsTests {
    static let verifyAssertion = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion"
    static let token = "/securetoken.googleapis.com/v1/token"

    @Test("after known traffic, /metrics counts exactly that traffic, by route pattern, and shows no request value")
    func countsKnownTraffic() throws {
        let server = HearthProcess(arguments: ["--dev", "--threads", "7"])
        try server.start()
        let client = FirebaseIOSClient(server: server)
        var sessions: [SignedIn] = []
        for index in 1...3 {
            let google = try DevGoogle(server: server).signIn(email: "metrics\(index)@example.com")
            sessions.append(try SignedIn(client.verifyAssertion(idToken: google.idToken, accessToken: nil)))
        }
        for _ in 1...2 {
            #expect(try client.refresh("not-a-refresh-token").errorMessage == "INVALID_REFRESH_TOKEN")
        }
        #expect(try client.refresh(sessions[0].refreshToken).status == 200)
        let unknownProvider = try client.verifyAssertion(
            postBody: [URLQueryItem(name: "providerId", value: "example.org"), URLQueryItem(name: "id_token", value: "x")],
            linking: nil)
        #expect(unknownProvider.status == 400)
        let start = try server.postJSON(
            "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start?key=k",
            ["idToken": sessions[1].idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"]])
        #expect(start.status == 200, "\(start.text)")
        let clients = EmailActionClients(server: server)
        _ = try clients.createUser(["email": "mail@example.com", "password": "correct horse battery"])
        let reset = try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "mail@example.com"])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(try server.request("GET", "/no/such/secret-path-value").status == 404)

        let scrape = try server.request("GET", "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let samples = try Self.samples(scrape.text)
        func value(_ series: String) -> Double? { samples[series] }

        #expect(value(#"hearth_sign_ins_total{provider="google.com",outcome="success"}"#) == 3)
        #expect(value(#"hearth_sign_ins_total{provider="unknown",outcome="OPERATION_NOT_ALLOWED"}"#) == 1)
        #expect(value(#"hearth_token_refreshes_total{outcome="INVALID_REFRESH_TOKEN"}"#) == 2)
        #expect(value(#"hearth_token_refreshes_total{outcome="success"}"#) == 1)
        #expect(value(#"hearth_mfa_operations_total{step="enrollment_start",outcome="success"}"#) == 1)
        #expect(value(#"hearth_deliveries_total{channel="sms",sender="development",outcome="success"}"#) == 1)
        #expect(value(#"hearth_deliveries_total{channel="email",sender="development",outcome="success"}"#) == 1)
        #expect(value("hearth_http_requests_total{route=\"\(Self.verifyAssertion)\",method=\"POST\",status_class=\"2xx\"}") == 3)
        #expect(value("hearth_http_requests_total{route=\"\(Self.verifyAssertion)\",method=\"POST\",status_class=\"4xx\"}") == 1)
        #expect(value("hearth_http_requests_total{route=\"\(Self.token)\",method=\"POST\",status_class=\"4xx\"}") == 2)
        #expect(value("hearth_http_request_duration_seconds_count{route=\"\(Self.verifyAssertion)\",method=\"POST\"}") == 4)
        #expect(value("hearth_http_request_duration_seconds_bucket{route=\"\(Self.verifyAssertion)\",method=\"POST\",le=\"+Inf\"}") == 4)
        #expect(value(#"hearth_http_requests_total{route="unmatched",method="GET",status_class="4xx"}"#) == 1)
        #expect(value(#"hearth_http_handlers_in_flight"#) == 1, "the scrape itself")
        #expect(value(#"hearth_http_worker_threads"#) == 7)
        #expect((value(#"hearth_store_transaction_duration_seconds_count{kind="write"}"#) ?? 0) >= 3)
        #expect((value(#"hearth_store_transaction_duration_seconds_count{kind="read"}"#) ?? 0) >= 1)
        #expect(value(#"hearth_store_transaction_retries_total"#) == 0)
        #expect((value("hearth_signing_key_age_seconds") ?? -1) >= 0)
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((value("process_open_fds") ?? 0) >= 3)

        for secret in ["secret-path-value", "not-a-refresh-token", sessions[0].refreshToken, sessions[0].idToken, "metrics1@example.com"] {
            #expect(!scrape.text.contains(secret))
        }
    }

    @Test("/healthz and /readyz answer on the main port; /metrics is refused to a relayed client and without the token")
    func accessOnTheMainPort() throws {
        let server = HearthProcess(arguments: ["--dev"])
        try server.start()
        #expect(try server.request("GET", "/healthz").json["status"] as? String == "alive")
        let ready = try server.request("GET", "/readyz")
        #expect(ready.status == 200 && ready.json["status"] as? String == "ready", "\(ready.text)")
        #expect(try server.request("GET", "/metrics", headers: [("X-Forwarded-For", "203.0.113.9")]).status == 403)
        #expect(try server.request("GET", "/metrics", headers: [("Origin", "https://evil.example")]).status == 403,
                "a page on another site cannot read a developer's metrics")

        let guarded = HearthProcess(arguments: ["--dev"], environment: ["HEARTH_METRICS_TOKEN": "scrape-secret"])
        try guarded.start()
        let missing = try guarded.request("GET", "/metrics")
        #expect(missing.status == 401 && missing.header("WWW-Authenticate") == "Bearer")
        #expect(try guarded.request("GET", "/metrics", headers: [("Authorization", "Bearer scrape-secre")]).status == 401)
        let allowed = try guarded.request("GET", "/metrics", headers: [("Authorization", "Bearer scrape-secret")])
        #expect(allowed.status == 200 && allowed.text.contains("hearth_http_requests_total"))

        let production = HearthProcess(
            arguments: ["--project-id", "metrics-prod"],
            environment: ["HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"])
        try production.start()
        #expect(try production.request("GET", "/metrics").status == 404, "not served without a token or a management port")
        #expect(try production.request("GET", "/readyz").status == 200)
    }

    @Test("--metrics-port: /metrics moves to the management port; HEARTH_METRICS=off serves none")
    func managementPort() throws {
        let metricsPort = try Self.unusedPort()
        let server = HearthProcess(arguments: ["--dev", "--metrics-port", String(metricsPort)])
        try server.start()
        #expect(try server.request("GET", "/metrics").status == 404)
        _ = try server.request("GET", "/healthz")
        let scrape = try RawHTTP.send(port: metricsPort, method: "GET", path: "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.text.contains(#"hearth_http_requests_total{route="/healthz",method="GET",status_class="2xx"} 1"#))
        #expect(try RawHTTP.send(port: metricsPort, method: "GET", path: "/readyz").status == 200)
        #expect(try RawHTTP.send(port: metricsPort, method: "GET", path: "/v1/token").status == 404)

        let off = HearthProcess(arguments: ["--dev"], environment: ["HEARTH_METRICS": "off"])
        try off.start()
        #expect(try off.request("GET", "/metrics").status == 404)
        #expect(try off.request("GET", "/readyz").status == 200)
    }

    @Test("/readyz is 503 while another process holds the database's write lock, and 200 again once it lets go")
    func readinessFollowsTheStore() throws {
        let server = HearthProcess(arguments: ["--dev"])
        try server.start()
        #expect(try server.request("GET", "/readyz").status == 200)
        let database = server.dataDirectory.appendingPathComponent("hearth.sqlite").path
        let locker = try LockHolder(database: database)
        defer { locker.release() }
        let refused = Self.poll { try server.request("GET", "/readyz") } until: { $0.status == 503 }
        #expect(refused?.json["status"] as? String == "not ready")
        #expect((refused?.json["reason"] as? String)?.hasPrefix("store does not accept writes") == true, "\(refused?.text ?? "")")
        locker.release()
        #expect(Self.poll { try server.request("GET", "/readyz") } until: { $0.status == 200 } != nil)
    }

    @Test("on SIGTERM /readyz turns 503 at once while an in-flight request finishes, then the process exits 0")
    func readinessDuringShutdown() throws {
        let metricsPort = try Self.unusedPort()
        let webhook = try HeldWebhook()
        let server = HearthProcess(
            arguments: ["--dev", "--metrics-port", String(metricsPort)],
            environment: ["HEARTH_SMS_WEBHOOK_URL": "http://127.0.0.1:\(webhook.port)/sms"])
        try server.start()
        #expect(try RawHTTP.send(port: metricsPort, method: "GET", path: "/readyz").status == 200)
        let session = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(
            idToken: try DevGoogle(server: server).signIn(email: "draining@example.com").idToken, accessToken: nil))
        // An SMS enrolment whose delivery the webhook holds: its handler is in flight until the webhook answers.
        let answer = Locked<HTTPResult?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answer.withLock { $0 = try? server.postJSON(
                "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start?key=k",
                ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550101"]]) }
            finished.signal()
        }
        #expect(webhook.waitForRequest(), "the enrolment reached the webhook")

        let pid = try #require(server.processIdentifier)
        kill(pid, SIGTERM)
        #expect(server.waitForLine { $0.contains("event=shutdown signal=SIGTERM") })
        let draining = try RawHTTP.send(port: metricsPort, method: "GET", path: "/readyz")
        #expect(draining.status == 503)
        #expect(draining.json["reason"] as? String == "shutting down")

        webhook.release()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(answer.value?.status == 200, "the in-flight request was answered: \(answer.value?.text ?? "nothing")")
        #expect(server.stop() == 0)
    }

    @Test("--log-format json: every request and event line is one JSON object with today's fields, and no token")
    func jsonLogs() throws {
        let server = HearthProcess(arguments: ["--dev", "--log-format", "json"])
        try server.start()
        let google = try DevGoogle(server: server).signIn(email: "json-log@example.com")
        let session = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(idToken: google.idToken, accessToken: nil))
        #expect(try FirebaseIOSClient(server: server).refresh(session.refreshToken).status == 200)
        _ = try FirebaseIOSClient(server: server).refresh("bad-refresh-token")
        #expect(server.stop() == 0)

        let logLines = server.lines
        #expect(!logLines.contains { $0.hasPrefix("method=") || $0.hasPrefix("event=") }, "no text request or event line")
        let objects = try logLines.filter { $0.hasPrefix("{") }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let requests = objects.filter { $0["method"] != nil }
        let refresh = try #require(requests.first { $0["path"] as? String == Self.token && $0["status"] as? Int == 200 })
        #expect(Set(refresh.keys) == ["method", "path", "status", "duration_us", "request_bytes", "response_bytes", "remote"])
        #expect(refresh["remote"] as? String == "127.0.0.1")
        #expect(refresh["duration_us"] is Int)
        #expect(objects.contains { $0["event"] as? String == "shutdown" && $0["signal"] as? String == "SIGTERM" })
        #expect(objects.contains { $0["event"] as? String == "stopped" })
        for secret in [session.refreshToken, session.idToken, google.idToken, google.accessToken, "bad-refresh-token"] {
            #expect(!logLines.contains { $0.contains(secret) })
        }
    }

    @Test("bad --log-format and --metrics-port values are refused with a clear message")
    func badSettings() throws {
        let format = try HearthProcess.run(["serve", "--dev", "--log-format", "xml"])
        #expect(format.status != 0 && format.output.contains("--log-format must be text or json"))
        let port = try HearthProcess.run(["serve", "--dev", "--metrics-port", "0"])
        #expect(port.status != 0 && port.output.contains("--metrics-port must be a port number"))
    }

    // MARK: - Helpers

    /// Every sample line of an exposition, keyed by its series (`name{labels}`); throws on a malformed line.
    static func samples(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw RawHTTP.Failure(description: "malformed sample line: \(line)")
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// `request` repeated until `done` holds (at most 30 s): a bound against hangs, not a timing assertion.
    static func poll(_ request: () throws -> HTTPResult, until done: (HTTPResult) -> Bool) -> HTTPResult? {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let result = try? request(), done(result) { return result }
            usleep(100_000)
        }
        return nil
    }

    /// A TCP port nothing listens on right now.
    static func unusedPort() throws -> UInt16 {
        let (fd, port) = try boundLoopbackSocket()
        close(fd)
        return port
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and that port.
    static func boundLoopbackSocket() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw RawHTTP.Failure(description: "no free port")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}

/// Another process (Python's sqlite3) holding the database's write lock (`BEGIN IMMEDIATE`) until released.
private final class LockHolder {
    private let process = Process()
    private let input = Pipe()

    init(database: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.readline()",
            database,
        ]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("locked") else { throw RawHTTP.Failure(description: "python3 could not lock the database: \(line)") }
    }

    func release() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("\n".utf8))
        process.waitUntilExit()
    }
}

/// An SMS webhook that takes one request and answers 200 only when released.
private final class HeldWebhook: Sendable {
    private let listener: Int32
    let port: UInt16
    private let received = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init() throws {
        (listener, port) = try OperationsTests.boundLoopbackSocket()
        guard listen(listener, 4) == 0 else {
            close(listener)
            throw RawHTTP.Failure(description: "webhook cannot listen")
        }
        Thread.detachNewThread { [self] in serveOne() }
    }

    deinit {
        released.signal()
        close(listener)
    }

    /// Whether the request arrived (within 30 s).
    func waitForRequest() -> Bool { received.wait(timeout: .now() + 30) == .success }

    func release() { released.signal() }

    private func serveOne() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !Self.isComplete(request) {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            request.append(contentsOf: buffer[0..<count])
        }
        received.signal()
        released.wait()
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = answer.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether `request` holds a whole header block and the body its `Content-Length` announces.
    private static func isComplete(_ request: Data) -> Bool {
        guard let end = request.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
        let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return request.count - end.upperBound >= length
    }
}
