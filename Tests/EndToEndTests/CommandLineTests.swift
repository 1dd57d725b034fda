import Foundation
import Testing

/// The `hearth` command: help, usage errors (exit 64), and refusing to run where it cannot (exit 1)
/// without touching existing data.
@Suite("hearth command line (e2e)", .blocking)
struct CommandLineTests {
    @Test("help")
    func help() throws {
        let main = try HearthProcess.run(["--help"])
        #expect(main.status == 0)
        #expect(main.output.contains("serve"))
        let serve = try HearthProcess.run(["serve", "--help"])
        #expect(serve.status == 0)
        #expect(serve.output.contains("--data-dir"))
    }

    @Test("a wrong flag exits 64 with a one-line reason", arguments: [
        ["serve", "--bogus"], ["serve", "--port", "99999"], ["serve", "--port"], ["frobnicate"],
        ["serve", "--public-url", "ftp://x"],
    ])
    func usageErrors(arguments: [String]) throws {
        let result = try HearthProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.output.split(separator: "\n").count == 1)
        #expect(result.output.hasPrefix("hearth: "))
    }

    @Test("without --dev, API keys and client IDs are required")
    func productionNeedsConfiguration() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HearthProcess.run(["serve", "--port", "0", "--data-dir", directory.path, "--project-id", "p"])
        #expect(result.status == 64)
        #expect(result.output.contains("API keys"))
    }

    @Test("a busy port exits non-zero with a clear message")
    func busyPort() throws {
        let server = HearthProcess()
        try server.start()
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HearthProcess.run(["serve", "--dev", "--port", String(server.port), "--data-dir", directory.path])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot listen"))
    }

    @Test("a startup that fails late (the --metrics-port taken) closes what it opened: the same data directory serves next")
    func lateFailureClosesEverything() throws {
        let busy = HearthProcess()
        try busy.start()
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HearthProcess.run([
            "serve", "--dev", "--port", "0", "--data-dir", directory.path, "--metrics-port", String(busy.port),
        ])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot listen on 127.0.0.1:\(busy.port) (--metrics-port)"), "\(result.output)")
        #expect(!result.output.contains("event=listening"))
        // The signing keys were loaded and the database written; closing it checkpointed and removed its log.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("hearth.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("hearth.sqlite-wal").path))
        let next = HearthProcess(dataDirectory: directory)
        try next.start()
        #expect(next.stop() == 0)
    }

    @Test("a file that is not a database is refused and left untouched")
    func notADatabase() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: file)
        let result = try HearthProcess.run(["serve", "--dev", "--port", "0", "--data-dir", directory.path])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot open database"))
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("commands other than serve refuse to make a database where none exists, and say where they looked",
          arguments: [
              ["users", "show", "someone"], ["users", "revoke", "someone"], ["users", "list"], ["users", "export"],
              ["users", "import", "users.json"], ["keys", "list"],
          ])
    func noDatabaseWhereNoneExists(command: [String]) throws {
        let parent = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let empty = parent.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let missing = parent.appendingPathComponent("missing")
        for directory in [empty, missing] {
            let result = try HearthProcess.run(command + ["--data-dir", directory.path])
            #expect(result.status == 1)
            #expect(result.output.contains("no Hearth database at \(directory.path)/hearth.sqlite"), "\(result.output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "nothing created")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("an unwritable data directory is refused")
    func unwritableDirectory() throws {
        let result = try HearthProcess.run(["serve", "--dev", "--port", "0", "--data-dir", "/proc/hearth-cannot-be-here"])
        #expect(result.status == 1)
        #expect(result.output.contains("data directory"))
    }

    @Test("settings come from HEARTH_* variables, and flags win over them")
    func environment() throws {
        let server = HearthProcess(arguments: ["--dev"], environment: ["HEARTH_PROJECT_ID": "env-project", "HEARTH_THREADS": "3"])
        try server.start()
        #expect(try server.request("GET", "/env-project/.well-known/openid-configuration").json["issuer"] as? String == "https://securetoken.google.com/env-project")
        let flagged = HearthProcess(arguments: ["--dev", "--project-id", "flag-project"], environment: ["HEARTH_PROJECT_ID": "env-project"])
        try flagged.start()
        #expect(try flagged.request("GET", "/flag-project/.well-known/openid-configuration").status == 200)
        let bad = try HearthProcess.run(["serve", "--dev"], environment: ["HEARTH_PORT": "many"])
        #expect(bad.status == 64)
        #expect(bad.output.contains("HEARTH_PORT"))
    }

    @Test("a config file with an unknown setting is refused")
    func configFile() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        try Data(#"{"projectId":"x","apiKey":["typo"]}"#.utf8).write(to: file)
        let result = try HearthProcess.run(["serve", "--config", file.path, "--data-dir", directory.path])
        #expect(result.status == 64)
        #expect(result.output.contains("unknown setting 'apiKey'"))
    }

    @Test("second-factor settings: unknown factors are usage errors; phone factors need an SMS sender outside --dev")
    func mfaSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let badFactor = try HearthProcess.run(["serve", "--dev", "--data-dir", directory.path], environment: ["HEARTH_MFA": "phone,email"])
        #expect(badFactor.status == 64)
        #expect(badFactor.output.contains("unknown second factor 'email'"))
        let noSender = try HearthProcess.run(
            ["serve", "--project-id", "p", "--data-dir", directory.path],
            environment: ["HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com", "HEARTH_MFA": "phone"])
        #expect(noSender.status == 64)
        #expect(noSender.output.contains("need an SMS sender"))
    }

    @Test("SIGTERM stops the server cleanly")
    func gracefulStop() throws {
        let server = HearthProcess()
        try server.start()
        #expect(server.stop() == 0)
        #expect(server.waitForLine { $0.hasPrefix("event=shutdown") })
        #expect(server.waitForLine { $0 == "event=stopped" })
    }
}
