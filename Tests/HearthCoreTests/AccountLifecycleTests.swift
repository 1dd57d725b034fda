import Foundation
import HearthCore
import HearthProtocol
import Testing

/// The anonymous marker through the paths that give an account an identity, and the revocation of provider
/// tokens queued by every path that deletes an account.
@Suite("Anonymous marker and provider-token revocation on deletion")
struct AccountLifecycleTests {
    static let appleToken = "r.apple-refresh-token-0123456789"

    /// Gives the account an Apple identity holding a provider refresh token, as a code exchange would.
    static func linkApple(_ test: TestPlatform, to localID: String, rawID: String = "001234.apple") throws {
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.providers.append(
                LinkedIdentity(
                    providerID: "apple.com", rawID: rawID,
                    providerRefreshToken: ProviderRefreshToken(token: appleToken, clientID: "com.example.app")))
            try writer.updateAccount(account)
        }
    }

    static func queued(_ test: TestPlatform) throws -> [ProviderTokenRevocation] {
        try test.store.read { try $0.dueProviderTokenRevocations(atMillis: .max, limit: 100) }
    }

    static func isAnonymous(_ test: TestPlatform, _ localID: String) throws -> Bool? {
        try test.store.read { try $0.account(localID: localID) }?.isAnonymous
    }

    // MARK: The anonymous marker

    @Test("signUp marks the guest anonymous; linking Google clears it in the same write and its tokens name google.com")
    func linkingUpgrades() throws {
        let test = try TestPlatform()
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        #expect(try Self.isAnonymous(test, guest.localId) == true)
        let upgraded = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "g-up", email: "up@example.com"), linking: guest.idToken), by: .user(client: nil))
        #expect(upgraded.localId == guest.localId)
        #expect(try Self.isAnonymous(test, guest.localId) == false)
        #expect(try test.claims(of: try #require(upgraded.idToken))["firebase"]?["sign_in_provider"] == "google.com")
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: upgraded.refreshToken), by: .user(client: nil))
        let claims = try test.claims(of: refreshed.idToken)
        #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
        #expect(claims["firebase"]?["identities"]?["google.com"] == .array([.string("g-up")]))
    }

    @Test("a refused link (identity of another account) leaves the guest anonymous")
    func refusedLinkKeepsGuest() throws {
        let test = try TestPlatform()
        _ = try test.signIn(subject: "taken", email: "taken@example.com")
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let refused = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "taken", email: "taken@example.com"), linking: guest.idToken), by: .user(client: nil))
        #expect(refused.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(try Self.isAnonymous(test, guest.localId) == true)
    }

    @Test("an admin update setting an email, a phone number or a linked provider makes the guest a regular account; other fields do not")
    func adminUpdateUpgrades() throws {
        let test = try TestPlatform()
        let changes: [(String, (inout AdminUpdateAccountRequest) throws -> Void)] = [
            ("email", { $0.email = "guest@example.com" }),
            ("phone", { $0.phoneNumber = "+15555550142" }),
            ("provider", {
                $0.linkProviderUserInfo = try AdminLinkedProvider(
                    fields: RequestFields(["providerId": .string("google.com"), "rawId": .string("g-admin")]))
            }),
        ]
        for (name, change) in changes {
            let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
            var untouched = AdminUpdateAccountRequest(localId: guest.localId)
            untouched.displayName = "Still a guest"
            untouched.disableUser = false
            _ = try test.platform.admin.update(untouched, by: .system)
            #expect(try Self.isAnonymous(test, guest.localId) == true, "\(name)")
            var request = AdminUpdateAccountRequest(localId: guest.localId)
            try change(&request)
            _ = try test.platform.admin.update(request, by: .system)
            #expect(try Self.isAnonymous(test, guest.localId) == false, "\(name)")
        }
    }

    @Test("accounts made by sign-in and by the admin API are not anonymous")
    func othersAreNotAnonymous() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "regular")
        #expect(try Self.isAnonymous(test, try #require(signedIn.localId)) == false)
        let created = try test.platform.admin.create(AdminCreateAccountRequest(fields: RequestFields()), by: .system)
        #expect(try Self.isAnonymous(test, created.localId) == false)
    }

    @Test("a later sign-in through the identity keeps its provider refresh token")
    func signInKeepsToken() throws {
        let test = try TestPlatform()
        let first = try test.signIn(subject: "keep", email: "keep@example.com")
        let localID = try #require(first.localId)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.providers[0].providerRefreshToken = ProviderRefreshToken(token: Self.appleToken, clientID: "c")
            try writer.updateAccount(account)
        }
        _ = try test.signIn(subject: "keep", email: "keep@example.com")
        let identity = try test.store.read { try $0.account(localID: localID) }?.identity(for: "google.com")
        #expect(identity?.providerRefreshToken?.token == Self.appleToken)
    }

    // MARK: Deletion queues revocations

    @Test("client accounts:delete queues the revocation of the Apple token with the delete")
    func clientDelete() throws {
        let test = try TestPlatform()
        let user = try test.signIn(subject: "del-client")
        let localID = try #require(user.localId)
        try Self.linkApple(test, to: localID)
        _ = try test.accounts.delete(DeleteAccountRequest(idToken: user.idToken), by: .user(client: nil))
        let queued = try Self.queued(test)
        #expect(queued.count == 1)
        #expect(queued.first?.providerID == "apple.com")
        #expect(queued.first?.token == Self.appleToken)
        #expect(queued.first?.clientID == "com.example.app")
        #expect(queued.first?.localID == localID)
        #expect(queued.first?.nextAttemptAtMillis == test.time.nowMillis)
    }

    @Test("admin delete and batchDelete queue revocations; the accounts batchDelete keeps queue nothing")
    func adminDeletes() throws {
        let test = try TestPlatform()
        let one = try #require(try test.signIn(subject: "del-admin-1").localId)
        let two = try #require(try test.signIn(subject: "del-admin-2").localId)
        let kept = try #require(try test.signIn(subject: "del-admin-3").localId)
        for (localID, rawID) in [(one, "a1"), (two, "a2"), (kept, "a3")] { try Self.linkApple(test, to: localID, rawID: rawID) }
        _ = try test.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(one)])), by: .system)
        #expect(try Self.queued(test).map(\.localID) == [one])
        let answer = try test.platform.admin.batchDelete(BatchDeleteRequest(localIds: [two, kept], force: false), by: .system)
        #expect(answer.errors?.count == 2, "enabled accounts are kept without force")
        #expect(try Self.queued(test).count == 1)
        _ = try test.platform.admin.batchDelete(BatchDeleteRequest(localIds: [two], force: true), by: .system)
        #expect(Set(try Self.queued(test).map(\.localID)) == [one, two])
    }

    @Test("hearth users delete queues revocations too; an account without provider tokens queues nothing")
    func operatorDelete() throws {
        let test = try TestPlatform()
        let plain = try #require(try test.signIn(subject: "op-plain").localId)
        _ = try test.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(plain)])), by: .commandLine)
        #expect(try Self.queued(test).isEmpty)
        let apple = try #require(try test.signIn(subject: "op-apple").localId)
        try Self.linkApple(test, to: apple)
        _ = try test.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(apple)])), by: .commandLine)
        #expect(try Self.queued(test).map(\.localID) == [apple])
    }

    // MARK: Updates that drop a token queue it

    @Test("unlinking Apple (client and admin deleteProvider) queues its token; unrelated updates queue nothing")
    func unlinkQueues() throws {
        let test = try TestPlatform()
        let user = try test.signIn(subject: "unlink-client")
        let localID = try #require(user.localId)
        try Self.linkApple(test, to: localID, rawID: "u1")
        var rename = UpdateAccountRequest(idToken: user.idToken)
        rename.displayName = "Renamed"
        _ = try test.accounts.update(rename, by: .user(client: nil))
        #expect(try Self.queued(test).isEmpty)
        var unlink = UpdateAccountRequest(idToken: user.idToken)
        unlink.deleteProvider = ["apple.com"]
        _ = try test.accounts.update(unlink, by: .user(client: nil))
        #expect(try Self.queued(test).map(\.localID) == [localID])

        let other = try #require(try test.signIn(subject: "unlink-admin").localId)
        try Self.linkApple(test, to: other, rawID: "u2")
        var adminUnlink = AdminUpdateAccountRequest(localId: other)
        adminUnlink.deleteProvider = ["apple.com"]
        _ = try test.platform.admin.update(adminUnlink, by: .system)
        #expect(Set(try Self.queued(test).map(\.localID)) == [localID, other])
    }

    @Test("a trusted provider taking over an unverified email drops the Apple identity and queues its token")
    func takeoverQueues() throws {
        let test = try TestPlatform()
        var create = try AdminCreateAccountRequest(fields: RequestFields())
        create.email = "taken-over@gmail.com"
        let localID = try test.platform.admin.create(create, by: .system).localId
        try Self.linkApple(test, to: localID)
        let signedIn = try test.signIn(subject: "takeover", email: "taken-over@gmail.com", emailVerified: true)
        #expect(signedIn.localId == localID)
        #expect(try test.store.read { try $0.account(localID: localID) }?.identity(for: "apple.com") == nil)
        #expect(try Self.queued(test).map(\.token) == [Self.appleToken])
    }

    @Test("records that hold a provider token never print it")
    func descriptionsRedact() throws {
        let token = ProviderRefreshToken(token: Self.appleToken, clientID: "com.example.app")
        let identity = LinkedIdentity(providerID: "apple.com", rawID: "r", providerRefreshToken: token)
        let account = Account(localID: "u", createdAtMillis: 0, validSinceMillis: 0, providers: [identity])
        let revocation = ProviderTokenRevocation(revoking: token, of: identity, localID: "u", atMillis: 0)
        var dumped = ""
        dump(account, to: &dumped)
        dump(revocation, to: &dumped)
        for text in ["\(account)", "\(identity)", "\(revocation)", String(reflecting: account), String(reflecting: revocation), dumped] {
            #expect(!text.contains(Self.appleToken))
            #expect(text.contains("redacted"))
        }
    }
}
