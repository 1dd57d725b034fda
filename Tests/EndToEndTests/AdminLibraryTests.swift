import Foundation
import HearthAdmin
import HearthProtocol
import HearthVerify
import Testing

/// HearthAdmin's `AdminAuth` with `.owner` driving the built `hearth serve --dev` through URLSession: every user
/// call, custom claims seen at the next refresh, revocation, custom tokens, session cookies, import and paging.
@Suite("HearthAdmin against the server (e2e)", .blocking)
struct AdminLibraryTests {
    static let projectID = "demo-hearth"

    /// A `hearth serve --dev` and an `AdminAuth` for it with the development credential. The server stops when the
    /// last reference to it goes: keep it until the test ends (`defer { server.stop() }`).
    static func developmentServer() throws -> (HearthProcess, AdminAuth) {
        let server = HearthProcess()
        try server.start()
        let url = try #require(URL(string: server.baseURL))
        return (server, AdminAuth(serverURL: url, projectID: projectID, credential: .owner))
    }

    @Test("verifyIDToken accepts a real ID token (keys fetched from the server's JWKS) and refuses a tampered one")
    func verifiesRealTokens() async throws {
        let (server, auth) = try Self.developmentServer()
        defer { server.stop() }
        let google = try DevGoogle(server: server).signIn(email: "admin-lib@example.com")
        let signedIn = try SignedIn(FirebaseIOSClient(server: server).verifyAssertion(idToken: google.idToken, accessToken: nil))
        // The default issuer is the one `--dev` writes.
        #expect(JWTParts.claims(signedIn.idToken)["iss"] as? String == auth.idTokenIssuer)

        let verified = try await auth.verifyIDToken(signedIn.idToken)
        #expect(verified.uid == signedIn.localID)
        #expect(verified.email == "admin-lib@example.com")
        #expect(verified.signInProvider == "google.com")

        // One signature character changed, well inside it: the last one carries two unused bits, and a change
        // only there (an "A" for a "B") can decode to the very same signature.
        var characters = Array(signedIn.idToken)
        let inSignature = characters.count - 20
        characters[inSignature] = characters[inSignature] == "A" ? "B" : "A"
        let tampered = String(characters)
        #expect(await refusal { try await auth.verifyIDToken(tampered) }?.code == .invalidIDToken)
    }

    @Test("createUser, getUser by uid, email and phone, getUsers with identifiers that match nobody, and their errors")
    func createAndGet() async throws {
        let (server, auth) = try Self.developmentServer()
        defer { server.stop() }
        let before = Date()
        var request = CreateUserRequest()
        request.uid = "lib-ada"
        request.email = "Ada@Example.com"
        request.emailVerified = true
        request.phoneNumber = "+15555550100"
        request.displayName = "Ada Lovelace"
        request.photoURL = "https://example.com/ada.png"
        let ada = try await auth.createUser(request)
        #expect(ada.uid == "lib-ada")
        #expect(ada.email == "ada@example.com")
        #expect(ada.emailVerified)
        #expect(ada.phoneNumber == "+15555550100")
        #expect(ada.displayName == "Ada Lovelace")
        #expect(ada.photoURL == "https://example.com/ada.png")
        #expect(!ada.disabled)
        #expect(ada.customClaims == nil)
        #expect(ada.providerData.map(\.providerID) == ["phone"])
        #expect(ada.multiFactor.isEmpty)
        let created = try #require(ada.metadata.creationTime)
        #expect(created >= before.addingTimeInterval(-1) && created <= Date().addingTimeInterval(1))
        #expect(ada.metadata.lastSignInTime == nil)
        #expect(ada.tokensValidAfterTime == Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down)))

        #expect(try await auth.getUser(uid: "lib-ada") == ada)
        #expect(try await auth.getUser(email: "ADA@example.com") == ada)
        #expect(try await auth.getUser(phoneNumber: "+15555550100") == ada)

        var unnamed = CreateUserRequest()
        unnamed.email = "grace@example.com"
        unnamed.disabled = true
        let grace = try await auth.createUser(unnamed)
        #expect(!grace.uid.isEmpty && grace.uid != ada.uid)
        #expect(grace.email == "grace@example.com" && !grace.emailVerified && grace.phoneNumber == nil && grace.disabled)
        #expect(grace.providerData.isEmpty)

        let found = try await auth.getUsers([
            .uid("lib-ada"), .email("grace@example.com"), .phoneNumber("+15555550100"), .uid("nobody"),
            .email("none@example.com"), .phoneNumber("+15555550199"), .provider(providerID: "google.com", providerUID: "no-such-sub"),
        ])
        #expect(found.users.map(\.uid) == ["lib-ada", grace.uid], "each user once")
        #expect(found.notFound == [
            .uid("nobody"), .email("none@example.com"), .phoneNumber("+15555550199"),
            .provider(providerID: "google.com", providerUID: "no-such-sub"),
        ])
        #expect(try await auth.getUsers([]).users.isEmpty)
        // Emails are stored lowercased: an email in other case finds the user and is not also reported as not found.
        let otherCase = try await auth.getUsers([.email("ADA@Example.COM")])
        #expect(otherCase.users.map(\.uid) == ["lib-ada"])
        #expect(otherCase.notFound.isEmpty)

        #expect(await refusal { try await auth.getUser(uid: "nobody") }?.code == .userNotFound)
        #expect(await refusal { try await auth.getUser(email: "none@example.com") }?.code == .userNotFound)
        #expect(await refusal { try await auth.getUser(phoneNumber: "+15555550199") }?.code == .userNotFound)
        #expect(await refusal { try await auth.getUser(uid: String(repeating: "u", count: 129)) }?.code == .invalidUID)
        let otherProject = AdminAuth(serverURL: try #require(URL(string: server.baseURL)), projectID: "other-project", credential: .owner)
        #expect(await refusal { try await otherProject.getUser(uid: "lib-ada") }?.code == .projectNotFound)
        let tooMany = (0...AdminAuth.maximumGetUsersCount).map { UserIdentifier.uid("u\($0)") }
        #expect(await refusal { try await auth.getUsers(tooMany) }?.code == .maximumUserCountExceeded)

        func creating(_ change: (inout CreateUserRequest) -> Void) async -> HearthAdminError? {
            var request = CreateUserRequest()
            change(&request)
            return await refusal { try await auth.createUser(request) }
        }
        let sameUID = await creating { $0.uid = "lib-ada" }
        #expect(sameUID?.code == .uidAlreadyExists && sameUID?.serverCode == "DUPLICATE_LOCAL_ID" && sameUID?.httpStatus == 400)
        #expect(await creating { $0.email = "GRACE@example.com" }?.code == .emailAlreadyExists)
        #expect(await creating { $0.phoneNumber = "+15555550100" }?.code == .phoneNumberAlreadyExists)
        #expect(await creating { $0.email = "not-an-email" }?.code == .invalidEmail)
        #expect(await creating { $0.phoneNumber = "555-0100" }?.code == .invalidPhoneNumber)
        #expect(await creating { $0.email = "pw@example.com"; $0.password = "12345" }?.code == .invalidPassword)
        var withPassword = CreateUserRequest()
        withPassword.email = "pw@example.com"
        withPassword.password = "secret-123"
        let passwordUser = try await auth.createUser(withPassword)
        #expect(passwordUser.providerData.map { $0.providerID } == ["password"], "a password makes the password provider")
    }

    @Test("updateUser: disable and enable, remove a display name and a phone number, link a provider, replace and clear second factors")
    func updateUser() async throws {
        let (server, auth) = try Self.developmentServer()
        defer { server.stop() }
        var request = CreateUserRequest()
        request.uid = "lib-update"
        request.email = "update@example.com"
        request.phoneNumber = "+15555550120"
        request.displayName = "Before"
        _ = try await auth.createUser(request)
        var other = CreateUserRequest()
        other.email = "taken@example.com"
        _ = try await auth.createUser(other)

        var changes = UpdateUserRequest()
        changes.disabled = true
        changes.emailVerified = true
        changes.displayName = .remove
        changes.photoURL = .set("https://example.com/after.png")
        changes.phoneNumber = .remove
        changes.providerToLink = UserInfo(
            providerID: "google.com", uid: "google-sub-1", email: "update@gmail.example", displayName: "Google Name")
        changes.multiFactor = [MultiFactorInfo(phoneNumber: "+15555550121", displayName: "work phone")]
        let updated = try await auth.updateUser(uid: "lib-update", changes)
        #expect(updated.disabled)
        #expect(updated.displayName == nil)
        #expect(updated.photoURL == "https://example.com/after.png")
        #expect(updated.phoneNumber == nil)
        #expect(updated.email == "update@example.com" && updated.emailVerified)
        let google = try #require(updated.providerData.first { $0.providerID == "google.com" })
        #expect(google.uid == "google-sub-1" && google.email == "update@gmail.example" && google.displayName == "Google Name")
        #expect(!updated.providerData.contains { $0.providerID == "phone" })
        let factor = try #require(updated.multiFactor.first)
        #expect(updated.multiFactor.count == 1)
        #expect(factor.factorID == "phone" && factor.phoneNumber == "+15555550121" && factor.displayName == "work phone")
        #expect(!factor.uid.isEmpty && factor.enrollmentTime != nil)
        #expect(await refusal { try await auth.getUser(phoneNumber: "+15555550120") }?.code == .userNotFound)
        let byProvider = try await auth.getUsers([.provider(providerID: "google.com", providerUID: "google-sub-1")])
        #expect(byProvider.users.map(\.uid) == ["lib-update"] && byProvider.notFound.isEmpty)

        var enable = UpdateUserRequest()
        enable.disabled = false
        enable.emailVerified = false
        enable.multiFactor = []
        enable.providersToDelete = ["google.com"]
        let enabled = try await auth.updateUser(uid: "lib-update", enable)
        #expect(!enabled.disabled && !enabled.emailVerified)
        #expect(enabled.multiFactor.isEmpty && enabled.providerData.isEmpty)
        #expect(enabled.photoURL == "https://example.com/after.png", "what the update does not name stays")

        var email = UpdateUserRequest()
        email.email = "TAKEN@example.com"
        #expect(await refusal { try await auth.updateUser(uid: "lib-update", email) }?.code == .emailAlreadyExists)
        #expect(await refusal { try await auth.updateUser(uid: "nobody", enable) }?.code == .userNotFound)
        var reserved = UpdateUserRequest()
        reserved.customClaims = ["firebase": "x"]
        #expect(await refusal { try await auth.updateUser(uid: "lib-update", reserved) }?.code == .forbiddenClaim)
        var password = UpdateUserRequest()
        password.password = "12345"
        #expect(await refusal { try await auth.updateUser(uid: "lib-update", password) }?.code == .invalidPassword)
        var phone = UpdateUserRequest()
        phone.phoneNumber = .set("12")
        #expect(await refusal { try await auth.updateUser(uid: "lib-update", phone) }?.code == .invalidPhoneNumber)
        #expect(try await auth.getUser(uid: "lib-update") == enabled, "refused updates change nothing")
    }

    @Test("custom token sign-in; claims in the next refresh; revocation; session cookies; disable and delete")
    func claimsRevocationCookies() async throws {
        let (server, auth) = try Self.developmentServer()
        defer { server.stop() }
        let client = CustomTokenClient(server: server)
        let uid = "lib-custom"

        // An unsigned development custom token signs a new user in, with its claims in the ID token.
        var session = try client.signIn(try await auth.createCustomToken(uid: uid, claims: ["premium": true]))
        #expect(session.isNewUser)
        let first = try await auth.verifyIDToken(session.idToken)
        #expect(first.uid == uid && first.signInProvider == "custom")
        #expect(first.claims["premium"] == .bool(true))
        let user = try await auth.getUser(uid: uid)
        #expect(user.metadata.lastSignInTime != nil)
        #expect(user.customClaims == nil, "a custom token's claims belong to its session, not to the user")

        // Custom claims reach the next refreshed ID token.
        try await auth.setCustomUserClaims(uid: uid, ["admin": true, "level": 3])
        #expect(try await auth.getUser(uid: uid).customClaims == ["admin": true, "level": 3])
        let refresh = try client.refresh(&session)
        #expect(refresh.status == 200, "\(refresh.text)")
        let refreshed = try await auth.verifyIDToken(session.idToken, checkRevoked: true)
        #expect(refreshed.claims["admin"] == .bool(true) && refreshed.claims["level"] == .integer(3))
        #expect(refreshed.claims["premium"] == .bool(true))
        #expect(try await auth.getUser(uid: uid).metadata.lastRefreshTime != nil)

        #expect(await refusal { try await auth.setCustomUserClaims(uid: uid, ["sub": "someone-else"]) }?.code == .forbiddenClaim)
        let large: [String: JSONValue] = ["blob": .string(String(repeating: "x", count: 1000))]
        #expect(await refusal { try await auth.setCustomUserClaims(uid: uid, large) }?.code == .claimsTooLarge)
        #expect(await refusal { try await auth.setCustomUserClaims(uid: "nobody", ["admin": true]) }?.code == .userNotFound)
        #expect(await refusal { try await auth.revokeRefreshTokens(uid: "nobody") }?.code == .userNotFound)
        #expect(await refusal { try await auth.createCustomToken(uid: "") }?.code == .invalidUID)
        #expect(await refusal { try await auth.createCustomToken(uid: uid, claims: ["aud": "x"]) }?.code == .forbiddenClaim)

        // Claims are measured as Hearth measures them, in UTF-16 code units of their JSON text, for a custom token
        // as for a user: 600 "é" (1,200 bytes) fit; 500 "😀" (500 characters, 1,000 code units) do not.
        let accented: [String: JSONValue] = ["motto": .string(String(repeating: "é", count: 600))]
        let accentedSession = try client.signIn(try await auth.createCustomToken(uid: "lib-accented", claims: accented))
        #expect(try await auth.verifyIDToken(accentedSession.idToken).claims["motto"] == accented["motto"])
        try await auth.setCustomUserClaims(uid: "lib-accented", accented)
        #expect(try await auth.getUser(uid: "lib-accented").customClaims == accented)
        let emoji: [String: JSONValue] = ["motto": .string(String(repeating: "😀", count: 500))]
        let largeToken = await refusal { try await auth.createCustomToken(uid: uid, claims: emoji) }
        #expect(largeToken?.code == .claimsTooLarge)
        let largeClaims = await refusal { try await auth.setCustomUserClaims(uid: uid, emoji) }
        #expect(largeClaims?.code == .claimsTooLarge && largeClaims?.serverCode == nil, "refused before sending")

        // Session cookies.
        let cookie = try await auth.createSessionCookie(idToken: session.idToken, expiresIn: 3600)
        let verifiedCookie = try await auth.verifySessionCookie(cookie, checkRevoked: true)
        #expect(verifiedCookie.uid == uid && verifiedCookie.claims["admin"] == .bool(true))
        #expect(verifiedCookie.expiresAt.timeIntervalSince(verifiedCookie.issuedAt) == 3600)
        #expect(await refusal { try await auth.createSessionCookie(idToken: session.idToken, expiresIn: 60) }?.code
            == .invalidSessionCookieDuration)
        let garbage = await refusal { try await auth.createSessionCookie(idToken: "not.a.token", expiresIn: 3600) }
        #expect(garbage?.code == .invalidIDToken && garbage?.serverCode == "INVALID_ID_TOKEN")
        #expect(await refusal { try await auth.verifySessionCookie(session.idToken) }?.code == .invalidSessionCookie)
        #expect(await refusal { try await auth.verifyIDToken(cookie) }?.code == .invalidIDToken)

        // Removing the claims: gone from the record and from the next token.
        try await auth.setCustomUserClaims(uid: uid, nil)
        #expect(try await auth.getUser(uid: uid).customClaims == nil)
        #expect(try client.refresh(&session).status == 200)
        #expect(try await auth.verifyIDToken(session.idToken).claims["admin"] == nil)

        // validSince has whole seconds: a token of the same second as the revocation is not revoked.
        try await Task.sleep(for: .milliseconds(1100))
        try await auth.revokeRefreshTokens(uid: uid)
        let validAfter = try #require(try await auth.getUser(uid: uid).tokensValidAfterTime)
        #expect(validAfter > (try await auth.verifyIDToken(session.idToken)).issuedAt)
        let idTokenBefore = session.idToken
        #expect(try client.refresh(&session).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(try await auth.verifyIDToken(idTokenBefore).uid == uid, "without the check the signature is all that counts")
        #expect(await refusal { try await auth.verifyIDToken(idTokenBefore, checkRevoked: true) }?.code == .idTokenRevoked)
        #expect(try await auth.verifySessionCookie(cookie).uid == uid)
        #expect(await refusal { try await auth.verifySessionCookie(cookie, checkRevoked: true) }?.code == .sessionCookieRevoked)

        // Signing in again after the revocation passes the check.
        var again = try client.signIn(try await auth.createCustomToken(uid: uid))
        #expect(!again.isNewUser)
        #expect(try await auth.verifyIDToken(again.idToken, checkRevoked: true).uid == uid)

        // Disabled: the check refuses, and so does a refresh.
        var disable = UpdateUserRequest()
        disable.disabled = true
        _ = try await auth.updateUser(uid: uid, disable)
        #expect(await refusal { try await auth.verifyIDToken(again.idToken, checkRevoked: true) }?.code == .userDisabled)
        #expect(try client.refresh(&again).errorMessage?.hasPrefix("USER_DISABLED") == true)

        // Deleted.
        try await auth.deleteUser(uid: uid)
        #expect(await refusal { try await auth.getUser(uid: uid) }?.code == .userNotFound)
        #expect(await refusal { try await auth.verifyIDToken(again.idToken, checkRevoked: true) }?.code == .userNotFound)
        #expect(await refusal { try await auth.deleteUser(uid: uid) }?.code == .userNotFound)
    }

    @Test("importUsers (250 users, one with every field; bad rows reported by index), listUsers paging, deleteUsers")
    func importListDelete() async throws {
        let (server, auth) = try Self.developmentServer()
        defer { server.stop() }
        let uids = (0..<250).map { String(format: "imported-%03d", $0) }
        var records = uids.map { uid in
            var record = UserImportRecord(uid: uid)
            record.email = "\(uid)@example.com"
            return record
        }
        let created = Date(timeIntervalSince1970: 1_600_000_000.25)
        let lastSignIn = Date(timeIntervalSince1970: 1_700_000_000.5)
        records[7].emailVerified = true
        records[7].displayName = "Imported Seven"
        records[7].photoURL = "https://example.com/7.png"
        records[7].phoneNumber = "+15555550107"
        records[7].disabled = true
        records[7].customClaims = ["role": "editor"]
        records[7].metadata = UserMetadata(creationTime: created, lastSignInTime: lastSignIn)
        records[7].providerData = [UserInfo(providerID: "google.com", uid: "google-7", email: "seven@gmail.example")]
        records[7].multiFactor = [MultiFactorInfo(phoneNumber: "+15555550170", displayName: "seven's phone")]
        let imported = try await auth.importUsers(records.shuffled())
        #expect(imported.successCount == 250 && imported.failureCount == 0, "\(imported.errors)")

        let seven = try await auth.getUser(uid: "imported-007")
        #expect(seven.email == "imported-007@example.com" && seven.emailVerified)
        #expect(seven.displayName == "Imported Seven" && seven.photoURL == "https://example.com/7.png")
        #expect(seven.phoneNumber == "+15555550107" && seven.disabled)
        #expect(seven.customClaims == ["role": "editor"])
        #expect(seven.metadata.creationTime == Date(timeIntervalSince1970: 1_600_000_000.25))
        #expect(seven.metadata.lastSignInTime == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(seven.providerData.contains(UserInfo(providerID: "google.com", uid: "google-7", email: "seven@gmail.example")))
        #expect(seven.multiFactor.map(\.phoneNumber) == ["+15555550170"])
        #expect(seven.multiFactor.first?.displayName == "seven's phone")

        // Every uid once, in uid order, 100 to a page.
        var listed: [String] = []
        var sizes: [Int] = []
        for try await page in auth.listUsers(pageSize: 100) {
            listed += page.users.map(\.uid)
            sizes.append(page.users.count)
        }
        #expect(sizes == [100, 100, 50])
        #expect(listed == uids)
        let firstPage = try await auth.listUsersPage(pageSize: 100)
        let second = try await auth.listUsersPage(pageSize: 100, pageToken: try #require(firstPage.nextPageToken))
        #expect(second.users.map(\.uid) == Array(uids[100..<200]))
        #expect(await refusal { try await auth.listUsersPage(pageToken: "not a token!") }?.code == .invalidPageToken)

        // Bad rows are reported by their index; the good ones are imported.
        var existing = UserImportRecord(uid: "imported-000")
        existing.displayName = "Overwrite?"
        var badPhone = UserImportRecord(uid: "bad-phone")
        badPhone.phoneNumber = "555"
        var takenEmail = UserImportRecord(uid: "taken-email")
        takenEmail.email = "imported-001@example.com"
        let mixed = try await auth.importUsers([existing, badPhone, UserImportRecord(uid: "fresh"), takenEmail])
        #expect(mixed.successCount == 1)
        #expect(mixed.errors.map(\.index) == [0, 1, 3])
        #expect(mixed.errors.allSatisfy { $0.error.code == .invalidUserImport && $0.error.serverCode == nil }, "\(mixed.errors)")
        #expect(mixed.errors.first?.error.message == "localId belongs to an existing account - can not overwrite.")
        #expect(try await auth.getUser(uid: "imported-000").displayName == nil)
        #expect(try await auth.getUser(uid: "fresh").uid == "fresh")
        #expect(await refusal { try await auth.getUser(uid: "bad-phone") }?.code == .userNotFound)

        let tooMany = (0...AdminAuth.maximumBatchCount).map { UserImportRecord(uid: "u\($0)") }
        #expect(await refusal { try await auth.importUsers(tooMany) }?.code == .maximumUserCountExceeded)
        #expect(await refusal { try await auth.deleteUsers(tooMany.map(\.uid)) }?.code == .maximumUserCountExceeded)

        // deleteUsers removes enabled and disabled users alike; unknown uids count as deleted.
        let deleted = try await auth.deleteUsers(uids + ["fresh", "never-existed"])
        #expect(deleted.successCount == 252 && deleted.errors.isEmpty)
        var remaining = 0
        for try await page in auth.listUsers() { remaining += page.users.count }
        #expect(remaining == 0)
    }
}

/// The ``HearthAdminError`` `body` throws, or nil when it succeeds (any other error is recorded as an issue).
func refusal<T>(_ body: () async throws -> T) async -> HearthAdminError? {
    do {
        _ = try await body()
        return nil
    } catch let error as HearthAdminError {
        return error
    } catch {
        Issue.record("not a HearthAdminError: \(error)")
        return nil
    }
}
