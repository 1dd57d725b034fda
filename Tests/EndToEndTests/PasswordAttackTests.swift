import Foundation
import Testing

@Suite("Password guessing and account takeover: lockouts, revocation, linking rules", .blocking, .serialized)
struct PasswordAttackTests {
    static let password = PasswordSignInTests.password

    /// A server whose config file sets the wrong-password lockouts.
    static func server(perEmailBurst: Int = 10, perClientBurst: Int = 1_000) throws -> HearthProcess {
        let directory = HearthProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("hearth.json")
        let config = """
            {"passwordLockout": {"perEmail": {"burst": \(perEmailBurst), "lockoutSeconds": 600, "maxPerWindow": 1000, "windowSeconds": 3600},
                                 "perClient": {"burst": \(perClientBurst), "lockoutSeconds": 600, "maxPerWindow": 10000, "windowSeconds": 3600}}}
            """
        try Data(config.utf8).write(to: file)
        let server = HearthProcess(arguments: ["--dev", "--config", file.path], dataDirectory: directory)
        try server.start()
        return server
    }

    @Test("50 parallel wrong passwords: every one counts, at most the burst is checked, then the right password is refused")
    func parallelGuesses() throws {
        let server = try Self.server()
        let clients = PasswordClients(server: server)
        _ = try SignedIn(try clients.iosSignUp(email: "victim@example.com", password: Self.password))
        let answers = Locked<[HTTPResult]>([])
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            let guess = index.isMultiple(of: 2)
                ? try? clients.iosSignIn(email: "victim@example.com", password: "guess-\(index)")
                : try? clients.webSignIn(email: "victim@example.com", password: "guess-\(index)")
            if let guess { answers.withLock { $0.append(guess) } }
        }
        let messages = answers.value.map { $0.errorMessage ?? "status \($0.status)" }
        #expect(messages.count == 50)
        let checked = messages.filter { $0 == "INVALID_LOGIN_CREDENTIALS" }.count
        #expect((1...10).contains(checked), "\(messages)")
        #expect(messages.allSatisfy { $0 == "INVALID_LOGIN_CREDENTIALS" || $0.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") }, "\(messages)")

        let right = try clients.iosSignIn(email: "victim@example.com", password: Self.password)
        #expect(right.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(right.text)")
        #expect(server.waitForLine { $0.contains("event=lockout") && $0.contains("password-failure:email:") })
        #expect(!server.lines.contains { $0.contains("victim@example.com") })
        // A fresh client session changes nothing: the lock is the email's, in the store.
        let again = try PasswordClients(server: server, apiKey: "another-key").webSignIn(email: "VICTIM@example.com", password: Self.password)
        #expect(again.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
    }

    @Test("one address guessing across many emails is locked, whatever email it tries next")
    func addressAcrossEmails() throws {
        let server = try Self.server(perClientBurst: 5)
        let clients = PasswordClients(server: server)
        _ = try SignedIn(try clients.webSignUp(email: "mine@example.com", password: Self.password))
        for index in 0..<5 {
            let guess = try clients.webSignIn(email: "user\(index)@example.com", password: "123456")
            #expect(guess.errorMessage == "INVALID_LOGIN_CREDENTIALS", "\(guess.text)")
        }
        let mine = try clients.webSignIn(email: "mine@example.com", password: Self.password)
        #expect(mine.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(mine.text)")
        #expect(server.waitForLine { $0.contains("event=lockout") && $0.contains("password-failure:client:") })
    }

    @Test("a new password ends the other sessions (their refresh is TOKEN_EXPIRED); the caller's fresh tokens work")
    func passwordChangeRevokes() throws {
        let server = HearthProcess()
        try server.start()
        let clients = PasswordClients(server: server)
        let phone = try SignedIn(try clients.iosSignUp(email: "ada@example.com", password: Self.password))
        let laptop = try SignedIn(try clients.webSignIn(email: "ada@example.com", password: Self.password))
        Thread.sleep(forTimeInterval: 1.1)  // `validSince` has second precision for ID tokens.

        let changed = try clients.iosUpdatePassword(idToken: phone.idToken, password: "a brand new password")
        let fresh = try SignedIn(changed)
        #expect(fresh.localID == phone.localID && PasswordSignInTests.signInProvider(fresh.idToken) == "password")
        let stolen = try clients.refresh(laptop.refreshToken)
        #expect(stolen.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true, "\(stolen.text)")
        #expect(try clients.refresh(fresh.refreshToken).status == 200)
        #expect(try FirebaseIOSClient(server: server).getAccountInfo(idToken: laptop.idToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(try FirebaseIOSClient(server: server).getAccountInfo(idToken: fresh.idToken).status == 200)
        #expect(try clients.webSignIn(email: "ada@example.com", password: Self.password).errorMessage == "INVALID_LOGIN_CREDENTIALS")
        _ = try SignedIn(try clients.webSignIn(email: "ada@example.com", password: "a brand new password"))

        // Under enumeration protection (the default) an email changes only through a code sent to the new address.
        let newEmail = try clients.webUpdate(idToken: fresh.idToken, ["email": "Ada.New@Example.com"])
        #expect(newEmail.errorMessage == "OPERATION_NOT_ALLOWED : Please verify the new email before changing email.", "\(newEmail.text)")
        _ = try SignedIn(try clients.webSignIn(email: "ada@example.com", password: "a brand new password"))
    }

    @Test("an anonymous user links email and password in place; an email another account has is EMAIL_EXISTS")
    func anonymousUpgrade() throws {
        let server = HearthProcess()
        try server.start()
        let clients = PasswordClients(server: server)
        _ = try SignedIn(try clients.webSignUp(email: "taken@example.com", password: Self.password))
        let guest = try SignedIn(try clients.webSignInAnonymously())
        let taken = try clients.webLink(idToken: guest.idToken, email: "taken@example.com", password: Self.password)
        #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS") == true, "\(taken.text)")

        let linked = try SignedIn(try clients.webLink(idToken: guest.idToken, email: "guest@example.com", password: Self.password))
        #expect(linked.localID == guest.localID && PasswordSignInTests.signInProvider(linked.idToken) == "password")
        let signedIn = try SignedIn(try clients.iosSignIn(email: "guest@example.com", password: Self.password))
        #expect(signedIn.localID == guest.localID)
        #expect(try clients.refresh(linked.refreshToken).status == 200)
        #expect(
            try clients.refresh(guest.refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true,
            "setting a password ends the account's other sessions")
    }

    @Test("an enrolled second factor answers mfaPendingCredential and masked factors instead of tokens")
    func secondFactor() throws {
        let server = HearthProcess()
        try server.start()
        let clients = PasswordClients(server: server)
        let user = try SignedIn(try clients.webSignUp(email: "mfa@example.com", password: Self.password))
        let enrolled = try FirebaseAdminClient(server: server).post(
            "/accounts:update", #"{"localId": "\#(user.localID)", "mfa": {"enrollments": [{"phoneInfo": "+15555551234"}]}}"#)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        let pending = try clients.iosSignIn(email: "mfa@example.com", password: Self.password)
        #expect(pending.status == 200 && pending.json["idToken"] == nil && pending.json["refreshToken"] == nil, "\(pending.text)")
        #expect((pending.json["mfaPendingCredential"] as? String)?.isEmpty == false)
        #expect((pending.json["mfaInfo"] as? [[String: Any]])?.first?["phoneInfo"] as? String == "+*******1234")
    }

    @Test("passwordLockout, emailPrivacy and HEARTH_EMAIL_ENUMERATION_PROTECTION are checked at start")
    func settings() throws {
        let window = #""burst": 3, "lockoutSeconds": 60, "maxPerWindow": 10, "windowSeconds": 3600"#
        let refusals = [
            (#"{"passwordLockout": {"perEmail": {"burst": 0, "lockoutSeconds": 60, "maxPerWindow": 10, "windowSeconds": 3600}}}"#,
             "passwordLockout.perEmail"),
            (#"{"passwordLockout": {"perClient": {"burst": 5, "lockoutSeconds": 60, "maxPerWindow": 4, "windowSeconds": 3600}}}"#,
             "passwordLockout.perClient"),
            ("{\"passwordLockout\": {\"perAddress\": {\(window)}}}", "passwordLockout.perAddress"),
            ("{\"passwordLockout\": {\"perEmail\": {\(window), \"extra\": 1}}}", "perEmail.extra"),
            (#"{"emailPrivacy": {"enableImprovedEmailPrivacy": "yes"}}"#, "wrong type"),
            (#"{"emailPrivacy": {"enabled": false}}"#, "emailPrivacy.enabled"),
        ].map { config, message in (config: config, message: message, answer: try? Self.serve(config: config)) }
        for refusal in refusals {
            #expect(refusal.answer?.status == 64 && refusal.answer?.output.contains(refusal.message) == true, "\(refusal)")
        }
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let badEnvironment = try HearthProcess.run(
            ["serve", "--dev", "--data-dir", directory.path], environment: ["HEARTH_EMAIL_ENUMERATION_PROTECTION": "maybe"])
        #expect(badEnvironment.status == 64 && badEnvironment.output.contains("HEARTH_EMAIL_ENUMERATION_PROTECTION"))
    }

    /// `hearth serve --dev` with `config` as its config file (in a data directory of its own, removed after).
    static func serve(config: String) throws -> (status: Int32, output: String) {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        try Data(config.utf8).write(to: file)
        return try HearthProcess.run(["serve", "--dev", "--config", file.path, "--data-dir", directory.path])
    }
}
