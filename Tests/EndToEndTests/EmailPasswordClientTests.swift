import Foundation
import HearthAuth
import Testing

/// HearthAuth's email and password calls against a real `hearth serve --dev`: the iOS SDK's requests (legacy v3
/// names, `clientType`) end to end, the errors as an app sees them, and the session bookkeeping.
@Suite("HearthAuth email and password against the server (e2e)", .blocking)
struct EmailPasswordClientTests {
    static let password = "first-Password-1"

    /// A fresh client of `server`, as an app on its own device.
    func client(_ server: HearthProcess) -> Auth {
        let auth = Auth(
            options: HearthOptions(apiKey: "e2e-key", projectID: "demo-hearth"), sessionStore: InMemorySessionStore())
        auth.useEmulator(withHost: "127.0.0.1", port: Int(server.port))
        return auth
    }

    func errorCode(of body: () async throws -> Void) async -> AuthErrorCode? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? AuthError)?.code
        }
    }

    @Test("create, sign out, sign in again; wrong password and unknown email look the same; nothing stored on failure")
    func signUpAndSignIn() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = client(server)
        let created = try await auth.createUser(withEmail: "e2e.ada@example.com", password: Self.password)
        #expect(created.additionalUserInfo?.isNewUser == true)
        let uid = created.user.uid
        #expect(created.user.email == "e2e.ada@example.com")
        #expect(created.user.providerData.map(\.providerID) == ["password"])
        #expect(try await created.user.getIDTokenResult().signInProvider == "password")

        try auth.signOut()
        let signedIn = try await auth.signIn(withEmail: "e2e.ada@example.com", password: Self.password)
        #expect(signedIn.user.uid == uid)
        #expect(signedIn.additionalUserInfo?.isNewUser == false)
        #expect(auth.currentUser === signedIn.user)

        // Email enumeration protection is on by default: both failures are INVALID_LOGIN_CREDENTIALS.
        let other = client(server)
        let wrong = await errorCode {
            try await other.signIn(withEmail: "e2e.ada@example.com", password: "not-the-password")
        }
        let unknown = await errorCode {
            try await other.signIn(withEmail: "nobody@example.com", password: Self.password)
        }
        #expect(wrong == .invalidCredential)
        #expect(unknown == .invalidCredential)
        #expect(other.currentUser == nil)

        #expect(
            await errorCode {
                try await other.createUser(withEmail: "e2e.ada@example.com", password: "another-Password-2")
            }
                == .emailAlreadyInUse)
        #expect(
            await errorCode { try await other.createUser(withEmail: "not an email", password: Self.password) }
                == .invalidEmail)
        do {
            try await other.createUser(withEmail: "short@example.com", password: "abc")
            Issue.record("a 3-character password was accepted")
        } catch let error as AuthError {
            #expect(error.code == .weakPassword)
            #expect(error.message == "Password should be at least 6 characters")
        }
        // The client checks the same rule with the server's policy before sending anything.
        #expect(try await !other.validatePassword("abc").isValid)
        #expect(try await other.validatePassword(Self.password).isValid)
    }

    @Test("a password change keeps this session with fresh tokens and ends the other device's; old password refused")
    func passwordChange() async throws {
        let server = HearthProcess()
        try server.start()
        let phone = client(server)
        let laptop = client(server)
        let user = try await phone.createUser(withEmail: "e2e.change@example.com", password: Self.password).user
        let laptopUser = try await laptop.signIn(withEmail: "e2e.change@example.com", password: Self.password).user
        // A password change needs a recent sign-in (5 minutes); on a busy test machine the steps above can take longer,
        // so sign in again first, as an app does before a sensitive change.
        try await user.reauthenticate(
            with: EmailAuthProvider.credential(withEmail: "e2e.change@example.com", password: Self.password))
        let before = user.refreshToken

        try await user.updatePassword(to: "second-Password-2")
        #expect(user.refreshToken != before)
        #expect(phone.currentUser === user)
        _ = try await user.getIDToken(forcingRefresh: true)
        try await user.reload()

        #expect(await errorCode { _ = try await laptopUser.getIDToken(forcingRefresh: true) } == .userTokenExpired)
        #expect(laptop.currentUser == nil)
        #expect(
            await errorCode { try await laptop.signIn(withEmail: "e2e.change@example.com", password: Self.password) }
                == .invalidCredential)
        try await laptop.signIn(withEmail: "e2e.change@example.com", password: "second-Password-2")

        // Reauthenticating with the new password keeps the same user object signed in.
        let result = try await user.reauthenticate(
            with: EmailAuthProvider.credential(withEmail: "e2e.change@example.com", password: "second-Password-2"))
        #expect(result.user === user)
        #expect(
            await errorCode {
                try await user.reauthenticate(
                    with: EmailAuthProvider.credential(withEmail: "e2e.change@example.com", password: Self.password))
            } == .invalidCredential)
        #expect(phone.currentUser === user)
    }

    @Test("a guest links a password and keeps its uid; the email then signs in to the same account")
    func guestLinksPassword() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = client(server)
        let guest = try await auth.signInAnonymously().user
        let uid = guest.uid
        try await guest.link(
            with: EmailAuthProvider.credential(withEmail: "e2e.guest@example.com", password: Self.password))
        #expect(!guest.isAnonymous)
        #expect(guest.uid == uid)
        #expect(guest.email == "e2e.guest@example.com")
        try auth.signOut()
        #expect(try await auth.signIn(withEmail: "e2e.guest@example.com", password: Self.password).user.uid == uid)
    }

    @Test("password reset through the dev oobCodes listing: check, confirm, then the code is used up")
    func passwordReset() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = client(server)
        try await auth.createUser(withEmail: "e2e.reset@example.com", password: Self.password)
        try auth.signOut()

        try await auth.sendPasswordReset(withEmail: "e2e.reset@example.com")
        let code = try #require(try issuedCode(server, type: "PASSWORD_RESET", email: "e2e.reset@example.com"))
        #expect(try await auth.verifyPasswordResetCode(code) == "e2e.reset@example.com")
        let info = try await auth.checkActionCode(code)
        #expect(info.operation == .passwordReset)
        try await auth.confirmPasswordReset(withCode: code, newPassword: "reset-Password-3")
        #expect(
            await errorCode { try await auth.confirmPasswordReset(withCode: code, newPassword: "again-Password-4") }
                == .invalidActionCode)
        #expect(
            await errorCode { try await auth.signIn(withEmail: "e2e.reset@example.com", password: Self.password) }
                == .invalidCredential)
        try await auth.signIn(withEmail: "e2e.reset@example.com", password: "reset-Password-3")
        // An unknown email is not revealed.
        try await auth.sendPasswordReset(withEmail: "nobody@example.com")
    }

    @Test("email verification: send for the signed-in user, apply the listed code, reload shows it verified")
    func emailVerification() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = client(server)
        let user = try await auth.createUser(withEmail: "e2e.verify@example.com", password: Self.password).user
        #expect(!user.isEmailVerified)
        try await user.sendEmailVerification()
        let code = try #require(try issuedCode(server, type: "VERIFY_EMAIL", email: "e2e.verify@example.com"))
        #expect(try await auth.checkActionCode(code).operation == .verifyEmail)
        try await auth.applyActionCode(code)
        try await user.reload()
        #expect(user.isEmailVerified)
        #expect(await errorCode { try await auth.applyActionCode(code) } == .invalidActionCode)
    }

    @Test("email-link sign-in: the listed link is a sign-in link and signs the email in")
    func emailLink() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = client(server)
        let settings = ActionCodeSettings(url: URL(string: "https://example.com/finish"), handleCodeInApp: true)
        try await auth.sendSignInLink(toEmail: "e2e.link@example.com", actionCodeSettings: settings)
        let link = try #require(try issuedLink(server, type: "EMAIL_SIGNIN", email: "e2e.link@example.com"))
        #expect(auth.isSignIn(withEmailLink: link))
        let result = try await auth.signIn(withEmail: "e2e.link@example.com", link: link)
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.user.email == "e2e.link@example.com")
    }

    // MARK: - The dev listing

    /// The newest code of `type` for `email` in `GET /emulator/v1/projects/demo-hearth/oobCodes`.
    func issuedCode(_ server: HearthProcess, type: String, email: String) throws -> String? {
        try issued(server, type: type, email: email)?["oobCode"] as? String
    }

    func issuedLink(_ server: HearthProcess, type: String, email: String) throws -> String? {
        try issued(server, type: type, email: email)?["oobLink"] as? String
    }

    private func issued(_ server: HearthProcess, type: String, email: String) throws -> [String: Any]? {
        let listing = try server.request("GET", "/emulator/v1/projects/demo-hearth/oobCodes")
        let codes = listing.json["oobCodes"] as? [[String: Any]] ?? []
        return codes.last { $0["requestType"] as? String == type && $0["email"] as? String == email }
    }
}
