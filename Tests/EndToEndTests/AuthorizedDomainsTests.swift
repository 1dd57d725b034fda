import Foundation
import Testing

/// `emailActions.authorizedDomains`: where an email's continue URL may send a user, as the web SDK asks for it.
@Suite("Authorized domains of continue URLs (e2e)", .blocking)
struct AuthorizedDomainsTests {
    static func reset(_ clients: EmailActionClients, _ continueURL: String) throws -> HTTPResult {
        try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "owner@example.com", "continueUrl": continueURL])
    }

    @Test("with authorized domains configured, another host is UNAUTHORIZED_DOMAIN and an authorized one gets its email")
    func configured() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try Data(#"{"emailActions": {"authorizedDomains": ["app.example.com"]}}"#.utf8).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path])
        try server.start()
        let clients = EmailActionClients(server: server)
        _ = try clients.createUser(["email": "owner@example.com", "password": "correct horse battery"])

        let refused = try Self.reset(clients, "https://evil.example.net/phish")
        #expect(refused.status == 400)
        #expect(refused.errorMessage == "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project", "\(refused.text)")
        #expect(try Self.reset(clients, "https://app.example.com/done").status == 200)
        #expect(try Self.reset(clients, "http://localhost:5173/").status == 200, "localhost is always authorized")
        #expect(server.stop() == 0)
    }

    @Test("--dev without authorized domains accepts any continue host, as the emulator does")
    func developmentDefault() throws {
        let server = HearthProcess(arguments: ["--dev"])
        try server.start()
        let clients = EmailActionClients(server: server)
        _ = try clients.createUser(["email": "owner@example.com", "password": "correct horse battery"])
        #expect(try Self.reset(clients, "https://anywhere.example.org/").status == 200)
        #expect(server.stop() == 0)
    }

    @Test("an authorized domain with a scheme, port or path is refused at startup")
    func badDomain() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try Data(#"{"emailActions": {"authorizedDomains": ["https://app.example.com"]}}"#.utf8).write(to: config)
        let result = try HearthProcess.run(["serve", "--dev", "--config", config.path, "--data-dir", directory.path])
        #expect(result.status != 0)
        #expect(result.output.contains("'https://app.example.com' is not a host name"), "\(result.output)")
    }
}
