import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Sign-in outcomes")
struct SignInTests {
    @Test("a successful sign-in builds the user from getAccountInfo and reports isNewUser and the profile")
    func success() async throws {
        let harness = Harness()
        let result = try await harness.signIn(isNewUser: true)
        let user = result.user
        #expect(harness.auth.currentUser === user)
        #expect(user.uid == Fixture.uid)
        #expect(user.email == "ada@example.com")
        #expect(user.displayName == "Ada Lovelace")
        #expect(user.photoURL == URL(string: "https://example.com/ada.png"))
        #expect(user.isEmailVerified)
        #expect(!user.isAnonymous)
        #expect(user.providerID == "firebase")
        #expect(user.refreshToken == "refresh-1")
        #expect(user.metadata.creationDate == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(user.metadata.lastSignInDate == Date(timeIntervalSince1970: 1_800_000_000.456))
        let google = try #require(user.providerData.first)
        #expect(google.providerID == "google.com")
        #expect(google.uid == "1234567890")
        #expect(google.email == "ada@example.com")

        let info = try #require(result.additionalUserInfo)
        #expect(info.providerID == "google.com")
        #expect(info.isNewUser)
        #expect(info.profile?["name"] == "Ada Lovelace")
        #expect(info.profile?["locale"] == "en")
        #expect(result.credential?.provider == "google.com")
        #expect(result.credential?.idToken == Fixture.googleIDToken)

        let again = Harness()
        #expect(try await again.signIn(isNewUser: false).additionalUserInfo?.isNewUser == false)
    }

    @Test("providerData uid falls back to federatedId when rawId is missing")
    func federatedIDFallback() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue(
            "getAccountInfo",
            json: Fixture.userRecord(providers: [["providerId": "google.com", "federatedId": "fed-42"]]))
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user
        #expect(user.providerData.map(\.uid) == ["fed-42"])
    }

    @Test("needConfirmation → accountExistsWithDifferentCredential with the email and a credential")
    func needConfirmation() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "verifyAssertion",
            json: [
                "providerId": "google.com", "localId": "other", "email": "ada@example.com", "needConfirmation": true,
                "verifiedProvider": ["password"], "oauthIdToken": .string(Fixture.googleIDToken),
            ])
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .accountExistsWithDifferentCredential)
        #expect(error.code.rawValue == 17012)
        #expect(error.email == "ada@example.com")
        #expect(error.updatedCredential?.idToken == Fixture.googleIDToken)
        #expect(harness.auth.currentUser == nil)
        #expect(harness.transport.requests(to: "getAccountInfo").isEmpty)
    }

    @Test("200 + FEDERATED_USER_ID_ALREADY_LINKED → credentialAlreadyInUse with the echoed credential")
    func credentialAlreadyInUse() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue(
            "verifyAssertion",
            json: [
                "errorMessage": "FEDERATED_USER_ID_ALREADY_LINKED", "providerId": "google.com",
                "email": "grace@example.com", "oauthIdToken": "echo-id-token", "oauthAccessToken": "echo-access",
            ])
        let error = try #require(
            await authError { _ = try await user.link(with: OAuthProvider.credential(providerID: .custom("github.com"), idToken: "x")) })
        #expect(error.code == .credentialAlreadyInUse)
        #expect(error.code.rawValue == 17025)
        #expect(error.serverCode == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(error.email == "grace@example.com")
        let updated = try #require(error.updatedCredential)
        #expect(updated.provider == "google.com")
        #expect(updated.idToken == "echo-id-token")
        #expect(updated.accessToken == "echo-access")
        #expect(harness.auth.currentUser === user)
    }

    @Test("200 + EMAIL_EXISTS → emailAlreadyInUse")
    func emailExists() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "verifyAssertion", json: ["errorMessage": "EMAIL_EXISTS : taken", "email": "ada@example.com"])
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .emailAlreadyInUse)
        #expect(error.code.rawValue == 17007)
        #expect(error.message == "taken")
        #expect(error.email == "ada@example.com")
        #expect(harness.auth.currentUser == nil)
    }

    @Test(
        "mfaPendingCredential, or mfaInfo without idToken → secondFactorRequired with a resolver",
        arguments: [
            ["mfaPendingCredential": "pending-1", "mfaInfo": [["mfaEnrollmentId": "e1", "phoneInfo": "+*******1234"]]],
            ["mfaPendingCredential": "pending-1"],
            ["mfaInfo": [["mfaEnrollmentId": "e1", "totpInfo": [:]]]],
        ] as [JSONValue])
    func secondFactorRequired(response: JSONValue) async throws {
        let harness = Harness()
        var body = response.objectValue ?? [:]
        body["localId"] = .string(Fixture.uid)
        harness.transport.enqueue("verifyAssertion", json: .object(body))
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .secondFactorRequired)
        #expect(error.code.rawValue == 17078)
        let resolver = try #require(error.resolver)
        guard case .signIn(let pendingCredential) = resolver.session.kind else {
            Issue.record("expected a sign-in session")
            return
        }
        #expect(pendingCredential == response["mfaPendingCredential"]?.stringValue)
        #expect(resolver.hints.map(\.uid) == (response["mfaInfo"]?.arrayValue ?? []).compactMap { $0["mfaEnrollmentId"]?.stringValue })
        #expect(harness.auth.currentUser == nil)
    }

    @Test("a sign-in whose profile lookup fails leaves nobody signed in and nothing stored")
    func lookupFailure() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", status: 400, json: Fixture.errorEnvelope("USER_NOT_FOUND"))
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .userNotFound)
        #expect(harness.auth.currentUser == nil)
        #expect(try store.load(key: "hearth.auth.\(Fixture.apiKey).[DEFAULT]") == nil)
    }

    @Test("a sign-in response without tokens is an internal error")
    func missingTokens() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: ["localId": "x", "providerId": "google.com"])
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .internalError)
    }
}
