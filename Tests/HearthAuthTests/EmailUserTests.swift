import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// `updatePassword(to:)`, `link(with:)` for email credentials and `reauthenticate(with:)`.
@Suite("Email and password: the signed-in user")
struct EmailUserTests {
    @Test("updatePassword posts setAccountInfo {idToken, password, returnSecureToken} and keeps the fresh tokens")
    func updatePassword() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        let fresh = EmailFixture.idToken(issuedAt: Fixture.startTime + 60)
        harness.transport.enqueue(
            "setAccountInfo",
            json: [
                "localId": .string(Fixture.uid), "email": .string(EmailFixture.email),
                "providerUserInfo": [EmailFixture.passwordProvider], "idToken": .string(fresh),
                "refreshToken": "refresh-after-change", "expiresIn": "3600",
            ])
        var log = ListenerLog(harness.auth)
        _ = await log.drain()

        try await user.updatePassword(to: "a brand new password")
        let request = try #require(harness.transport.requests(to: "setAccountInfo").first)
        #expect(request.isStandardPost(to: "setAccountInfo"))
        #expect(
            request.json == [
                "idToken": .string(EmailFixture.idToken()), "password": "a brand new password",
                "returnSecureToken": true,
            ])
        // The server revoked the old session: the user now holds, and the store keeps, the new tokens.
        #expect(user.refreshToken == "refresh-after-change")
        #expect(try await user.getIDToken() == fresh)
        #expect(try harness.savedSession().refreshToken == "refresh-after-change")
        #expect(try harness.savedSession().idToken == fresh)
        #expect(await log.drain() == ["token:\(Fixture.uid)"])
        #expect(harness.transport.requests(to: "token").isEmpty)
    }

    @Test("updatePassword refuses an empty password without a request; requiresRecentLogin keeps the user signed in")
    func updatePasswordErrors() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        let empty = try #require(await authError { try await user.updatePassword(to: "") })
        #expect(empty.code == .weakPassword)
        #expect(harness.transport.requests(to: "setAccountInfo").isEmpty)

        harness.transport.enqueue(
            "setAccountInfo", status: 400, json: Fixture.errorEnvelope("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
        let old = try #require(await authError { try await user.updatePassword(to: "another password") })
        #expect(old.code == .requiresRecentLogin)
        #expect(harness.auth.currentUser === user)
        #expect(user.refreshToken == "refresh-1")

        harness.transport.enqueue("setAccountInfo", status: 400, json: Fixture.errorEnvelope("TOKEN_EXPIRED"))
        let dead = try #require(await authError { try await user.updatePassword(to: "another password") })
        #expect(dead.code == .userTokenExpired)
        #expect(harness.auth.currentUser == nil)
    }

    @Test("link(with:) a password posts signupNewUser with the user's idToken, keeps the uid and the new tokens")
    func linkPassword() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "signupNewUser",
            json: [
                "kind": "identitytoolkit#SignupNewUserResponse",
                "idToken": .string(Fixture.idToken(provider: "anonymous")),
                "refreshToken": "refresh-guest", "expiresIn": "3600", "localId": .string(Fixture.uid),
            ])
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(providers: []))
        let guest = try await harness.auth.signInAnonymously().user
        #expect(guest.isAnonymous)

        harness.transport.enqueue("signupNewUser", json: EmailFixture.signInResponse(refreshToken: "refresh-linked"))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let result = try await guest.link(
            with: EmailAuthProvider.credential(withEmail: EmailFixture.email, password: EmailFixture.password))
        let request = try #require(harness.transport.requests(to: "signupNewUser").last)
        #expect(request.isStandardPost(to: "signupNewUser"))
        #expect(
            request.json == [
                "email": .string(EmailFixture.email), "password": .string(EmailFixture.password),
                "idToken": .string(Fixture.idToken(provider: "anonymous")), "returnSecureToken": true,
                "clientType": EmailFixture.iOSClientType,
            ])
        #expect(result.user === guest)
        #expect(!guest.isAnonymous)
        #expect(guest.uid == Fixture.uid)
        #expect(guest.refreshToken == "refresh-linked")
        #expect(guest.providerData.map(\.providerID) == ["password"])
        #expect(try harness.savedSession().isAnonymous == false)
        #expect(try harness.savedSession().refreshToken == "refresh-linked")

        // A second password is refused locally.
        let again = try #require(
            await authError {
                try await guest.link(
                    with: EmailAuthProvider.credential(withEmail: "x@example.com", password: "pw1234567"))
            })
        #expect(again.code == .providerAlreadyLinked)
        #expect(harness.transport.requests(to: "signupNewUser").count == 2)
    }

    @Test("link(with:) an email link posts emailLinkSignin with the oobCode and the user's idToken")
    func linkEmailLink() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("emailLinkSignin", json: EmailFixture.signInResponse(refreshToken: "refresh-link"))
        harness.transport.enqueue(
            "getAccountInfo", json: Fixture.userRecord(providers: [EmailFixture.passwordProvider]))
        try await user.link(
            with: EmailAuthProvider.credential(withEmail: EmailFixture.email, link: EmailFixture.signInLink()))
        let request = try #require(harness.transport.requests(to: "emailLinkSignin").first)
        #expect(request.isStandardPost(to: "emailLinkSignin"))
        #expect(
            request.json == [
                "email": .string(EmailFixture.email), "oobCode": "code-123", "idToken": .string(Fixture.idToken()),
            ])
        #expect(user.refreshToken == "refresh-link")
    }

    @Test("link(with:) EMAIL_EXISTS → emailAlreadyInUse; the user stays as it was")
    func linkConflict() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("signupNewUser", status: 400, json: Fixture.errorEnvelope("EMAIL_EXISTS"))
        let error = try #require(
            await authError {
                try await user.link(
                    with: EmailAuthProvider.credential(withEmail: EmailFixture.email, password: EmailFixture.password))
            })
        #expect(error.code == .emailAlreadyInUse)
        #expect(harness.auth.currentUser === user)
        #expect(user.refreshToken == "refresh-1")
    }

    @Test("reauthenticate with a password posts verifyPassword, keeps the user object and takes the new tokens")
    func reauthenticateWithPassword() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        let fresh = EmailFixture.idToken(issuedAt: Fixture.startTime + 600)
        harness.transport.enqueue(
            "verifyPassword", json: EmailFixture.signInResponse(idToken: fresh, refreshToken: "refresh-reauth"))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        let result = try await user.reauthenticate(
            with: EmailAuthProvider.credential(withEmail: EmailFixture.email, password: EmailFixture.password))
        #expect(result.user === user)
        #expect(harness.auth.currentUser === user)
        #expect(result.additionalUserInfo?.providerID == "password")
        let request = try #require(harness.transport.requests(to: "verifyPassword").last)
        #expect(
            request.json == [
                "email": .string(EmailFixture.email), "password": .string(EmailFixture.password),
                "returnSecureToken": true, "clientType": EmailFixture.iOSClientType,
            ])
        #expect(user.refreshToken == "refresh-reauth")
        #expect(try harness.savedSession().idToken == fresh)
    }

    @Test("reauthenticate with Google posts verifyAssertion with autoCreate false")
    func reauthenticateWithGoogle() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue(
            "verifyAssertion", json: Fixture.signInResponse(refreshToken: "refresh-google-reauth", isNewUser: false))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let result = try await user.reauthenticate(with: Fixture.googleCredential)
        let request = try #require(harness.transport.requests(to: "verifyAssertion").last)
        #expect(request.json?["autoCreate"] == false)
        #expect(request.json?["idToken"] == nil)
        #expect(result.additionalUserInfo?.providerID == "google.com")
        #expect(user.refreshToken == "refresh-google-reauth")
    }

    @Test("reauthenticate with another account's credential → userMismatch; the user keeps its tokens")
    func reauthenticateMismatch() async throws {
        let harness = Harness()
        let user = try await harness.signInWithPassword().user
        harness.transport.enqueue(
            "verifyPassword",
            json: EmailFixture.signInResponse(
                idToken: Fixture.idToken(uid: "someone-else", provider: "password"), refreshToken: "theirs"))
        harness.transport.enqueue("getAccountInfo", json: EmailFixture.userRecord(uid: "someone-else"))
        let error = try #require(
            await authError {
                try await user.reauthenticate(
                    with: EmailAuthProvider.credential(withEmail: "eve@example.com", password: "pw1234567"))
            })
        #expect(error.code == .userMismatch)
        #expect(user.refreshToken == "refresh-1")
        #expect(try harness.savedSession().refreshToken == "refresh-1")
        #expect(harness.auth.currentUser === user)

        // No such account (EMAIL_NOT_FOUND) is a mismatch too, as in iOS; wrong password stays wrongPassword.
        harness.transport.enqueue("verifyPassword", status: 400, json: Fixture.errorEnvelope("EMAIL_NOT_FOUND"))
        let unknown = try #require(
            await authError {
                try await user.reauthenticate(
                    with: EmailAuthProvider.credential(withEmail: "nobody@example.com", password: "pw1234567"))
            })
        #expect(unknown.code == .userMismatch)
        harness.transport.enqueue("verifyPassword", status: 400, json: Fixture.errorEnvelope("INVALID_PASSWORD"))
        let wrong = try #require(
            await authError {
                try await user.reauthenticate(
                    with: EmailAuthProvider.credential(withEmail: EmailFixture.email, password: "wrong-pw"))
            })
        #expect(wrong.code == .wrongPassword)
        #expect(harness.auth.currentUser === user)
    }
}
