import Foundation
import Testing

/// Sign in with Apple through the built `portfolio` binary against `hearth serve --dev`'s Apple look-alike
/// (`<hearth>/dev/apple`: `/auth/authorize` with `response_mode=form_post` and a headless `login_hint`,
/// `/auth/keys`), and the App Store's deletion rule: revoke the Apple tokens (`/v2/accounts:revokeToken`), then
/// delete the account.
///
/// These need the dev Apple and Hearth's `apple.com` provider and `revokeToken` (issue 9, other branches).
@Suite("Portfolio Sign in with Apple (e2e)", .blocking)
struct PortfolioAppleTests {
    @Test("sign-in --apple --as: a new account with Apple's name on the first sign-in, the same account later")
    func signInWithApple() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        let first = try user.run("sign-in", "--apple", "--as", "tim.apple@example.com")
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(first.stdout.contains("new user"))
        let uid = try user.uid()
        let whoami = try user.run("whoami")
        #expect(whoami.stdout.contains("email  tim.apple@example.com"), "\(whoami.stdout)")
        #expect(whoami.stdout.contains("via    Apple"))
        #expect(!whoami.stdout.contains("name   -"), "the name Apple gives on the first sign-in becomes the display name")
        let name = whoami.stdout.split(separator: "\n").first { $0.contains("name ") }

        #expect(try user.run("sign-out").status == 0)
        let again = try user.run("sign-in", "--apple", "--as", "tim.apple@example.com")
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(!again.stdout.contains("new user"))
        #expect(try user.uid() == uid)
        // A later sign-in carries no name; the stored one stays.
        #expect(try user.run("whoami").stdout.split(separator: "\n").first { $0.contains("name ") } == name)
        #expect(try user.run("list").status == 0)
    }

    @Test("sign-in --apple --hide-email: the account's email is a private relay address")
    func hiddenEmail() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        let result = try user.run("sign-in", "--apple", "--as", "private.person@example.com", "--hide-email")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let whoami = try user.run("whoami").stdout
        #expect(whoami.contains("@privaterelay.appleid.com"), "\(whoami)")
        #expect(!whoami.contains("private.person@example.com"))
    }

    @Test("a guest links Apple: same uid, same portfolios, no longer a guest")
    func guestUpgradesToApple() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--guest").status == 0)
        let uid = try user.uid()
        let portfolios = PortfolioGuestTests.portfolioIDs(try user.run("list").stdout)
        #expect(!portfolios.isEmpty)

        let link = try user.run("link", "apple", "--as", "guest.apple@example.com")
        #expect(link.status == 0, "\(link.stdout) \(link.stderr)")
        #expect(link.stdout.contains("Linked Apple to your account."))
        #expect(link.stdout.contains("no longer a guest"))
        let whoami = try user.run("whoami").stdout
        #expect(whoami.contains("uid    \(uid)"))
        #expect(whoami.contains("via    Apple"))
        #expect(PortfolioGuestTests.portfolioIDs(try user.run("list").stdout) == portfolios)

        // Signing in with Apple later reaches the upgraded account.
        #expect(try user.run("sign-out").status == 0)
        #expect(try user.run("sign-in", "--apple", "--as", "guest.apple@example.com").status == 0)
        #expect(try user.uid() == uid)
    }

    @Test("an Apple ID that belongs to another account cannot be linked; the guest stays as it was")
    func appleLinkConflict() throws {
        let stack = try PortfolioStack()
        let owner = stack.user()
        #expect(try owner.run("sign-in", "--apple", "--as", "owned@example.com").status == 0)
        let user = stack.user()
        #expect(try user.run("sign-in", "--guest").status == 0)
        let uid = try user.uid()
        let link = try user.run("link", "apple", "--as", "owned@example.com")
        #expect(link.status == 6, "\(link.stdout) \(link.stderr)")
        #expect(link.stderr.contains("Apple account is already linked to another user") || link.stderr.contains("already uses this email"))
        let whoami = try user.run("whoami").stdout
        #expect(whoami.contains("uid    \(uid)") && whoami.contains("via    guest"))
    }

    @Test("delete-account with Apple linked: signs in with Apple again, revokes the Apple tokens, deletes the account")
    func deleteAppleAccount() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--apple", "--as", "leaving.apple@example.com").status == 0)
        let uid = try user.uid()

        let delete = try user.interactive(["delete-account", "--as", "leaving.apple@example.com"])
        _ = try delete.waitFor("Type \"delete\" to confirm: ")
        delete.send("delete")
        let result = delete.finish()
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Apple tokens revoked."))
        #expect(result.stdout.contains("Your account was deleted."))
        #expect(try user.run("whoami").status == 3)
        #expect(try stack.hearth.runCommand(["users", "show", uid]).status != 0)
    }

    @Test("delete-account refuses a different Apple ID for the revocation and deletes nothing")
    func deleteWithOtherAppleID() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--apple", "--as", "mine@example.com").status == 0)
        let uid = try user.uid()
        let delete = try user.interactive(["delete-account", "--as", "someone.else@example.com"])
        _ = try delete.waitFor("Type \"delete\" to confirm: ")
        delete.send("delete")
        let result = delete.finish()
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("not the one linked to this account"))
        #expect(try user.uid() == uid)
    }
}
