import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Linking, lookup, update, delete")
struct AccountOperationsTests {
    @Test("linking adds the identity to the signed-in user and issues new tokens")
    func link() throws {
        let test = try TestPlatform()
        let localID = "plain-user"
        try test.store.write { writer in
            try writer.insertAccount(Account(localID: localID, createdAtMillis: test.time.nowMillis, validSinceMillis: test.time.nowMillis - 10_000))
        }
        let session = try test.store.write { writer in
            try test.tokens.newRefreshToken(
                for: try #require(try writer.account(localID: localID)),
                session: Session(signInProvider: "anonymous", authTime: test.time.nowSeconds), writer: writer)
        }
        let idToken = try test.tokens.refresh(RefreshTokenRequest(refreshToken: session), by: .user(client: nil)).idToken
        let linked = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "C", email: "c@example.com"), linking: idToken), by: .user(client: nil))
        #expect(linked.localId == localID)
        #expect(linked.isNewUser == nil)
        let claims = try test.claims(of: try #require(linked.idToken))
        #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
        let account = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(account.identity(for: "google.com")?.rawID == "C")
        #expect(account.email == "c@example.com")
    }

    @Test("PROVIDER_ALREADY_LINKED when the user already has google.com")
    func providerAlreadyLinked() throws {
        let test = try TestPlatform()
        let first = try test.signIn(subject: "D")
        let other = try test.google.idToken(subject: "E")
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: other, linking: first.idToken), by: .user(client: nil)) } == .providerAlreadyLinked)
    }

    @Test("with returnIdpCredential, FEDERATED_USER_ID_ALREADY_LINKED and EMAIL_EXISTS are 200 + errorMessage")
    func credentialInUse() throws {
        let test = try TestPlatform()
        _ = try test.signIn(subject: "F", email: "f@example.com")
        try test.store.write { writer in
            try writer.insertAccount(Account(localID: "linker", createdAtMillis: test.time.nowMillis, validSinceMillis: test.time.nowMillis - 10_000))
        }
        let session = try test.store.write { writer in
            try test.tokens.newRefreshToken(
                for: try #require(try writer.account(localID: "linker")),
                session: Session(signInProvider: "anonymous", authTime: test.time.nowSeconds), writer: writer)
        }
        let idToken = try test.tokens.refresh(RefreshTokenRequest(refreshToken: session), by: .user(client: nil)).idToken
        let googleToken = try test.google.idToken(subject: "F", email: "f@example.com")
        let inUse = try test.accounts.signInWithIdp(test.signInRequest(idToken: googleToken, linking: idToken), by: .user(client: nil))
        #expect(inUse.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(inUse.localId == nil && inUse.idToken == nil)
        #expect(inUse.oauthIdToken == googleToken)
        #expect(inUse.email == "f@example.com")

        let sameEmail = try test.google.idToken(subject: "G", email: "f@example.com")
        let emailExists = try test.accounts.signInWithIdp(test.signInRequest(idToken: sameEmail, linking: idToken), by: .user(client: nil))
        #expect(emailExists.errorMessage == "EMAIL_EXISTS")
        #expect(wireErrorCode {
            _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: sameEmail, linking: idToken, returnIdpCredential: false), by: .user(client: nil))
        } == .emailExists)
    }

    @Test("lookup returns the wire UserInfo of the signed-in user")
    func lookup() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "H", email: "h@example.com")
        let users = try #require(try test.accounts.lookup(LookupRequest(idToken: signIn.idToken)).users)
        #expect(users.count == 1)
        let user = users[0]
        #expect(user.localId == signIn.localId)
        #expect(user.email == "h@example.com")
        #expect(user.emailVerified == true)
        #expect(user.displayName == "Test User")
        #expect(user.createdAt == String(test.time.nowMillis))
        #expect(user.lastLoginAt == String(test.time.nowMillis))
        #expect(user.validSince == String(test.time.nowSeconds))
        let provider = try #require(user.providerUserInfo?.first)
        #expect(provider.providerId == "google.com")
        #expect(provider.rawId == "H")
        #expect(provider.federatedId == "H")
        #expect(wireErrorCode { _ = try test.accounts.lookup(LookupRequest(idToken: nil)) } == .missingIDToken)
    }

    @Test("update sets and deletes display name and photo, and unlinks providers")
    func update() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "I", email: "i@example.com")
        var request = UpdateAccountRequest(idToken: signIn.idToken)
        request.displayName = "New Name"
        request.photoUrl = "https://example.com/me.png"
        let updated = try test.accounts.update(request, by: .user(client: nil))
        #expect(updated.localId == signIn.localId)
        #expect(updated.displayName == "New Name")
        #expect(updated.photoUrl == "https://example.com/me.png")

        var delete = UpdateAccountRequest(idToken: signIn.idToken)
        delete.deleteAttribute = ["DISPLAY_NAME", "PHOTO_URL"]
        delete.deleteProvider = ["google.com"]
        let cleared = try test.accounts.update(delete, by: .user(client: nil))
        #expect(cleared.displayName == nil && cleared.photoUrl == nil)
        #expect(cleared.providerUserInfo == [])
        let account = try #require(try test.store.read { try $0.account(localID: signIn.localId!) })
        #expect(account.displayName == nil && account.providers.isEmpty)
    }

    @Test("update refuses admin-only fields and bad values without changing anything")
    func updateRefusals() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "J")
        var custom = UpdateAccountRequest(idToken: signIn.idToken)
        custom.customAttributes = #"{"admin":true}"#
        custom.displayName = "Should not stick"
        #expect(wireErrorCode { _ = try test.accounts.update(custom, by: .user(client: nil)) } == .insufficientPermission)
        var disable = UpdateAccountRequest(idToken: signIn.idToken)
        disable.disableUser = true
        #expect(wireErrorCode { _ = try test.accounts.update(disable, by: .user(client: nil)) } == .operationNotAllowed)
        var photo = UpdateAccountRequest(idToken: signIn.idToken)
        photo.photoUrl = "not a url"
        #expect(wireErrorCode { _ = try test.accounts.update(photo, by: .user(client: nil)) } == .invalidPhotoURL)
        #expect(wireErrorCode { _ = try test.accounts.update(UpdateAccountRequest(idToken: nil), by: .user(client: nil)) } == .invalidReqType)
        let account = try #require(try test.store.read { try $0.account(localID: signIn.localId!) })
        #expect(account.displayName == "Test User" && account.customAttributes == nil && !account.disabled)
    }

    @Test("delete removes the account and ends its sessions")
    func delete() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "K")
        #expect(try test.accounts.delete(DeleteAccountRequest(idToken: signIn.idToken), by: .user(client: nil)).kind == "identitytoolkit#DeleteAccountResponse")
        #expect(try test.store.read { try $0.account(localID: signIn.localId!) } == nil)
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: signIn.refreshToken), by: .user(client: nil)) } == .userNotFound)
        #expect(wireErrorCode { _ = try test.accounts.delete(DeleteAccountRequest(idToken: signIn.idToken), by: .user(client: nil)) } == .userNotFound)
    }

    @Test("removeSecondFactor removes that factor only, in one write; unknown factors and users are refused")
    func removeSecondFactor() throws {
        let test = try TestPlatform()
        let phone = MFAEnrollment(enrollmentID: "phone-1", kind: .phone, enrolledAtMillis: 1, phoneNumber: "+15555550100")
        let totp = MFAEnrollment(enrollmentID: "totp-1", kind: .totp, enrolledAtMillis: 2, totpSecret: Array(repeating: 7, count: 20))
        try test.store.write { try $0.insertAccount(Account(localID: "mfa-user", createdAtMillis: 0, validSinceMillis: 0, mfaEnrollments: [phone, totp])) }

        let result = try test.platform.admin.removeSecondFactor(localID: "mfa-user", enrollmentID: "phone-1", by: .commandLine)
        #expect(result.removed == phone)
        #expect(result.remaining == 1)
        #expect(try test.store.read { try $0.account(localID: "mfa-user") }?.mfaEnrollments == [totp])

        do {
            _ = try test.platform.admin.removeSecondFactor(localID: "mfa-user", enrollmentID: "phone-1", by: .commandLine)
            Issue.record("a removed factor was removed again")
        } catch let error as WireError {
            #expect(error.code == .mfaEnrollmentNotFound)
            #expect(error.detail?.contains("(it has: totp-1)") == true, "\(error)")
        }
        #expect(wireErrorCode { _ = try test.platform.admin.removeSecondFactor(localID: "nobody", enrollmentID: "totp-1", by: .commandLine) } == .userNotFound)
        #expect(try test.store.read { try $0.account(localID: "mfa-user") }?.mfaEnrollments == [totp])
    }
}
