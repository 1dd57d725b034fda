import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("User operations")
struct UserOperationTests {
    static let key = "hearth.auth.\(Fixture.apiKey).[DEFAULT]"

    func savedProfile(_ store: any SessionStore) throws -> UserRecord? {
        guard let data = try store.load(key: Self.key) else { return nil }
        return try JSONDecoder().decode(StoredSession.self, from: data).profile
    }

    @Test("reload() fetches the profile again and saves it")
    func reload() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(displayName: "Countess of Lovelace"))
        try await user.reload()
        #expect(user.displayName == "Countess of Lovelace")
        #expect(harness.transport.requests(to: "getAccountInfo").last?.json == ["idToken": .string(Fixture.idToken())])
        #expect(try savedProfile(store)?.displayName == "Countess of Lovelace")
    }

    @Test("reload() failing with USER_NOT_FOUND signs out; another failure does not")
    func reloadSignsOut() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        harness.transport.enqueue("getAccountInfo", status: 500, body: "<html>oops</html>")
        #expect(await authError { try await user.reload() }?.code == .internalError)
        #expect(harness.auth.currentUser === user)

        var states = harness.auth.authStateChanges.makeAsyncIterator()
        _ = await states.next()
        harness.transport.enqueue("getAccountInfo", status: 400, json: Fixture.errorEnvelope("USER_NOT_FOUND"))
        #expect(await authError { try await user.reload() }?.code == .userNotFound)
        try #require(harness.auth.currentUser == nil)
        #expect(try store.load(key: Self.key) == nil)
        #expect(await states.next().map { $0 == nil } == true)
    }

    @Test("a profile change sets a display name and clears the photo with deleteAttribute")
    func profileChange() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user

        harness.transport.enqueue("setAccountInfo", json: ["localId": .string(Fixture.uid)])
        let change = user.createProfileChangeRequest()
        change.displayName = "Ada King"
        change.photoURL = nil
        #expect(change.displayName == "Ada King")
        try await change.commitChanges()
        let request = try #require(harness.transport.requests(to: "setAccountInfo").last)
        #expect(
            request.json == [
                "idToken": .string(Fixture.idToken()), "displayName": "Ada King", "deleteAttribute": ["PHOTO_URL"],
                "returnSecureToken": true,
            ])
        #expect(user.displayName == "Ada King")
        #expect(user.photoURL == nil)
        #expect(try savedProfile(store)?.displayName == "Ada King")
        #expect(try savedProfile(store)?.photoUrl == nil)

        harness.transport.enqueue("setAccountInfo", json: ["localId": .string(Fixture.uid)])
        let second = user.createProfileChangeRequest()
        second.displayName = nil
        second.photoURL = URL(string: "https://example.com/new.png")
        try await second.commitChanges()
        #expect(
            harness.transport.requests(to: "setAccountInfo").last?.json == [
                "idToken": .string(Fixture.idToken()), "photoUrl": "https://example.com/new.png",
                "deleteAttribute": ["DISPLAY_NAME"], "returnSecureToken": true,
            ])
        #expect(user.displayName == nil)
        #expect(user.photoURL == URL(string: "https://example.com/new.png"))
    }

    @Test("a profile change with nothing assigned sends nothing")
    func emptyProfileChange() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        try await user.createProfileChangeRequest().commitChanges()
        #expect(harness.transport.requests(to: "setAccountInfo").isEmpty)
    }

    @Test("a profile change answered with new tokens stores them and tells ID-token listeners")
    func profileChangeNewTokens() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        var changes = harness.auth.idTokenChanges.makeAsyncIterator()
        _ = await changes.next()
        harness.transport.enqueue(
            "setAccountInfo",
            json: ["localId": .string(Fixture.uid), "idToken": "rotated.token.x", "refreshToken": "refresh-9", "expiresIn": "3600"])
        let change = user.createProfileChangeRequest()
        change.displayName = "A"
        try await change.commitChanges()
        #expect(try await user.getIDToken() == "rotated.token.x")
        #expect(user.refreshToken == "refresh-9")
        try harness.auth.signOut()
        // If the new token were not reported, the sign-out would come first.
        try #require(await changes.next().flatMap { $0 } === user)
    }

    @Test("unlink(fromProvider:) sends deleteProvider and takes providerData from the response")
    func unlink() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("setAccountInfo", json: ["localId": .string(Fixture.uid), "providerUserInfo": []])
        let returned = try await user.unlink(fromProvider: "google.com")
        #expect(returned === user)
        #expect(user.providerData.isEmpty)
        #expect(harness.transport.requests(to: "setAccountInfo").last?.json?["deleteProvider"] == ["google.com"])
    }

    @Test("unlinking a provider the user does not have → noSuchProvider, no request")
    func unlinkUnknown() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let error = try #require(await authError { _ = try await user.unlink(fromProvider: "github.com") })
        #expect(error.code == .noSuchProvider)
        #expect(error.code.rawValue == 17016)
        #expect(harness.transport.requests(to: "setAccountInfo").isEmpty)
    }

    @Test("delete() posts deleteAccount, then signs out and clears the store")
    func delete() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        var states = harness.auth.authStateChanges.makeAsyncIterator()
        _ = await states.next()
        harness.transport.enqueue("deleteAccount", json: ["kind": "identitytoolkit#DeleteAccountResponse"])
        try await user.delete()
        #expect(harness.transport.requests(to: "deleteAccount").count == 1)
        try #require(harness.auth.currentUser == nil)
        #expect(try store.load(key: Self.key) == nil)
        #expect(await states.next().map { $0 == nil } == true)
    }

    @Test("a failed delete keeps the user signed in")
    func deleteFailure() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("deleteAccount", .failure(URLError(.networkConnectionLost)))
        #expect(await authError { try await user.delete() }?.code == .networkError)
        #expect(harness.auth.currentUser === user)
    }

    @Test("link(with:) stores the new tokens and profile and returns the provider details")
    func link() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(providers: []))
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        #expect(user.providerData.isEmpty)

        let linkedToken = Fixture.idToken(issuedAt: Fixture.startTime + 10)
        var response = Fixture.signInResponse(idToken: linkedToken, refreshToken: "refresh-linked").objectValue ?? [:]
        response.removeValue(forKey: "isNewUser")
        harness.transport.enqueue("verifyAssertion", json: .object(response))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        let result = try await user.link(with: Fixture.googleCredential)
        #expect(result.user === user)
        #expect(result.additionalUserInfo?.isNewUser == false)
        #expect(user.providerData.map(\.providerID) == ["google.com"])
        #expect(user.refreshToken == "refresh-linked")
        #expect(try await user.getIDToken() == linkedToken)
        #expect(harness.transport.requests(to: "getAccountInfo").last?.json == ["idToken": .string(linkedToken)])
    }

    @Test("linking a provider the user already has → providerAlreadyLinked, no request")
    func linkTwice() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let error = try #require(await authError { _ = try await user.link(with: Fixture.googleCredential) })
        #expect(error.code == .providerAlreadyLinked)
        #expect(harness.transport.requests(to: "verifyAssertion").count == 1)
    }

    @Test("link(with:) failing with TOKEN_EXPIRED signs the user out")
    func linkSignsOut() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("verifyAssertion", status: 400, json: Fixture.errorEnvelope("TOKEN_EXPIRED"))
        let github = OAuthProvider.credential(providerID: .custom("github.com"), idToken: "gh")
        #expect(await authError { _ = try await user.link(with: github) }?.code == .userTokenExpired)
        #expect(harness.auth.currentUser == nil)
    }
}
