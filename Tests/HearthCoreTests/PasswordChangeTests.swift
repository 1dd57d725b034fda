import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Email and password: linking, changing, removing, and administrators' passwords")
struct PasswordChangeTests {
    static let password = PasswordSignInTests.password

    static func signIn(_ test: TestPlatform, _ email: String, _ password: String = password) throws -> SignInWithPasswordResponse {
        try PasswordSignInTests.signIn(test, email, password)
    }

    @Test("an anonymous user links email and password in place: same uid, no longer anonymous, a password session")
    func anonymousUpgrade() throws {
        let test = try TestPlatform()
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let linked = try test.accounts.signUp(SignUpRequest(email: "Guest@Example.com", password: Self.password, idToken: guest.idToken), by: .user(client: nil))
        #expect(linked.localId == guest.localId && linked.email == "guest@example.com")
        #expect(try test.claims(of: linked.idToken)["firebase"]?["sign_in_provider"] == "password")
        let account = try #require(try test.store.read { try $0.account(localID: guest.localId) })
        #expect(!account.isAnonymous && account.email == "guest@example.com" && account.passwordHash != nil)
        #expect(try Self.signIn(test, "guest@example.com").localId == guest.localId)

        // Linking again is a password change, which belongs to accounts:update.
        #expect(wireErrorCode {
            _ = try test.accounts.signUp(SignUpRequest(email: "guest@example.com", password: "other password", idToken: linked.idToken), by: .user(client: nil))
        } == .providerAlreadyLinked)
    }

    @Test("a Google account gains a password; an email another account has is EMAIL_EXISTS and changes nothing")
    func linkToGoogle() throws {
        let test = try TestPlatform()
        let google = try test.signIn(subject: "g-1", email: "g@example.com")
        let idToken = try #require(google.idToken)
        try PasswordSignInTests.signUp(test, "taken@example.com")
        let before = try test.store.read { try $0.account(localID: google.localId!) }
        #expect(wireErrorCode {
            _ = try test.accounts.signUp(SignUpRequest(email: "TAKEN@example.com", password: Self.password, idToken: idToken), by: .user(client: nil))
        } == .emailExists)
        #expect(try test.store.read { try $0.account(localID: google.localId!) } == before)

        _ = try test.accounts.signUp(SignUpRequest(email: "g@example.com", password: Self.password, idToken: idToken), by: .user(client: nil))
        let account = try #require(try test.store.read { try $0.account(localID: google.localId!) })
        #expect(account.emailVerified, "the same email keeps its verification")
        let record = try test.platform.admin.lookup(AdminLookupRequest(localId: [account.localID])).users?.first
        #expect(record?.providerUserInfo?.map(\.providerId) == ["google.com", "password"])
        #expect(try Self.signIn(test, "g@example.com").localId == google.localId)
    }

    @Test("a new password ends every other session; the caller's fresh tokens work and say password")
    func changePassword() throws {
        let test = try TestPlatform()
        let created = try PasswordSignInTests.signUp(test, "ada@example.com")
        test.time.advance(by: 10)
        let other = try Self.signIn(test, "ada@example.com")
        test.time.advance(by: 10)
        var request = UpdateAccountRequest(idToken: created.idToken)
        request.password = "new password"
        let changed = try test.accounts.update(request, by: .user(client: nil))
        #expect(changed.localId == created.localId && changed.newEmail == nil && changed.expiresIn == "3600")
        let idToken = try #require(changed.idToken)
        #expect(try test.claims(of: idToken)["firebase"]?["sign_in_provider"] == "password")
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: other.refreshToken), by: .user(client: nil)) } == .tokenExpired)
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: created.refreshToken), by: .user(client: nil)) } == .tokenExpired)
        #expect(try test.tokens.refresh(RefreshTokenRequest(refreshToken: changed.refreshToken), by: .user(client: nil)).idToken.isEmpty == false)
        #expect(try test.accounts.lookup(LookupRequest(idToken: idToken)).users?.first?.localId == created.localId)
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .invalidLoginCredentials)
        _ = try Self.signIn(test, "ada@example.com", "new password")
    }

    @Test("without enumeration protection, a new email is checked, unique and unverified; the tokens keep the session's provider")
    func changeEmail() throws {
        let test = try TestPlatform(emailEnumerationProtection: false)
        let google = try test.signIn(subject: "g-1", email: "g@example.com")
        try PasswordSignInTests.signUp(test, "taken@example.com")
        var request = UpdateAccountRequest(idToken: google.idToken)
        request.email = "TAKEN@example.com"
        #expect(wireErrorCode { _ = try test.accounts.update(request, by: .user(client: nil)) } == .emailExists)
        request.email = "not an email"
        #expect(wireErrorCode { _ = try test.accounts.update(request, by: .user(client: nil)) } == .invalidEmail)
        request.email = "New@Example.com"
        let changed = try test.accounts.update(request, by: .user(client: nil))
        #expect(changed.newEmail == "new@example.com" && changed.email == "new@example.com" && changed.emailVerified == false)
        let claims = try test.claims(of: try #require(changed.idToken))
        #expect(claims["firebase"]?["sign_in_provider"] == "google.com" && claims["email"] == "new@example.com")
    }

    @Test("under enumeration protection a client cannot set its email directly, taken or not; nothing changes")
    func protectedEmailChange() throws {
        let test = try TestPlatform()
        let google = try test.signIn(subject: "g-1", email: "g@example.com")
        try PasswordSignInTests.signUp(test, "taken@example.com")
        let before = try test.store.read { try $0.account(localID: google.localId!) }
        for email in ["taken@example.com", "free@example.com"] {
            var request = UpdateAccountRequest(idToken: google.idToken)
            request.email = email
            #expect(wireErrorCode { _ = try test.accounts.update(request, by: .user(client: nil)) } == .operationNotAllowed)
        }
        #expect(try test.store.read { try $0.account(localID: google.localId!) } == before)
    }

    @Test("changes of email are limited per account and per client, counted before the address is looked up")
    func emailChangeQuotas() throws {
        let test = try TestPlatform(
            emailActions: EmailActionSettings(
                emailChanges: EmailChangeLimits(
                    perAccount: WindowQuota(limit: 3, window: 3_600), perClient: WindowQuota(limit: 5, window: 3_600))),
            emailEnumerationProtection: false)
        try PasswordSignInTests.signUp(test, "taken@example.com")
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        /// One probe of `email` as the guest from `client`: what an attacker learns.
        func probe(_ email: String, as idToken: String, from client: String) -> ErrorCode? {
            var request = UpdateAccountRequest(idToken: idToken)
            request.email = email
            return wireErrorCode { _ = try test.accounts.update(request, by: .user(client: client)) }
        }
        #expect(probe("taken@example.com", as: guest.idToken, from: "198.51.100.1") == .emailExists)
        #expect(probe("taken@example.com", as: guest.idToken, from: "198.51.100.1") == .emailExists)
        #expect(probe("taken@example.com", as: guest.idToken, from: "198.51.100.1") == .emailExists)
        #expect(probe("taken@example.com", as: guest.idToken, from: "198.51.100.1") == .tooManyAttemptsTryLater,
                "the account's quota is spent: a taken and a free address answer alike")
        #expect(probe("free@example.com", as: guest.idToken, from: "198.51.100.2") == .tooManyAttemptsTryLater)
        // A fresh guest per probe does not help: the client's quota counts across accounts.
        var answers: [ErrorCode?] = []
        for _ in 0..<4 {
            let fresh = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
            answers.append(probe("taken@example.com", as: fresh.idToken, from: "198.51.100.1"))
        }
        #expect(answers == [.emailExists, .emailExists, .tooManyAttemptsTryLater, .tooManyAttemptsTryLater])
        // Linking an email and password counts too.
        let linker = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        #expect(wireErrorCode {
            _ = try test.accounts.signUp(
                SignUpRequest(email: "taken@example.com", password: Self.password, idToken: linker.idToken), by: .user(client: "198.51.100.1"))
        } == .tooManyAttemptsTryLater)
    }

    @Test("changing the email or password needs a sign-in of the last five minutes; a weak password changes nothing")
    func recentLoginAndPolicy() throws {
        let test = try TestPlatform(emailEnumerationProtection: false)
        let created = try PasswordSignInTests.signUp(test, "ada@example.com")
        let before = try test.store.read { try $0.account(localID: created.localId) }
        var weak = UpdateAccountRequest(idToken: created.idToken)
        weak.password = "short"
        #expect(wireErrorCode { _ = try test.accounts.update(weak, by: .user(client: nil)) } == .weakPassword)
        test.time.advance(by: 301)
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: created.refreshToken), by: .user(client: nil))
        var late = UpdateAccountRequest(idToken: refreshed.idToken)
        late.password = "new password"
        #expect(wireErrorCode { _ = try test.accounts.update(late, by: .user(client: nil)) } == .credentialTooOldLoginAgain)
        let after = try test.store.read { try $0.account(localID: created.localId) }
        #expect(after?.passwordHash == before?.passwordHash && after?.validSinceMillis == before?.validSinceMillis)

        // A guest has no credential to protect: an hour-old anonymous session may set its email and password.
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        test.time.advance(by: 3_600)
        var upgrade = UpdateAccountRequest(idToken: try test.tokens.refresh(RefreshTokenRequest(refreshToken: guest.refreshToken), by: .user(client: nil)).idToken)
        upgrade.email = "guest@example.com"
        upgrade.password = "guest password"
        #expect(try test.accounts.update(upgrade, by: .user(client: nil)).localId == guest.localId)
        #expect(try PasswordSignInTests.signIn(test, "guest@example.com", "guest password").localId == guest.localId)
    }

    @Test("deleteAttribute PASSWORD removes the password: the password provider goes, sign-in fails")
    func removePassword() throws {
        let test = try TestPlatform()
        let created = try PasswordSignInTests.signUp(test, "ada@example.com")
        var request = UpdateAccountRequest(idToken: created.idToken)
        request.deleteAttribute = ["PASSWORD"]
        let updated = try test.accounts.update(request, by: .user(client: nil))
        #expect(updated.providerUserInfo == [])
        #expect(try test.store.read { try $0.account(localID: created.localId) }?.passwordHash == nil)
        #expect(wireErrorCode { _ = try Self.signIn(test, "ada@example.com") } == .invalidLoginCredentials)
    }

    @Test("administrators create and change passwords through the hasher; a change ends the sessions")
    func administrators() throws {
        let test = try TestPlatform()
        var create = AdminCreateAccountRequest()
        create.email = "Admin@Example.com"
        create.password = Self.password
        let created = try test.platform.admin.create(create, by: .system)
        let session = try Self.signIn(test, "admin@example.com")
        #expect(session.localId == created.localId)
        let record = try #require(try test.platform.admin.lookup(AdminLookupRequest(localId: [created.localId])).users?.first)
        #expect(record.passwordHash == "UkVEQUNURUQ=" && record.providerUserInfo?.map(\.providerId) == ["password"])

        test.time.advance(by: 5)
        var update = AdminUpdateAccountRequest(localId: created.localId)
        update.password = "set by admin"
        _ = try test.platform.admin.update(update, by: .system)
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: session.refreshToken), by: .user(client: nil)) } == .tokenExpired)
        #expect(wireErrorCode { _ = try Self.signIn(test, "admin@example.com") } == .invalidLoginCredentials)
        _ = try Self.signIn(test, "admin@example.com", "set by admin")
    }
}
