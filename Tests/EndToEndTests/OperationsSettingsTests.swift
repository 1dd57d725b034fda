import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `--shutdown-delay`, the operations settings of the config file, and the HTTP layer's refusals in `/metrics`.
@Suite("Shutdown delay, operations settings and refusal counts (e2e)", .blocking)
struct OperationsSettingsTests {
    @Test("--shutdown-delay: after SIGTERM /readyz is 503 but requests are still answered; a second SIGTERM ends the wait")
    func shutdownDelay() throws {
        let server = HearthProcess(arguments: ["--dev", "--shutdown-delay", "300"])
        try server.start()
        let pid = try #require(server.processIdentifier)
        kill(pid, SIGTERM)
        #expect(server.waitForLine { $0.contains("event=shutdown signal=SIGTERM delay_s=300") })
        let readiness = try server.request("GET", "/readyz")
        #expect(readiness.status == 503)
        #expect(readiness.json["reason"] as? String == "shutting down")
        // Still serving the API while load balancers take the instance out.
        let signIn = try FirebaseIOSClient(server: server).verifyAssertion(
            idToken: try DevGoogle(server: server).signIn(email: "draining@example.com").idToken, accessToken: nil)
        #expect(signIn.status == 200, "\(signIn.text)")

        kill(pid, SIGTERM)
        #expect(server.waitForLine { $0.contains("event=shutdown_delay_ended signal=SIGTERM") })
        #expect(server.stop() == 0)
        #expect(server.lines.contains { $0.contains("event=stopped") })
    }

    @Test("the config file sets the metrics port, the log format and the shutdown delay")
    func configFile() throws {
        let metricsPort = try OperationsTests.unusedPort()
        let directory = HearthProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("hearth.json")
        try Data(#"{"metrics": {"port": \#(metricsPort)}, "logFormat": "json", "shutdownDelaySeconds": 0}"#.utf8).write(to: file)
        let server = HearthProcess(arguments: ["--dev", "--config", file.path])
        try server.start()
        #expect(try server.request("GET", "/metrics").status == 404, "/metrics left the main port")
        #expect(try RawHTTP.send(port: metricsPort, method: "GET", path: "/metrics").status == 200)
        #expect(server.stop() == 0)
        #expect(server.lines.contains { $0.hasPrefix("{") && $0.contains(#""event":"stopped""#) })

        try Data(#"{"metrics": {"enabled": false}}"#.utf8).write(to: file)
        let off = HearthProcess(arguments: ["--dev", "--config", file.path])
        try off.start()
        #expect(try off.request("GET", "/metrics").status == 404, "metrics off: not served")
        #expect(off.stop() == 0)
    }

    @Test("bad operations settings are refused with a clear message")
    func badSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("hearth.json")
        for (json, message) in [
            (#"{"metrics": {"prot": 9099}}"#, "unknown setting 'metrics.prot'"),
            (#"{"shutdownDelaySeconds": 301}"#, "config shutdownDelaySeconds must be a number of seconds from 0 to 300"),
            (#"{"logFormat": "xml"}"#, "config logFormat must be text or json"),
        ] {
            try Data(json.utf8).write(to: file)
            let result = try HearthProcess.run(["serve", "--dev", "--config", file.path, "--data-dir", directory.path])
            #expect(result.status != 0 && result.output.contains(message), "\(json): \(result.output)")
        }
        let flag = try HearthProcess.run(["serve", "--dev", "--shutdown-delay", "-1"])
        #expect(flag.status != 0 && flag.output.contains("--shutdown-delay must be a number of seconds from 0 to 300"))
    }

    @Test("/metrics counts the refusals the HTTP layer makes before routing, by status")
    func refusalsCounted() throws {
        let server = HearthProcess(arguments: ["--dev"], environment: ["HEARTH_HTTP_MAX_BODY_BYTES": "1024"])
        try server.start()
        let oversized = try server.request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
            headers: [("Content-Type", "application/json")], body: Data(repeating: 0x20, count: 4096))
        #expect(oversized.status == 413)
        let samples = try OperationsTests.samples(try server.request("GET", "/metrics").text)
        #expect(samples[#"hearth_http_refusals_total{status="413"}"#] == 1)
        #expect(server.stop() == 0)
    }
}
