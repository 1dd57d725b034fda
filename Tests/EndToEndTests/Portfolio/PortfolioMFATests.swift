import Foundation
import HearthCore
import Testing

/// The documents' second-factor sign-in through the built `portfolio` binary: its prompts are answered
/// through a pipe, as a script (or a person at a terminal) would.
@Suite("Portfolio second factors (e2e)", .blocking)
struct PortfolioMFATests {
    static func totpCode(_ secret: String, stepOffset: Int64) -> String {
        let totp = TOTP()
        return totp.code(secret: Base32.decode(secret)!, step: totp.step(at: Int64(Date().timeIntervalSince1970)) + stepOffset)
    }

    @Test("TOTP: enrol with the QR code, then sign in with 'Select factor' and 'Verification code for <name>'; wrong codes fail clearly")
    func totp() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--as", "otp@example.com").status == 0)

        let enroll = try user.interactive(["mfa", "enroll-totp", "--name", "Phone app"])
        let shown = try enroll.waitFor("Code from the app: ")
        let secretLine = try #require(shown.split(separator: "\n").first { $0.contains("Secret") })
        let secret = String(secretLine.split(separator: " ").last!)
        #expect(shown.contains("otpauth://totp/Portfolio:otp%40example.com?secret=\(secret)"))
        #expect(shown.contains("█"), "a QR code is drawn in the terminal")
        enroll.send(Self.totpCode(secret, stepOffset: 0))
        let enrolled = enroll.finish()
        #expect(enrolled.status == 0, "\(enrolled.stdout) \(enrolled.stderr)")
        #expect(enrolled.stdout.contains("Enrolled \"Phone app\""))
        let list = try user.run("mfa", "list")
        #expect(list.stdout.contains("totp") && list.stdout.contains("Phone app (authenticator app)"))

        #expect(try user.run("sign-out").status == 0)
        let signIn = try user.interactive(["sign-in", "--as", "otp@example.com"])
        let prompt = try signIn.waitFor("Verification code for Phone app: ")
        #expect(prompt.contains("Select factor to sign in"))
        #expect(prompt.contains("1. Phone app (authenticator app)"))
        signIn.send(Self.totpCode(secret, stepOffset: 1))
        let signedIn = signIn.finish()
        #expect(signedIn.status == 0, "\(signedIn.stdout) \(signedIn.stderr)")
        #expect(signedIn.stdout.contains("Welcome, otp@example.com!"))
        let token = try user.run("token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect((JWTParts.claims(token)["firebase"] as? [String: Any])?["sign_in_second_factor"] as? String == "totp")
        #expect(try user.run("list").status == 0)

        #expect(try user.run("sign-out").status == 0)
        let replay = try user.interactive(["sign-in", "--as", "otp@example.com"])
        try replay.waitFor("Verification code for Phone app: ")
        replay.send(Self.totpCode(secret, stepOffset: 1))
        let replayed = replay.finish()
        #expect(replayed.status == 6)
        #expect(replayed.stderr.contains("This code was already used; wait for the next one."), "\(replayed.stderr)")

        let wrong = try user.interactive(["sign-in", "--as", "otp@example.com"])
        try wrong.waitFor("Verification code for Phone app: ")
        wrong.send("12345x")
        let refused = wrong.finish()
        #expect(refused.status == 6)
        #expect(refused.stderr.contains("The verification code is wrong."), "\(refused.stderr)")
        #expect(try user.run("whoami").status == 3)
    }

    @Test("phone: enrol a number (code via the dev SMS listing), sign in with it, then remove it")
    func phone() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        #expect(try user.run("sign-in", "--as", "sms@example.com").status == 0)
        func latestCode() throws -> String {
            let codes = try stack.hearth.request("GET", "/emulator/v1/projects/demo-hearth/verificationCodes")
                .json["verificationCodes"] as? [[String: Any]] ?? []
            return try #require(codes.last?["code"] as? String)
        }

        let enroll = try user.interactive(["mfa", "enroll-phone", "+15555550177", "--name", "Work phone"])
        try enroll.waitFor("Verification code sent to +15555550177: ")
        enroll.send(try latestCode())
        let enrolled = enroll.finish()
        #expect(enrolled.status == 0, "\(enrolled.stdout) \(enrolled.stderr)")

        #expect(try user.run("sign-out").status == 0)
        Thread.sleep(forTimeInterval: 30.5)  // one SMS per number per 30 s
        let signIn = try user.interactive(["sign-in", "--as", "sms@example.com"])
        let prompt = try signIn.waitFor("Verification code for Work phone: ")
        #expect(prompt.contains("1. Work phone (+*******0177)"))
        signIn.send(try latestCode())
        let signedIn = signIn.finish()
        #expect(signedIn.status == 0, "\(signedIn.stdout) \(signedIn.stderr)")

        let list = try user.run("mfa", "list").stdout
        let id = try #require(list.split(separator: " ").first.map(String.init))
        #expect(try user.run("mfa", "remove", id).stdout.contains("Removed"))
        #expect(try user.run("mfa", "list").stdout.contains("No second factors"))
    }
}
