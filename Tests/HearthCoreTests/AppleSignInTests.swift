import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

/// `signInWithIdp` with `apple.com`, as the iOS SDK's `OAuthProvider.appleCredential(withIDToken:rawNonce:fullName:)`
/// sends it: Apple's claims, the hashed nonce, the name only on the first sign-in.
@Suite("Sign in with Apple")
struct AppleSignInTests {
    let relay = "x7k2@privaterelay.appleid.com"

    func signIn(_ test: TestPlatform, _ claims: [String: JSONValue], rawNonce: String?, firstName: String? = nil,
                lastName: String? = nil, user: String? = nil, linking: String? = nil) throws -> SignInWithIdpResponse {
        try test.accounts.signInWithIdp(FakeApple.request(
            idToken: test.apple.idToken(claims), rawNonce: rawNonce, firstName: firstName, lastName: lastName, user: user,
            linking: linking), by: .user(client: nil))
    }

    func account(_ test: TestPlatform, _ localID: String?) throws -> Account {
        let localID = try #require(localID)
        return try #require(try test.store.read { try $0.account(localID: localID) })
    }

    @Test("first sign-in: the name from `user` becomes the display name; a private-relay email is stored, verified")
    func firstSignIn() throws {
        let test = try TestPlatform()
        let response = try signIn(
            test, test.apple.claims(subject: "001.apple", email: relay, rawNonce: "raw-1"), rawNonce: "raw-1",
            firstName: "Ada", lastName: "Lovelace")
        #expect(response.providerId == "apple.com")
        #expect(response.federatedId == "001.apple")
        #expect(response.isNewUser == true)
        #expect(response.displayName == "Ada Lovelace" && response.fullName == "Ada Lovelace")
        #expect(response.firstName == "Ada" && response.lastName == "Lovelace")
        #expect(response.email == relay && response.emailVerified == true)
        let raw = try JSONValue(parsing: Data(try #require(response.rawUserInfo).utf8))
        #expect(raw["is_private_email"] == "true")
        let stored = try account(test, response.localId)
        #expect(stored.displayName == "Ada Lovelace")
        #expect(stored.email == relay && stored.emailVerified)
        #expect(stored.providers == [
            LinkedIdentity(providerID: "apple.com", rawID: "001.apple", email: relay, displayName: "Ada Lovelace"),
        ])
        let claims = try test.claims(of: try #require(response.idToken))
        #expect(claims["name"] == "Ada Lovelace")
        #expect(claims["firebase"]?.objectValue?["sign_in_provider"] == "apple.com")
    }

    @Test("later sign-ins without a name keep the stored one, on the account and on the identity")
    func nameKept() throws {
        let test = try TestPlatform()
        let first = try signIn(
            test, test.apple.claims(subject: "002.apple", email: relay, rawNonce: "n1"), rawNonce: "n1",
            firstName: "Grace", lastName: nil)
        #expect(first.displayName == "Grace")
        test.time.advance(by: 60)
        let later = try signIn(test, test.apple.claims(subject: "002.apple", email: relay, rawNonce: "n2"), rawNonce: "n2")
        #expect(later.localId == first.localId && later.isNewUser == false)
        #expect(later.displayName == nil && later.firstName == nil)
        let stored = try account(test, later.localId)
        #expect(stored.displayName == "Grace")
        #expect(stored.providers.first?.displayName == "Grace")
        #expect(try test.claims(of: try #require(later.idToken))["name"] == "Grace")
    }

    @Test("a malformed or nameless `user` is ignored, as the Firebase emulator ignores the parameter", arguments: [
        "not json", "{\"name\":\"Ada\"}", "{\"name\":{\"firstName\":7}}", "[]", "{\"name\":{\"firstName\":\"  \"}}",
        "{\"name\":{\"firstName\":\"\(String(repeating: "A", count: 200))\",\"lastName\":\"\(String(repeating: "B", count: 56))\"}}",
    ])
    func malformedUser(user: String) throws {
        let test = try TestPlatform()
        let response = try signIn(test, test.apple.claims(subject: "003.apple", rawNonce: "n"), rawNonce: "n", user: user)
        #expect(response.idToken != nil)
        #expect(response.displayName == nil)
        #expect(try account(test, response.localId).displayName == nil)
    }

    @Test("a name of 256 characters, the longest display name, is kept")
    func longestName() throws {
        let test = try TestPlatform()
        let first = String(repeating: "A", count: 200), last = String(repeating: "B", count: 55)
        let response = try signIn(test, test.apple.claims(subject: "004.apple"), rawNonce: nil, firstName: first, lastName: last)
        #expect(try account(test, response.localId).displayName == first + " " + last)
    }

    @Test("nonce: the token carries the SHA-256 of the raw nonce; a mismatch, the raw nonce itself, or a nonce on one side only is MISSING_OR_INVALID_NONCE")
    func nonce() throws {
        let test = try TestPlatform()
        let apple = test.apple
        #expect(try signIn(test, apple.claims(subject: "n.ok", rawNonce: "raw"), rawNonce: "raw").idToken != nil)
        #expect(try signIn(test, apple.claims(subject: "n.none"), rawNonce: nil).idToken != nil, "no nonce on either side")
        let refused: [(String, [String: JSONValue], String?)] = [
            ("other nonce", apple.claims(subject: "n.1", rawNonce: "other"), "raw"),
            ("raw nonce in the token", apple.claims(subject: "n.2", overrides: ["nonce": "raw"]), "raw"),
            ("uppercase hash", apple.claims(subject: "n.3", overrides: ["nonce": .string(Fixture.sha256Hex("raw").uppercased())]), "raw"),
            ("request without a nonce", apple.claims(subject: "n.4", rawNonce: "raw"), nil),
            ("token without a nonce", apple.claims(subject: "n.5"), "raw"),
        ]
        for (name, claims, rawNonce) in refused {
            #expect(wireErrorCode { _ = try signIn(test, claims, rawNonce: rawNonce) } == .missingOrInvalidNonce, "\(name)")
        }
        #expect(try test.store.read { try $0.accountCount() } == 2, "a refused sign-in creates nothing")
    }

    @Test("wrong audience, expired, forged, wrong issuer and a Google token sent as Apple are INVALID_IDP_RESPONSE")
    func refusedTokens() throws {
        let test = try TestPlatform()
        let apple = test.apple
        let now = test.time.nowSeconds
        let forged = try Fixture.sign(apple.claims(subject: "f.1"), key: try Fixture.otherKey(), keyID: apple.keyID)
        let refused: [(String, String)] = [
            ("wrong audience", try apple.idToken(apple.claims(subject: "f.2", overrides: ["aud": .string(FakeGoogle.clientID)]))),
            ("expired", try apple.idToken(apple.claims(subject: "f.3", overrides: ["iat": .integer(now - 7200), "exp": .integer(now - 3600)]))),
            ("forged", forged),
            ("wrong issuer", try apple.idToken(apple.claims(subject: "f.4", overrides: ["iss": "https://appleid.apple.com.evil"]))),
            ("Google's token", try test.google.idToken(subject: "f.5")),
        ]
        for (name, token) in refused {
            let request = FakeApple.request(idToken: token, rawNonce: nil)
            #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(request, by: .user(client: nil)) } == .invalidIdpResponse, "\(name)")
        }
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("email_verified and is_private_email as strings or booleans", arguments: [
        (JSONValue.string("true"), JSONValue.null, true), (.bool(true), .null, true), (.string("false"), .string("false"), false),
        (.bool(false), .bool(false), false), (.null, .string("true"), true), (.null, .bool(true), true), (.string("yes"), .null, false),
    ])
    func flags(verified: JSONValue, privateEmail: JSONValue, expected: Bool) throws {
        let test = try TestPlatform()
        let claims = test.apple.claims(
            subject: "b.1", email: "b1@example.com", overrides: ["email_verified": verified, "is_private_email": privateEmail])
        let response = try signIn(test, claims, rawNonce: nil)
        #expect(response.emailVerified == expected)
        #expect(try account(test, response.localId).emailVerified == expected)
    }

    @Test("an unverified Apple email that a Google account owns asks for confirmation, as for Google")
    func needConfirmation() throws {
        let test = try TestPlatform()
        let owner = try test.signIn(subject: "g-owner", email: "shared@example.com")
        let claims = test.apple.claims(
            subject: "c.1", email: "shared@example.com", overrides: ["email_verified": "false", "is_private_email": "false"])
        let response = try signIn(test, claims, rawNonce: nil)
        #expect(response.needConfirmation == true && response.localId == owner.localId && response.idToken == nil)
        #expect(response.verifiedProvider == ["google.com"])
    }

    @Test("linking: an Apple identity another account holds is FEDERATED_USER_ID_ALREADY_LINKED and changes nothing; a guest keeps its uid")
    func linking() throws {
        let test = try TestPlatform()
        let holder = try signIn(test, test.apple.claims(subject: "l.1", email: relay), rawNonce: nil)
        let other = try test.signIn(subject: "g-other", email: "other@example.com")
        let conflict = try signIn(
            test, test.apple.claims(subject: "l.1", email: relay), rawNonce: nil, linking: other.idToken)
        #expect(conflict.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(conflict.idToken == nil && conflict.localId == nil)
        #expect(try account(test, other.localId).providers.map(\.providerID) == ["google.com"])
        #expect(try account(test, holder.localId).providers.map(\.rawID) == ["l.1"])

        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let linked = try signIn(
            test, test.apple.claims(subject: "l.2", email: "l2@example.com", rawNonce: "g"), rawNonce: "g",
            firstName: "Guest", lastName: "Upgraded", linking: guest.idToken)
        #expect(linked.localId == guest.localId)
        let upgraded = try account(test, guest.localId)
        #expect(upgraded.providers.map(\.providerID) == ["apple.com"])
        #expect(upgraded.email == "l2@example.com" && upgraded.displayName == "Guest Upgraded")
    }
}
