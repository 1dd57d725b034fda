import Foundation
import Testing

/// `hearth --version`, and the line `hearth serve` prints once it listens: `event=listening address=HOST:PORT`.
@Suite("hearth version and listening address (e2e)", .blocking)
struct VersionAndAddressTests {
    @Test("--version and version print 'hearth <version>'; --help names it; extra arguments are usage errors")
    func version() throws {
        let flag = try runProgramSplit(HearthProcess.executable, ["--version"])
        #expect(flag.status == 0 && flag.stderr.isEmpty)
        let line = flag.stdout.trimmingCharacters(in: .newlines)
        #expect(line.wholeMatch(of: /hearth \d+\.\d+\.\d+(-[0-9A-Za-z.]+)?/) != nil, "\(line)")
        let command = try runProgramSplit(HearthProcess.executable, ["version"])
        #expect(command.status == 0 && command.stdout == flag.stdout)
        let help = try runProgramSplit(HearthProcess.executable, ["--help"])
        #expect(help.stdout.hasPrefix(line + " — "), "\(help.stdout.prefix(80))")
        let extra = try HearthProcess.run(["version", "--json"])
        #expect(extra.status == 64)
    }

    @Test("in production mode with a public URL and --port 0, the listening line names the port it really took")
    func productionPrintsTheRealAddress() throws {
        let server = HearthProcess(
            arguments: ["--project-id", "p", "--public-url", "https://auth.example.com"],
            environment: ["HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"])
        try server.start(port: 0)
        #expect(server.port != 0)
        let listening = server.lines.filter { $0.hasPrefix("event=listening") }
        #expect(listening == ["event=listening address=127.0.0.1:\(server.port)"], "\(server.lines)")
        #expect(server.lines.contains { $0.hasPrefix("Hearth is listening on https://auth.example.com") }, "the banner names the public URL")
        let jwks = try server.request("GET", "/.well-known/jwks.json")
        #expect(jwks.status == 200, "answers on the printed port")
        #expect(server.lines.last { !$0.hasPrefix("method=") } == listening.first, "the line comes after the banner")
    }
}
