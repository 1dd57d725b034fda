import Foundation
import Testing

/// The terminal app's email and password commands against `hearth serve --dev` and `portfolio-api`, with the
/// passwords on piped input (not a terminal: one line each).
@Suite("Portfolio email and password (e2e)", .blocking)
struct PortfolioPasswordTests {
    static let password = "Portfolio-Pass-1"

    func answer(_ user: PortfolioUser, _ arguments: [String], lines: [String]) throws -> ProgramResult {
        let program = try user.interactive(arguments)
        for line in lines { program.send(line) }
        return program.finish()
    }

    @Test("sign-up, list, sign-out, sign-in --email; a wrong password fails with status 6; passwords never printed")
    func signUpAndSignIn() throws {
        let stack = try PortfolioStack()
        let grace = stack.user()
        let signUp = try answer(
            grace, ["sign-up", "--email", "grace@example.com"], lines: [Self.password, Self.password])
        #expect(signUp.status == 0, "\(signUp.stderr)")
        #expect(signUp.stdout.contains("Welcome, grace@example.com!"))
        #expect(!signUp.stdout.contains(Self.password))
        let uid = try grace.uid()
        #expect(try grace.run("whoami").stdout.contains("Email and password"))
        #expect(try grace.run("list").status == 0)
        #expect(try grace.run("sign-out").status == 0)

        let signIn = try answer(grace, ["sign-in", "--email", "grace@example.com"], lines: [Self.password])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(try grace.uid() == uid)

        let wrong = try answer(stack.user(), ["sign-in", "--email", "grace@example.com"], lines: ["not-it"])
        #expect(wrong.status == 6)
        #expect(wrong.stderr.contains("Wrong email or password."))

        let mismatch = try answer(
            stack.user(), ["sign-up", "--email", "x@example.com"], lines: [Self.password, "other"])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("do not match"))
        let weak = try answer(stack.user(), ["sign-up", "--email", "y@example.com"], lines: ["abc", "abc"])
        #expect(weak.status == 6)
        #expect(weak.stderr.contains("Password should be at least 6 characters"))
    }

    @Test("reset-password sends a code; --code sets the new password; verify-email sends and applies a code")
    func resetAndVerify() throws {
        let stack = try PortfolioStack()
        let ada = stack.user()
        #expect(
            try answer(ada, ["sign-up", "--email", "ada@example.com"], lines: [Self.password, Self.password]).status
                == 0)

        let sent = try ada.run("verify-email")
        #expect(sent.status == 0, "\(sent.stderr)")
        let verifyCode = try #require(try code(stack, type: "VERIFY_EMAIL"))
        let verified = try ada.run("verify-email", "--code", verifyCode)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("ada@example.com is verified."))
        #expect(try ada.run("whoami").stdout.contains("(verified)"))

        #expect(try ada.run("reset-password", "ada@example.com").status == 0)
        let resetCode = try #require(try code(stack, type: "PASSWORD_RESET"))
        let reset = try answer(
            ada, ["reset-password", "ada@example.com", "--code", resetCode], lines: ["New-Pass-2", "New-Pass-2"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let reused = try answer(
            ada, ["reset-password", "ada@example.com", "--code", resetCode], lines: ["New-Pass-3", "New-Pass-3"])
        #expect(reused.status != 0)
        #expect(reused.stderr.contains("invalid, expired or already used"))
        #expect(try answer(ada, ["sign-in", "--email", "ada@example.com"], lines: ["New-Pass-2"]).status == 0)
    }

    func code(_ stack: PortfolioStack, type: String) throws -> String? {
        let listing = try stack.hearth.request("GET", "/emulator/v1/projects/demo-hearth/oobCodes")
        let codes = listing.json["oobCodes"] as? [[String: Any]] ?? []
        return codes.last { $0["requestType"] as? String == type }?["oobCode"] as? String
    }
}
