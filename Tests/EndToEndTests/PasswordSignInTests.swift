import Foundation
import Testing

@Suite("Email and password sign-in through the SDKs' exact requests", .blocking, .serialized)
struct PasswordSignInTests {
    static let password = "correct horse battery"

    @Test("iOS and web: sign up, sign in, lookup; a wrong password and an unknown email get the same envelope")
    func signUpAndSignIn() throws {
        let server = HearthProcess()
        try server.start()
        let clients = PasswordClients(server: server)

        let ios = try clients.iosSignUp(email: "Ada@Example.com", password: Self.password, displayName: "Ada")
        let created = try SignedIn(ios)
        #expect(ios.json["email"] as? String == "ada@example.com" && ios.json["displayName"] as? String == "Ada")
        #expect(ios.json["expiresIn"] as? String == "3600")
        let signedIn = try clients.iosSignIn(email: "ada@example.com", password: Self.password)
        #expect(try SignedIn(signedIn).localID == created.localID)
        #expect(signedIn.json["registered"] as? Bool == true && signedIn.json["displayName"] as? String == "Ada")
        #expect(signedIn.json["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
        #expect(Self.signInProvider(try SignedIn(signedIn).idToken) == "password")

        let web = try SignedIn(try clients.webSignUp(email: "web@example.com", password: Self.password))
        #expect(try SignedIn(try clients.webSignIn(email: "WEB@example.com", password: Self.password)).localID == web.localID)
        let lookup = try FirebaseIOSClient(server: server).getAccountInfo(idToken: web.idToken)
        let user = try #require((lookup.json["users"] as? [[String: Any]])?.first)
        #expect(user["passwordHash"] as? String == "UkVEQUNURUQ=")
        #expect((user["providerUserInfo"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["password"])

        let wrong = try clients.iosSignIn(email: "ada@example.com", password: "not the password")
        let unknown = try clients.iosSignIn(email: "nobody@example.com", password: "not the password")
        #expect(wrong.status == 400 && wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS", "\(wrong.text)")
        #expect(wrong.status == unknown.status && wrong.text == unknown.text)
        let webWrong = try clients.webSignIn(email: "web@example.com", password: "not the password")
        #expect(webWrong.text == (try clients.webSignIn(email: "nobody@example.com", password: "x")).text)

        let taken = try clients.webSignUp(email: "ADA@example.com", password: Self.password)
        #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS") == true, "\(taken.text)")
        let weak = try clients.iosSignUp(email: "weak@example.com", password: "abc")
        #expect(weak.status == 400 && weak.errorMessage?.hasPrefix("WEAK_PASSWORD") == true, "\(weak.text)")
        #expect(!server.lines.contains { $0.contains(Self.password) || $0.contains("not the password") })
    }

    @Test("with email enumeration protection off: EMAIL_NOT_FOUND and INVALID_PASSWORD")
    func protectionOff() throws {
        let server = HearthProcess(environment: ["HEARTH_EMAIL_ENUMERATION_PROTECTION": "false"])
        try server.start()
        let clients = PasswordClients(server: server)
        _ = try SignedIn(try clients.iosSignUp(email: "ada@example.com", password: Self.password))
        #expect(try clients.iosSignIn(email: "ada@example.com", password: "wrong password").errorMessage?.hasPrefix("INVALID_PASSWORD") == true)
        #expect(try clients.iosSignIn(email: "nobody@example.com", password: "wrong").errorMessage?.hasPrefix("EMAIL_NOT_FOUND") == true)
    }

    @Test("bad input is answered with the error envelope, never a 500")
    func badInput() throws {
        let server = HearthProcess()
        try server.start()
        let clients = PasswordClients(server: server)
        _ = try SignedIn(try clients.webSignUp(email: "ada@example.com", password: Self.password))
        let bodies: [[String: Any]] = [
            [:], ["email": "ada@example.com"], ["password": Self.password], ["email": ["a"], "password": Self.password],
            ["email": "ada@example.com", "password": 123456789], ["email": "a@@b", "password": "x"],
            ["email": String(repeating: "a", count: 5000) + "@example.com", "password": Self.password],
            ["email": "ada@example.com", "password": String(repeating: "p", count: 100_000)],
            ["email": "ada@example.com\u{0}", "password": "\u{0}"], ["email": "ada@example.com", "password": "ü🔑"],
        ]
        for path in ["/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
                     "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                     "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k"] {
            for body in bodies {
                let answer = try server.postJSON(path, body)
                #expect((200..<500).contains(answer.status) && (answer.status == 200 || answer.errorMessage != nil), "\(path) \(body): \(answer.text)")
            }
            let notJSON = try server.request("POST", path, headers: [("Content-Type", "application/json")], body: Data("{".utf8))
            #expect(notJSON.status == 400)
        }
        let update = try clients.webUpdate(idToken: "not-a-token", ["password": Self.password])
        #expect(update.errorMessage == "INVALID_ID_TOKEN", "\(update.text)")
        #expect(!server.lines.contains { $0.contains("status=500") })
    }

    static func signInProvider(_ idToken: String) -> String? {
        (JWTParts.claims(idToken)["firebase"] as? [String: Any])?["sign_in_provider"] as? String
    }
}

@Suite("firebase-admin sets passwords that clients sign in with (e2e)", .blocking)
struct AdminPasswordTests {
    @Test("create_user and update_user with a password; the REST sign-in follows")
    func adminSDK() throws {
        let server = HearthProcess()
        try server.start()
        let settings = ["base": server.baseURL, "project": "demo-hearth"]
        let steps = try PythonClients.run(
            "admin_passwords.py", [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]
        ).compactMapValues { $0 as? [String: Any] }
        func value(_ step: String) -> Any? {
            #expect(steps[step]?["ok"] as? Bool == true, "\(step): \(steps[step]?["error"] ?? "did not run")")
            return steps[step]?["value"]
        }
        let uid = try #require(value("create_user") as? String)
        #expect(value("sign_in") as? [AnyHashable] == [200, uid])
        #expect(value("providers") as? [String] == ["password"])
        #expect(value("update_user") as? String == uid)
        #expect(value("old_password") as? [AnyHashable] == [400, "INVALID_LOGIN_CREDENTIALS"])
        #expect(value("new_password") as? [AnyHashable] == [200, uid])
    }
}

@Suite("Argon2id rehash at sign-in (e2e)", .blocking)
struct PasswordRehashTests {
    /// The stored hash of `email`, read from the server's database as an operator would.
    static func storedHash(_ server: HearthProcess, _ email: String) throws -> String {
        let database = server.dataDirectory.appendingPathComponent("hearth.sqlite").path
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [database, "SELECT password_hash FROM accounts WHERE email = '\(email)'"])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("restarted with other Argon2 parameters, the next successful sign-in stores a hash with the new ones")
    func rehash() throws {
        let first = HearthProcess(environment: ["HEARTH_ARGON2_MEMORY_KIB": "8192", "HEARTH_ARGON2_ITERATIONS": "1"])
        try first.start()
        _ = try SignedIn(try PasswordClients(server: first).iosSignUp(email: "ada@example.com", password: PasswordSignInTests.password))
        let old = try Self.storedHash(first, "ada@example.com")
        #expect(old.hasPrefix("$argon2id$v=19$m=8192,t=1,p=1$"), "\(old)")
        #expect(first.stop() == 0)

        let second = HearthProcess(
            environment: ["HEARTH_ARGON2_MEMORY_KIB": "16384", "HEARTH_ARGON2_ITERATIONS": "2"], dataDirectory: first.dataDirectory)
        try second.start()
        let clients = PasswordClients(server: second)
        #expect(try clients.iosSignIn(email: "ada@example.com", password: "wrong password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        #expect(try Self.storedHash(second, "ada@example.com") == old, "a failed sign-in rehashes nothing")
        _ = try SignedIn(try clients.webSignIn(email: "ada@example.com", password: PasswordSignInTests.password))
        let new = try Self.storedHash(second, "ada@example.com")
        #expect(new.hasPrefix("$argon2id$v=19$m=16384,t=2,p=1$") && new != old, "\(new)")
        _ = try SignedIn(try clients.iosSignIn(email: "ada@example.com", password: PasswordSignInTests.password))
        #expect(try Self.storedHash(second, "ada@example.com") == new)
        #expect(second.stop() == 0)
    }
}
