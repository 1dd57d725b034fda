import Foundation
import Testing

/// Connection and memory exhaustion against the built `hearth serve --dev`: the attacks an
/// adversarial review ran (issue 7 §3), sized to finish in seconds. Attackers connect from
/// 127.0.0.2 and up; the legitimate client, from 127.0.0.1, signs in before the attack and then
/// looks up its account during it, as the Firebase SDKs do.
@Suite("Connection and memory exhaustion (e2e)", .blocking, .serialized)
struct ConnectionLimitTests {
    private static let lookupHead = "POST /identitytoolkit.googleapis.com/v1/accounts:lookup?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\n"

    /// A signed-in legitimate user of `server`.
    private struct LegitimateClient {
        let client: FirebaseIOSClient
        let idToken: String

        init(server: HearthProcess) throws {
            client = FirebaseIOSClient(server: server)
            let google = try DevGoogle(server: server).signIn(email: "legit@example.com")
            idToken = try SignedIn(client.verifyAssertion(idToken: google.idToken, accessToken: nil)).idToken
        }

        /// Looks the account up `count` times at once; returns how many got their account back (200).
        func lookUp(count: Int) -> Int {
            let served = Locked(0)
            let group = DispatchGroup()
            for _ in 0..<count {
                group.enter()
                Thread { [client, idToken] in
                    if let result = try? client.getAccountInfo(idToken: idToken), result.status == 200,
                       (result.json["users"] as? [Any])?.count == 1 {
                        served.withLock { $0 += 1 }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            return served.value
        }
    }

    /// `VmRSS` and `VmHWM` (peak) of a process, in MB.
    private func memory(of server: HearthProcess) -> (rss: Int, peak: Int) {
        guard let pid = server.processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    private func sources(_ count: Int) -> [String] {
        (2..<(2 + count)).map { "127.0.0.\($0)" }
    }

    /// Starts `hearth serve --dev` with `environment`, signs the legitimate user in, floods the server
    /// with `plan` and, once `established` holds, makes 10 legitimate lookups; `whileAttacked` then
    /// runs with the flood still up. Returns how many lookups were served and the flood's counts.
    private func underAttack(
        _ name: String, environment: [String: String], _ plan: ConnectionFlood.Plan,
        established: (ConnectionFlood.Counts) -> Bool,
        beforeFlood: (HearthProcess) -> Void = { _ in }, whileAttacked: (HearthProcess) -> Void = { _ in }
    ) throws -> (served: Int, counts: ConnectionFlood.Counts) {
        let server = HearthProcess(environment: environment)
        try server.start()
        let legitimate = try LegitimateClient(server: server)
        beforeFlood(server)
        let flood = ConnectionFlood(port: server.port, plan: plan)
        flood.start()
        defer { flood.stop() }
        let isEstablished = flood.wait(until: established)
        #expect(isEstablished)
        let served = legitimate.lookUp(count: 10)
        whileAttacked(server)
        let counts = flood.stop()
        print("\(name): legitimate \(served)/10 served; attacker opened \(counts.opened), closed by server "
            + "\(counts.closedByServer), answered 503 \(counts.statuses[503, default: 0])")
        return (served, counts)
    }

    private static let trickle = ConnectionFlood.Plan(
        connections: 1_100, sources: ["127.0.0.2"], opening: Array(lookupHead.utf8), trickle: Array("X-Trickle: 1\r\n".utf8),
        trickleSeconds: 1, reconnect: true)

    @Test("slowloris: 1,100 connections trickling header lines from one address do not lock out other clients")
    func slowloris() throws {
        // Beyond the per-address limit (64), the attacker's connections are closed as soon as accepted.
        let result = try underAttack("slowloris", environment: ["HEARTH_HTTP_REQUEST_TIMEOUT": "3"], Self.trickle) {
            $0.opened >= 1_100 && $0.closedByServer >= 1_000
        }
        #expect(result.served == 10)
    }

    @Test("slowloris from 40 addresses: trickling connections are cut at the request deadline, so others get in")
    func distributedSlowloris() throws {
        // 28 connections per address: the per-address limit does not apply, only the deadline helps.
        var plan = Self.trickle
        plan.sources = sources(40)
        let result = try underAttack("distributed slowloris", environment: ["HEARTH_HTTP_REQUEST_TIMEOUT": "3"], plan) {
            $0.opened >= 1_100
        }
        #expect(result.served == 10)
    }

    @Test("idle flood: 2,000 idle connections from 40 addresses do not lock out other clients")
    func idleFlood() throws {
        // A long request deadline: only closing idle connections while busy can make room here.
        let result = try underAttack(
            "idle flood", environment: ["HEARTH_HTTP_REQUEST_TIMEOUT": "60"],
            .init(connections: 2_000, sources: sources(40), reconnect: true)
        ) { $0.opened >= 2_000 }
        #expect(result.served == 10)
    }

    @Test("stalled bodies: 1,000 uploads of 1 MiB − 1 that stall get 503 beyond the budget; RSS returns under 100 MB")
    func stalledBodies() throws {
        let length = 1_048_576
        let opening = Array((Self.lookupHead + "Content-Length: \(length)\r\n\r\n").utf8)
            + [UInt8](repeating: UInt8(ascii: " "), count: length - 1)
        var before = (rss: 0, peak: 0)
        var after = (rss: 0, peak: 0)
        // 25 connections per address stay under the per-address limit: the body budget is what is tested.
        let result = try underAttack(
            "stalled bodies", environment: ["HEARTH_HTTP_REQUEST_TIMEOUT": "3"],
            .init(connections: 1_000, sources: sources(40), opening: opening),
            established: { $0.opened >= 1_000 && $0.writing == 0 },
            beforeFlood: { before = memory(of: $0) },
            whileAttacked: { server in
                // The stalled uploads reach the request deadline and are closed; their memory goes back.
                after = memory(of: server)
                for _ in 0..<300 where after.rss >= 100 {
                    usleep(100_000)
                    after = memory(of: server)
                }
            })
        print("stalled bodies: RSS before \(before.rss) MB, peak \(after.peak) MB, after \(after.rss) MB")
        #expect(result.served == 10)
        #expect(result.counts.statuses[503, default: 0] >= 900)
        #expect(after.rss < 100)
    }

    @Test("HTTP limits come from the config file's http object and HEARTH_HTTP_*; bad ones are refused clearly")
    func limitSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func config(_ json: String) throws -> String {
            let file = directory.appendingPathComponent("hearth-\(UUID().uuidString).json")
            try Data(json.utf8).write(to: file)
            return file.path
        }
        let serve = ["serve", "--dev", "--port", "0", "--data-dir", directory.path]
        let unknown = try HearthProcess.run(serve + ["--config", try config(#"{"http": {"maxConnectionz": 10}}"#)])
        #expect(unknown.status == 64)
        #expect(unknown.output.contains("unknown setting 'http.maxConnectionz'"))
        let outOfRange = try HearthProcess.run(serve + ["--config", try config(#"{"http": {"requestTimeoutSeconds": -1}}"#)])
        #expect(outOfRange.status == 64)
        #expect(outOfRange.output.contains("config http.requestTimeoutSeconds must be between 0 and 3600"))
        let notANumber = try HearthProcess.run(serve, environment: ["HEARTH_HTTP_MAX_CONNECTIONS": "many"])
        #expect(notANumber.status == 64)
        #expect(notANumber.output.contains("HEARTH_HTTP_MAX_CONNECTIONS must be a whole number, not 'many'"))

        // A limit from the file takes effect: two connections per address.
        let server = HearthProcess(arguments: ["--dev", "--config", try config(#"{"http": {"maxConnectionsPerAddress": 2}}"#)])
        try server.start()
        let flood = ConnectionFlood(port: server.port, plan: .init(connections: 5, sources: ["127.0.0.2"]))
        flood.start()
        defer { flood.stop() }
        #expect(flood.wait { $0.opened == 5 && $0.closedByServer == 3 })
    }

    @Test("request smuggling: Content-Length with Transfer-Encoding gets one 400 and no second response")
    func smuggling() throws {
        let server = HearthProcess()
        try server.start()
        let smuggled = "GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let bytes = Self.lookupHead + "Content-Length: \(5 + smuggled.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled
        let raw = try RawHTTP.roundTrip(port: server.port, bytes: Data(bytes.utf8), timeout: 15)
        let text = String(decoding: raw, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "\(text)")
        let response = try RawHTTP.parse(raw)
        #expect(response.status == 400)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect((response.json["error"] as? [String: Any])?["code"] as? Int == 400)
        #expect(!text.contains("\"keys\""))
    }

    @Test("malformed request heads (a bare CR, LF-only lines, a folded field, CR in the request line) get one 400 and run nothing")
    func malformedHeads() throws {
        let server = HearthProcess(
            arguments: ["--project-id", "heads"],
            environment: ["HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"])
        try server.start()
        let body = #"{"returnSecureToken":true}"#
        let signUp = "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=k HTTP/1.1"
        let fields = "Host: 127.0.0.1|Content-Type: application/json|Content-Length: \(body.utf8.count)"
        /// A sign-up (a guest account, if it ran) whose lines end with `ending`, a smuggled request after it.
        func request(_ line: String = signUp, _ fields: String = fields, ending: String = "\r\n") -> Data {
            let head = ([line] + fields.split(separator: "|").map(String.init)).joined(separator: ending)
            return Data((head + ending + ending + body + "GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").utf8)
        }
        let malformed = [
            request(ending: "\n"),
            request(fields.replacingOccurrences(of: "|Content-Type", with: "\nContent-Type")),
            request(fields.replacingOccurrences(of: "json", with: "json\rX-Injected: 1")),
            request(fields.replacingOccurrences(of: "json", with: "json|\tcharset=utf-8")),
            request(fields.replacingOccurrences(of: "json", with: "json\n charset=utf-8")),
            request(signUp.replacingOccurrences(of: "signUp", with: "signUp\r")),
        ]
        for bytes in malformed {
            let raw = try RawHTTP.roundTrip(port: server.port, bytes: bytes, timeout: 15)
            let text = String(decoding: raw, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "\(text)")
            let response = try RawHTTP.parse(raw)
            #expect(response.status == 400, "\(text)")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(!text.contains("\"keys\"") && !text.contains("idToken"), "\(text)")
        }
        func accounts() throws -> Int {
            let listed = try server.runCommand(["users", "list", "--json"])
            #expect(listed.status == 0, "\(listed.output)")
            return listed.output.split(separator: "\n").filter { $0.hasPrefix("{") }.count
        }
        #expect(try accounts() == 0, "no sign-up ran")
        let wellFormed = try RawHTTP.roundTrip(port: server.port, bytes: request(), timeout: 15)
        let answers = String(decoding: wellFormed, as: UTF8.self)
        #expect(answers.components(separatedBy: "HTTP/1.1 200").count - 1 == 2, "\(answers)")
        #expect(try accounts() == 1)
    }
}
