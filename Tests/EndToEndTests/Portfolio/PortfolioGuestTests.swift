import Foundation
import Testing

/// Guests, linking and account deletion through the built `portfolio` binary against `hearth serve --dev`.
@Suite("Portfolio guests, linking and deletion (e2e)", .blocking)
struct PortfolioGuestTests {
    /// The portfolio IDs `list` prints, e.g. `(p-…)`.
    static func portfolioIDs(_ list: String) -> [String] {
        list.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  - "), let open = line.lastIndex(of: "(") else { return nil }
            return String(line[line.index(after: open)...].dropLast())
        }
    }

    @Test("a guest has portfolios; linking Google keeps the uid and the same portfolios, and ends the guest state")
    func guestUpgradesToGoogle() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        let guest = try user.run("sign-in", "--guest")
        #expect(guest.status == 0, "\(guest.stderr)")
        #expect(guest.stdout.contains("Welcome, guest!"))
        let uid = try user.uid()
        #expect(try user.run("whoami").stdout.contains("via    guest"))
        let before = try user.run("list")
        #expect(before.status == 0, "\(before.stderr)")
        let portfolios = Self.portfolioIDs(before.stdout)
        #expect(!portfolios.isEmpty, "\(before.stdout)")

        let link = try user.run("link", "google", "--as", "grace.hopper@example.com")
        #expect(link.status == 0, "\(link.stdout) \(link.stderr)")
        #expect(link.stdout.contains("Linked Google to your account."))
        #expect(link.stdout.contains("uid    \(uid)"))
        #expect(link.stdout.contains("no longer a guest"))

        let whoami = try user.run("whoami")
        #expect(whoami.stdout.contains("uid    \(uid)"))
        #expect(whoami.stdout.contains("email  grace.hopper@example.com"))
        #expect(whoami.stdout.contains("via    Google"))
        let after = try user.run("list")
        #expect(Self.portfolioIDs(after.stdout) == portfolios)
        #expect(after.stdout.contains("Portfolios of grace.hopper@example.com"))

        // Signing in with Google later reaches the same account and data.
        #expect(try user.run("sign-out").status == 0)
        let again = try user.run("sign-in", "--as", "grace.hopper@example.com")
        #expect(again.status == 0 && !again.stdout.contains("new user"), "\(again.stdout) \(again.stderr)")
        #expect(try user.uid() == uid)
        #expect(Self.portfolioIDs(try user.run("list").stdout) == portfolios)

        // A second Google link is refused locally.
        let twice = try user.run("link", "google", "--as", "grace.hopper@example.com")
        #expect(twice.status == 6)
        #expect(twice.stderr.contains("already has this sign-in method linked"))
    }

    @Test("linking a Google account that belongs to another user fails clearly and leaves the guest as it was")
    func linkConflict() throws {
        let stack = try PortfolioStack()
        let owner = stack.user()
        #expect(try owner.run("sign-in", "--as", "taken@example.com").status == 0)
        let user = stack.user()
        #expect(try user.run("sign-in", "--guest").status == 0)
        let uid = try user.uid()
        let link = try user.run("link", "google", "--as", "taken@example.com")
        #expect(link.status == 6, "\(link.stdout) \(link.stderr)")
        #expect(link.stderr.contains("already linked to another user") || link.stderr.contains("already uses this email"))
        let whoami = try user.run("whoami")
        #expect(whoami.stdout.contains("uid    \(uid)"))
        #expect(whoami.stdout.contains("via    guest"))
    }

    @Test("delete-account asks for \"delete\": another answer keeps the account, \"delete\" deletes it")
    func deleteAccount() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--as", "leaving@example.com").status == 0)
        let uid = try user.uid()

        let refused = try user.interactive(["delete-account"])
        #expect(try refused.waitFor("Type \"delete\" to confirm: ").contains("leaving@example.com"))
        refused.send("yes")
        let kept = refused.finish()
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("Not deleted"))
        #expect(try user.uid() == uid)

        let confirmed = try user.interactive(["delete-account"])
        _ = try confirmed.waitFor("Type \"delete\" to confirm: ")
        confirmed.send("delete")
        let deleted = confirmed.finish()
        #expect(deleted.status == 0, "\(deleted.stdout) \(deleted.stderr)")
        #expect(deleted.stdout.contains("Your account was deleted."))
        #expect(!deleted.stdout.contains("Apple"))
        #expect(try user.run("whoami").status == 3)
        #expect(try stack.hearth.runCommand(["users", "show", uid]).status != 0)

        let back = try user.run("sign-in", "--as", "leaving@example.com")
        #expect(back.stdout.contains("new user"))
        #expect(try user.uid() != uid)
    }

    @Test("usage errors for the new commands and switches", arguments: [
        ["link"], ["link", "facebook"], ["link", "google", "apple"], ["sign-in", "--guest", "--as", "a@example.com"],
        ["sign-in", "--hide-email"], ["sign-in", "--apple", "--guest"], ["whoami", "--apple"], ["list", "--as", "a@example.com"],
    ])
    func usage(arguments: [String]) throws {
        let session = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: session) }
        let result = try runProgramSplit(
            builtExecutable("portfolio"), arguments,
            environment: ["HEARTH_URL": "http://127.0.0.1:1", "PORTFOLIO_SESSION_DIR": session.path])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }
}
