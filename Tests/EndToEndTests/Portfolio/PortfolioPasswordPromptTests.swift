import Foundation
import Testing

/// `portfolio` reads passwords on a terminal without echo, and puts the terminal back afterwards, also when
/// interrupted. Hearth is not running (HEARTH_URL is a closed port): the prompt comes before any request.
@Suite("Portfolio password prompt on a terminal (e2e)", .blocking)
struct PortfolioPasswordPromptTests {
    static let password = "Hunter2-never-shown"

    func start(_ arguments: [String], on terminal: PseudoTerminal) throws -> Process {
        let process = Process()
        process.executableURL = builtExecutable("portfolio")
        process.arguments = arguments
        process.environment = childEnvironment([
            "HEARTH_URL": "http://127.0.0.1:9", "PORTFOLIO_SESSION_DIR": HearthProcess.temporaryDirectory().path,
        ])
        process.standardInput = terminal.fileHandle
        process.standardOutput = terminal.fileHandle
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Types the password at the last prompt (echo must be off), then checks the end: Hearth is unreachable, so
    /// the command fails after reading it; echo is back on; the password never showed.
    func typePasswordAndFinish(_ process: Process, on terminal: PseudoTerminal) {
        #expect(!terminal.echoes)
        terminal.type(Self.password)
        process.waitUntilExit()
        #expect(process.terminationStatus == 4)
        #expect(terminal.echoes)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!terminal.shown.contains(Self.password))
    }

    @Test("sign-in --email: the typed password is not shown; echo is back on afterwards")
    func signInHidesPassword() throws {
        let terminal = try PseudoTerminal()
        #expect(terminal.echoes)
        let process = try start(["sign-in", "--email", "ada@example.com"], on: terminal)
        try terminal.waitFor("Password: ")
        typePasswordAndFinish(process, on: terminal)
    }

    @Test("sign-up: the email is shown as typed, both password entries are not")
    func signUpHidesBothEntries() throws {
        let terminal = try PseudoTerminal()
        let process = try start(["sign-up"], on: terminal)
        try terminal.waitFor("Email: ")
        terminal.type("grace@example.com")
        try terminal.waitFor("Password: ")
        terminal.type(Self.password)
        try terminal.waitFor("Repeat the password: ")
        typePasswordAndFinish(process, on: terminal)
        #expect(terminal.shown.contains("grace@example.com"))
    }

    @Test("Ctrl-C at the password prompt puts echo back on")
    func interruptRestoresEcho() throws {
        let terminal = try PseudoTerminal()
        let process = try start(["sign-in", "--email", "ada@example.com"], on: terminal)
        try terminal.waitFor("Password: ")
        #expect(!terminal.echoes)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(terminal.echoes)
    }
}
