import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// Sign in with Apple, guests and `revokeToken`, with the bodies the Firebase iOS SDK sends.
@Suite("Apple, guests and revokeToken")
struct AppleAndGuestTests {
    static let appleIDToken = "eyJhbGciOiJSUzI1NiIsImtpZCI6IkFQUExFIn0.eyJzdWIiOiIwMDEyMzQuYWJjIn0.c2ln"

    static func name(given: String? = nil, family: String? = nil, nickname: String? = nil) -> PersonNameComponents {
        var name = PersonNameComponents()
        name.givenName = given
        name.familyName = family
        name.nickname = nickname
        return name
    }

    /// The `postBody` pairs of the verifyAssertion request `credential` makes.
    static func postBody(_ credential: AuthCredential) -> [(name: String, value: String)] {
        FormEncoding.decode(Auth.assertionRequest(for: credential, linkingIDToken: nil).postBody ?? "")
    }

    @Test("appleCredential sends providerId, id_token, the raw nonce and user with sorted keys when a name is known")
    func appleCredentialWithName() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(displayName: "Ada Lovelace"))
        let credential = OAuthProvider.appleCredential(
            withIDToken: Self.appleIDToken, rawNonce: "raw-nonce-1", fullName: Self.name(given: "Ada", family: "Lovelace"))
        let user = try await harness.auth.signIn(with: credential).user

        let request = try #require(harness.transport.requests(to: "verifyAssertion").first)
        let json = try #require(request.json?.objectValue)
        let postBody = try #require(json["postBody"]?.stringValue)
        #expect(
            json == [
                "requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true,
                "returnIdpCredential": true, "autoCreate": true,
            ])
        let pairs = FormEncoding.decode(postBody)
        #expect(pairs.map(\.name) == ["providerId", "id_token", "nonce", "user"])
        #expect(pairs.map(\.value) == [
            "apple.com", Self.appleIDToken, "raw-nonce-1", #"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#,
        ])
        #expect(user.displayName == "Ada Lovelace")
        #expect(credential.provider == "apple.com")
        #expect(!String(describing: credential).contains(Self.appleIDToken))
    }

    @Test(
        "user is sent only with a given or family name, each key only when known",
        arguments: [
            (nil, nil), (Self.name(), nil), (Self.name(nickname: "Ada"), nil),
            (Self.name(given: "Ada"), #"{"name":{"firstName":"Ada"}}"#),
            (Self.name(family: "Lovelace"), #"{"name":{"lastName":"Lovelace"}}"#),
            (Self.name(given: "Zoë & Jo", family: "O'Brien=1+1"), #"{"name":{"firstName":"Zoë & Jo","lastName":"O'Brien=1+1"}}"#),
        ] as [(PersonNameComponents?, String?)])
    func appleUserField(name: PersonNameComponents?, expected: String?) {
        let pairs = Self.postBody(OAuthProvider.appleCredential(withIDToken: "a.b.c", rawNonce: "n", fullName: name))
        #expect(pairs.first { $0.name == "user" }?.value == expected)
        #expect(pairs.map(\.name).prefix(3) == ["providerId", "id_token", "nonce"])
    }

    @Test("appleCredential without a nonce sends no nonce; OAuthProvider credentials have Firebase's shapes")
    func oauthShapes() {
        #expect(Self.postBody(OAuthProvider.appleCredential(withIDToken: "a.b.c", rawNonce: nil, fullName: nil)).map(\.name)
            == ["providerId", "id_token"])
        let oidc = Self.postBody(OAuthProvider.credential(providerID: .custom("oidc.acme"), idToken: "i.d.t", rawNonce: "r"))
        #expect(oidc.map { "\($0.name)=\($0.value)" } == ["providerId=oidc.acme", "id_token=i.d.t", "nonce=r"])
        let access = Self.postBody(OAuthProvider.credential(providerID: .gitHub, accessToken: "gho_1"))
        #expect(access.map { "\($0.name)=\($0.value)" } == ["providerId=github.com", "access_token=gho_1"])
        let both = Self.postBody(OAuthProvider.credential(providerID: .google, idToken: "g.i.d", accessToken: "ya29"))
        #expect(both.map { "\($0.name)=\($0.value)" } == ["providerId=google.com", "id_token=g.i.d", "access_token=ya29"])
        #expect(AuthProviderID.apple.rawValue == "apple.com")
    }

    /// A guest (signupNewUser), signed in on a fresh harness.
    func guest(_ harness: Harness) async throws -> User {
        harness.transport.enqueue(
            "signupNewUser",
            json: ["kind": "identitytoolkit#SignupNewUserResponse", "idToken": .string(Fixture.idToken()), "refreshToken": "guest-refresh", "expiresIn": "3600",
                   "localId": .string(Fixture.uid)])
        harness.transport.enqueue(
            "getAccountInfo", json: Fixture.userRecord(displayName: .null, providers: []))
        return try await harness.auth.signInAnonymously().user
    }

    @Test("linking Apple to a guest sends the guest's ID token, keeps the uid, ends isAnonymous and fills displayName")
    func linkAppleToGuest() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        let user = try await guest(harness)
        #expect(user.isAnonymous)
        #expect(user.displayName == nil)

        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse(isNewUser: false))
        harness.transport.enqueue(
            "getAccountInfo",
            json: Fixture.userRecord(
                displayName: "Ada Lovelace",
                providers: [["providerId": "apple.com", "rawId": "001234.abc", "federatedId": "001234.abc"]]))
        let credential = OAuthProvider.appleCredential(
            withIDToken: Self.appleIDToken, rawNonce: "n-1", fullName: Self.name(given: "Ada", family: "Lovelace"))
        let result = try await user.link(with: credential)

        let request = try #require(harness.transport.requests(to: "verifyAssertion").first)
        #expect(request.json?.objectValue?["idToken"] == .string(Fixture.idToken()))
        #expect(result.user === user)
        #expect(user.uid == Fixture.uid)
        #expect(!user.isAnonymous)
        #expect(user.displayName == "Ada Lovelace")
        #expect(user.providerData.map(\.providerID) == ["apple.com"])
        let saved = try #require(try store.load(key: "hearth.auth.\(Fixture.apiKey).[DEFAULT]"))
        #expect(try JSONDecoder().decode(StoredSession.self, from: saved).isAnonymous == false)

        // A second Apple link is refused locally, as FirebaseAuth does.
        let again = try #require(await authError { _ = try await user.link(with: credential) })
        #expect(again.code == .providerAlreadyLinked)
        #expect(harness.transport.requests(to: "verifyAssertion").count == 1)
    }

    @Test("an Apple identity of another account: 200 + FEDERATED_USER_ID_ALREADY_LINKED → credentialAlreadyInUse with the Apple credential; the guest stays")
    func appleAlreadyLinked() async throws {
        let harness = Harness()
        let user = try await guest(harness)
        harness.transport.enqueue(
            "verifyAssertion",
            json: [
                "errorMessage": "FEDERATED_USER_ID_ALREADY_LINKED", "providerId": "apple.com",
                "email": "ada@privaterelay.appleid.com", "oauthIdToken": .string(Self.appleIDToken),
            ])
        let error = try #require(
            await authError {
                _ = try await user.link(
                    with: OAuthProvider.appleCredential(withIDToken: Self.appleIDToken, rawNonce: "n", fullName: nil))
            })
        #expect(error.code == .credentialAlreadyInUse)
        #expect(error.email == "ada@privaterelay.appleid.com")
        #expect(error.updatedCredential?.provider == "apple.com")
        #expect(error.updatedCredential?.idToken == Self.appleIDToken)
        #expect(user.isAnonymous)
        #expect(harness.auth.currentUser === user)

        // As an HTTP error (no response to read a credential from) it is the same code, without a credential.
        harness.transport.enqueue(
            "verifyAssertion", status: 400, json: Fixture.errorEnvelope("FEDERATED_USER_ID_ALREADY_LINKED"))
        let plain = try #require(
            await authError {
                _ = try await user.link(
                    with: OAuthProvider.appleCredential(withIDToken: Self.appleIDToken, rawNonce: "n", fullName: nil))
            })
        #expect(plain.code == .credentialAlreadyInUse)
        #expect(plain.updatedCredential == nil)
    }

    @Test(
        "Apple sign-in errors map as FirebaseAuth maps them",
        arguments: [
            ("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.", AuthErrorCode.missingOrInvalidNonce),
            ("INVALID_IDP_RESPONSE : The supplied auth credential is malformed or has expired.", .invalidCredential),
            ("OPERATION_NOT_ALLOWED : The identity provider configuration is not found.", .operationNotAllowed),
            ("PROVIDER_ALREADY_LINKED", .providerAlreadyLinked),
        ])
    func appleErrors(message: String, code: AuthErrorCode) async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", status: 400, json: Fixture.errorEnvelope(message))
        let error = try #require(
            await authError {
                _ = try await harness.auth.signIn(
                    with: OAuthProvider.appleCredential(withIDToken: Self.appleIDToken, rawNonce: "n", fullName: nil))
            })
        #expect(error.code == code)
        #expect(harness.auth.currentUser == nil)
    }

    @Test("unlink from a provider the user does not have → noSuchProvider, nothing sent")
    func unlinkUnknown() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let error = try #require(await authError { _ = try await user.unlink(fromProvider: AuthProviderID.apple.rawValue) })
        #expect(error.code == .noSuchProvider)
        #expect(harness.transport.requests(to: "setAccountInfo").isEmpty)
    }

    @Test("revokeToken posts the iOS body to v2 accounts:revokeToken with the user's ID token")
    func revokeToken() async throws {
        let harness = Harness()
        try await harness.signIn()
        harness.transport.enqueue("accounts:revokeToken", json: [:])
        try await harness.auth.revokeToken(withAuthorizationCode: "c.apple-code.0.abc")
        let request = try #require(harness.transport.requests(to: "accounts:revokeToken").first)
        #expect(
            request.url.absoluteString
                == "https://identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=\(Fixture.apiKey)")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            request.json == [
                "providerId": "apple.com", "tokenType": "3", "token": "c.apple-code.0.abc",
                "idToken": .string(Fixture.idToken()),
            ])
        #expect(harness.auth.currentUser != nil)

        harness.auth.useEmulator(withHost: "127.0.0.1", port: 9099)
        harness.transport.enqueue("accounts:revokeToken", json: [:])
        try await harness.auth.revokeToken(withAuthorizationCode: "code-2")
        #expect(
            harness.transport.requests(to: "accounts:revokeToken").last?.url.absoluteString
                == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=\(Fixture.apiKey)")
    }

    @Test("revokeToken without a user → nullUser, nothing sent")
    func revokeWithoutUser() async throws {
        let harness = Harness()
        let error = try #require(await authError { try await harness.auth.revokeToken(withAuthorizationCode: "code") })
        #expect(error.code == .nullUser)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test(
        "revokeToken errors: a refused code, an old sign-in, a dead session (which signs out)",
        arguments: [
            ("INVALID_IDP_RESPONSE : The authorization code is invalid.", AuthErrorCode.invalidCredential, false),
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin, false),
            ("INVALID_ID_TOKEN", .invalidUserToken, true),
        ])
    func revokeErrors(message: String, code: AuthErrorCode, signsOut: Bool) async throws {
        let harness = Harness()
        try await harness.signIn()
        harness.transport.enqueue("accounts:revokeToken", status: 400, json: Fixture.errorEnvelope(message))
        let error = try #require(await authError { try await harness.auth.revokeToken(withAuthorizationCode: "code") })
        #expect(error.code == code)
        #expect((harness.auth.currentUser == nil) == signsOut)
    }
}
