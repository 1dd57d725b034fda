import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

@Suite("signInWithIdp")
struct SignInWithIdpTests {
    @Test("first sign-in creates the account; the next one finds it")
    func newThenReturning() throws {
        let test = try TestPlatform()
        let first = try test.signIn(subject: "111", email: "Ada@Example.com")
        #expect(first.isNewUser == true)
        #expect(first.providerId == "google.com")
        #expect(first.federatedId == "https://accounts.google.com/111")
        #expect(first.email == "ada@example.com")
        #expect(first.emailVerified == true)
        #expect(first.expiresIn == "3600")
        #expect(first.idToken != nil && first.refreshToken != nil)
        let localID = try #require(first.localId)
        let created = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(created.lastLoginAtMillis == test.time.nowMillis)
        #expect(created.lastRefreshAtMillis == test.time.nowMillis, "a sign-in issues tokens: lastRefreshAt is set")

        test.time.advance(by: 600)
        let second = try test.signIn(subject: "111", email: "ada@example.com")
        #expect(try test.store.read { try $0.account(localID: localID) }?.lastRefreshAtMillis == test.time.nowMillis)
        #expect(second.isNewUser == false)
        #expect(second.localId == localID)
        #expect(try test.store.read { try $0.accountCount() } == 1)
    }

    @Test("the ID token carries the claims PROTOCOL.md §5.1 lists")
    func idTokenClaims() throws {
        let test = try TestPlatform()
        let response = try test.signIn(subject: "222", email: "grace@example.com")
        let claims = try test.claims(of: try #require(response.idToken))
        let localID = try #require(response.localId)
        #expect(claims["iss"] == .string(TestPlatform.issuer))
        #expect(claims["aud"] == .string(TestPlatform.projectID))
        #expect(claims["sub"] == .string(localID))
        #expect(claims["user_id"] == .string(localID))
        #expect(claims["email"] == "grace@example.com")
        #expect(claims["email_verified"] == true)
        #expect(claims["name"] == "Test User")
        let now = test.time.nowSeconds
        #expect(claims["iat"] == .integer(now))
        #expect(claims["exp"] == .integer(now + 3600))
        #expect(claims["auth_time"] == .integer(now))
        let firebase = try #require(claims["firebase"]?.objectValue)
        #expect(firebase["sign_in_provider"] == "google.com")
        #expect(firebase["identities"] == ["google.com": ["222"], "email": ["grace@example.com"]])
    }

    @Test("rawUserInfo and the credential echo are filled")
    func responseFields() throws {
        let test = try TestPlatform()
        let idToken = try test.google.idToken(subject: "333", email: "e@example.com", overrides: ["given_name": "Eve", "family_name": "Ex", "picture": "https://p.example/e.png"])
        let response = try test.accounts.signInWithIdp(test.signInRequest(idToken: idToken, accessToken: "at-1"), by: .user(client: nil))
        #expect(response.oauthIdToken == idToken)
        #expect(response.oauthAccessToken == "at-1")
        #expect(response.firstName == "Eve")
        #expect(response.lastName == "Ex")
        #expect(response.photoUrl == "https://p.example/e.png")
        let raw = try JSONValue(parsing: Data(try #require(response.rawUserInfo).utf8))
        #expect(raw["id"] == "333")
        #expect(raw["verified_email"] == true)
        #expect(raw["granted_scopes"]?.stringValue?.contains("userinfo.email") == true)
    }

    @Test("parameters merge: requestUri query, then postBody, then fragment")
    func parameterMerge() throws {
        let test = try TestPlatform()
        let good = try test.google.idToken(subject: "444")
        let bad = "not-a-token"
        let request = SignInWithIdpRequest(
            requestUri: "http://localhost/callback?providerId=google.com&id_token=\(bad)#id_token=\(good)",
            postBody: "id_token=\(bad)", returnSecureToken: true)
        let response = try test.accounts.signInWithIdp(request, by: .user(client: nil))
        #expect(response.federatedId == "https://accounts.google.com/444")
    }

    @Test("the requestUri's query and fragment are found when a combining mark follows '?' or '#' (found by fuzzing)")
    func delimitersBeforeCombiningMarks() throws {
        let test = try TestPlatform()
        let good = try test.google.idToken(subject: "445")
        let request = SignInWithIdpRequest(
            requestUri: "http://localhost/callback?\u{33B}=x&providerId=google.com&id_token=bad#\u{33B}=y&id_token=\(good)",
            returnSecureToken: true)
        let response = try test.accounts.signInWithIdp(request, by: .user(client: nil))
        #expect(response.federatedId == "https://accounts.google.com/445")
    }

    @Test("input checks", arguments: [
        (SignInWithIdpRequest(requestUri: nil, postBody: "providerId=google.com&id_token=x"), ErrorCode.missingRequestURI),
        (SignInWithIdpRequest(requestUri: "/relative", postBody: "providerId=google.com&id_token=x"), .invalidRequestURI),
        (SignInWithIdpRequest(requestUri: "http://localhost", postBody: "id_token=x"), .invalidCredentialOrProviderID),
        (SignInWithIdpRequest(requestUri: "http://localhost", postBody: "providerId=facebook.com&access_token=x"), .operationNotAllowed),
        (SignInWithIdpRequest(requestUri: "http://localhost", postBody: "providerId=google.com"), .invalidIdpResponse),
        (SignInWithIdpRequest(requestUri: "http://localhost", postBody: "providerId=google.com&id_token={\"sub\":\"1\"}"), .invalidIdpResponse),
    ])
    func inputChecks(request: SignInWithIdpRequest, code: ErrorCode) throws {
        let test = try TestPlatform()
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(request, by: .user(client: nil)) } == code)
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("Google tokens are really verified: forged, expired, wrong audience, wrong issuer, alg none, unknown kid")
    func forgedTokens() throws {
        let test = try TestPlatform()
        let google = test.google
        let now = test.time.nowSeconds
        let valid = try google.idToken(subject: "555")
        let parts = valid.split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        let tampered = parts[0] + "." + parts[1] + "." + String(signature)
        let header = #"{"alg":"none","typ":"JWT"}"#
        let payload = JSONValue.object(google.claims(subject: "555")).jsonData()
        let unsigned = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload) + "."
        let forged = try Fixture.sign(google.claims(subject: "555"), key: try Fixture.otherKey(), keyID: google.keyID)
        let cases: [String] = [
            tampered, unsigned, forged,
            try google.idToken(subject: "555", overrides: ["exp": .integer(now - 301), "iat": .integer(now - 4000)]),
            try google.idToken(subject: "555", overrides: ["iat": .integer(now + 600), "exp": .integer(now + 4000)]),
            try google.idToken(subject: "555", overrides: ["nbf": .integer(now + 600)]),
            try google.idToken(subject: "555", overrides: ["auth_time": .integer(now + 600)]),
            try google.idToken(subject: "555", overrides: ["aud": "someone-else.apps.googleusercontent.com"]),
            try google.idToken(subject: "555", overrides: ["iss": "https://evil.example"]),
            try google.idToken(google.claims(subject: "555"), keyID: "unknown-kid"),
            try google.idToken(subject: "555", overrides: ["sub": .null]),
        ]
        for token in cases {
            #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: token), by: .user(client: nil)) } == .invalidIdpResponse)
        }
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("signed times beyond Int64 or at its ends are refused, not a crash (found by fuzz-claims)", arguments: [
        ["exp": JSONValue.double(1e20)], ["exp": .double(1e300)], ["exp": .integer(.max)], ["iat": .integer(.min)],
        ["iat": .double(-1e300)],
    ])
    func extremeTimes(overrides: [String: JSONValue]) throws {
        let test = try TestPlatform()
        let token = try test.google.idToken(subject: "557", overrides: overrides)
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: token), by: .user(client: nil)) } == .invalidIdpResponse)
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("an expired token within the 5-minute skew is still accepted")
    func skew() throws {
        let test = try TestPlatform()
        let now = test.time.nowSeconds
        let token = try test.google.idToken(subject: "556", overrides: ["exp": .integer(now - 200), "iat": .integer(now - 3800)])
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: token), by: .user(client: nil)).isNewUser == true)
    }

    @Test("nonce: the raw nonce or its SHA-256 must match; a mismatch is MISSING_OR_INVALID_NONCE")
    func nonce() throws {
        let test = try TestPlatform()
        let raw = "n-0S6_WzA2Mj"
        let plain = try test.google.idToken(subject: "600", overrides: ["nonce": .string(raw)])
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: plain, nonce: raw), by: .user(client: nil)).localId != nil)
        let digest = Fixture.sha256Hex(raw)
        let withHash = try test.google.idToken(subject: "601", overrides: ["nonce": .string(digest)])
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: withHash, nonce: raw), by: .user(client: nil)).localId != nil)
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: plain, nonce: "other"), by: .user(client: nil)) } == .missingOrInvalidNonce)
        let none = try test.google.idToken(subject: "602")
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: none, nonce: raw), by: .user(client: nil)) } == .missingOrInvalidNonce)
    }

    @Test("an access token alone signs in through tokeninfo and userinfo; one for another app is refused")
    func accessTokenOnly() throws {
        let test = try TestPlatform()
        test.google.addAccessToken("at-ok", subject: "700", profile: ["email": "at@example.com", "email_verified": true, "name": "At User"])
        test.google.addAccessToken("at-other", audience: "other.apps.googleusercontent.com", subject: "701", profile: [:])
        let response = try test.accounts.signInWithIdp(test.signInRequest(idToken: nil, accessToken: "at-ok"), by: .user(client: nil))
        #expect(response.federatedId == "https://accounts.google.com/700")
        #expect(response.email == "at@example.com")
        #expect(response.displayName == "At User")
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: nil, accessToken: "at-other"), by: .user(client: nil)) } == .invalidIdpResponse)
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: nil, accessToken: "at-unknown"), by: .user(client: nil)) } == .invalidIdpResponse)
    }

    @Test("autoCreate false (reauthentication) refuses unknown identities with USER_NOT_FOUND")
    func reauthentication() throws {
        let test = try TestPlatform()
        let token = try test.google.idToken(subject: "800")
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: token, autoCreate: false), by: .user(client: nil)) } == .userNotFound)
        _ = try test.signIn(subject: "800")
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: token, autoCreate: false), by: .user(client: nil)).isNewUser == false)
    }

    @Test("a disabled account cannot sign in")
    func disabled() throws {
        let test = try TestPlatform()
        let localID = try #require(try test.signIn(subject: "900").localId)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.disabled = true
            try writer.updateAccount(account)
        }
        #expect(wireErrorCode { _ = try test.signIn(subject: "900") } == .userDisabled)
    }
}

@Suite("One account per email")
struct EmailRulesTests {
    private func insertAccount(_ test: TestPlatform, email: String, verified: Bool, passwordHash: String? = "hash") throws -> String {
        let account = Account(
            localID: "local-\(email)", email: email, emailVerified: verified, displayName: "Old Name", phoneNumber: "+15555550100",
            passwordHash: passwordHash, createdAtMillis: test.time.nowMillis, validSinceMillis: test.time.nowMillis - 100_000,
            providers: [LinkedIdentity(providerID: "github.com", rawID: "gh-1")])
        try test.store.write { try $0.insertAccount(account) }
        return account.localID
    }

    @Test("a trusted provider's verified email links to the existing verified account and keeps its other providers")
    func autoLinkVerified() throws {
        let test = try TestPlatform()
        let localID = try insertAccount(test, email: "sam@gmail.com", verified: true)
        let response = try test.signIn(subject: "1000", email: "sam@gmail.com")
        #expect(response.localId == localID)
        #expect(response.isNewUser == false)
        let account = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(account.providers.map(\.providerID).sorted() == ["github.com", "google.com"])
        #expect(account.passwordHash == "hash")
    }

    @Test("takeover: a trusted provider's verified email replaces an unverified account's other sign-in methods and revokes its sessions")
    func takeover() throws {
        let test = try TestPlatform()
        let localID = try insertAccount(test, email: "pat@gmail.com", verified: false)
        let oldSession = try test.store.write { writer in
            try test.tokens.newRefreshToken(
                for: try #require(try writer.account(localID: localID)),
                session: Session(signInProvider: "password", authTime: test.time.nowSeconds - 50), writer: writer)
        }
        test.time.advance(by: 10)
        let response = try test.signIn(subject: "1001", email: "pat@gmail.com")
        #expect(response.localId == localID)
        let account = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(account.providers.map(\.providerID) == ["google.com"])
        #expect(account.passwordHash == nil)
        #expect(account.phoneNumber == nil)
        #expect(account.emailVerified == true)
        #expect(account.displayName == "Test User")
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: oldSession), by: .user(client: nil)) } == .tokenExpired)
        #expect(try test.tokens.refresh(RefreshTokenRequest(refreshToken: response.refreshToken), by: .user(client: nil)).userId == localID)
    }

    @Test("an unverified IdP email that another account owns asks for confirmation and issues no tokens")
    func needConfirmation() throws {
        let test = try TestPlatform()
        let localID = try insertAccount(test, email: "kim@example.com", verified: true)
        let response = try test.signIn(subject: "1002", email: "kim@example.com", emailVerified: false)
        #expect(response.needConfirmation == true)
        #expect(response.localId == localID)
        #expect(response.verifiedProvider == ["github.com"])
        #expect(response.idToken == nil && response.refreshToken == nil)
        let account = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(account.identity(for: "google.com") == nil)
    }

    /// Every way a provider's "verified" email that another account has could sign in to that account, and what
    /// Hearth answers: only a provider trusted for the address joins it (Google for gmail.com and its hosted
    /// domains, an `oidc.*` provider the operator trusts); any other is asked for confirmation and changes nothing.
    @Test(
        "a verified email joins the account that has it only from a provider trusted for the address",
        arguments: [
            ("google.com", "lee@gmail.com", [:], true),
            ("google.com", "lee@googlemail.com", [:], true),
            ("google.com", "lee@corp.example", ["hd": "corp.example"], true),
            ("google.com", "lee@corp.example", [:], false),
            ("google.com", "lee@corp.example", ["hd": "other.example"], false),
            (TestPlatform.untrustedOpenID, "lee@gmail.com", [:], false),
            (TestPlatform.untrustedOpenID, "lee@corp.example", [:], false),
            (TestPlatform.trustedOpenID, "lee@corp.example", [:], true),
        ] as [(String, String, [String: JSONValue], Bool)])
    func trustedProviders(providerID: String, email: String, overrides: [String: JSONValue], joins: Bool) throws {
        for verified in [true, false] {
            let test = try TestPlatform()
            let localID = try insertAccount(test, email: email, verified: verified)
            let before = try #require(try test.store.read { try $0.account(localID: localID) })
            let response = try test.signIn(subject: "2000", email: email, overrides: overrides, providerID: providerID)
            let after = try #require(try test.store.read { try $0.account(localID: localID) })
            if joins {
                #expect(response.localId == localID && response.idToken != nil)
                #expect(after.identity(for: providerID) != nil)
                #expect((after.passwordHash == nil) == !verified, "an unverified account is taken over, a verified one joined")
            } else {
                #expect(response.needConfirmation == true, "\(providerID) \(email) verified=\(verified)")
                #expect(response.idToken == nil && response.refreshToken == nil)
                #expect(after == before, "nothing of the account changes")
                #expect(try test.store.read { try $0.accountCount() } == 1)
            }
        }
    }

    @Test("an untrusted provider's accounts keep their email unverified until the user proves it")
    func untrustedEmailStaysUnverified() throws {
        let test = try TestPlatform()
        let untrusted = try test.signIn(subject: "3000", email: "nina@gmail.com", providerID: TestPlatform.untrustedOpenID)
        let localID = try #require(untrusted.localId)
        let account = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(account.email == "nina@gmail.com" && account.emailVerified == false)
        let idToken = try #require(untrusted.idToken)
        #expect(try test.claims(of: idToken)["email_verified"] == false)

        // So Google, trusted for the address, later takes the unproven account over instead of joining it.
        let google = try test.signIn(subject: "3001", email: "nina@gmail.com")
        let taken = try #require(try test.store.read { try $0.account(localID: localID) })
        #expect(google.localId == localID)
        #expect(taken.providers.map(\.providerID) == ["google.com"], "the untrusted identity is dropped")

        let trusted = try test.signIn(subject: "3002", email: "omar@corp.example", providerID: TestPlatform.trustedOpenID)
        let trustedID = try #require(trusted.localId)
        #expect(try test.store.read { try $0.account(localID: trustedID) }?.emailVerified == true)
    }

    @Test("emails from a provider are stored in one spelling; invisible characters are refused")
    func providerEmailSpelling() throws {
        let test = try TestPlatform()
        let composed = try test.signIn(subject: "4000", email: "Zo\u{00EB}@gmail.com")
        let decomposed = try test.signIn(subject: "4001", email: "zoe\u{0308}@gmail.com")
        #expect(composed.email == "zo\u{00EB}@gmail.com")
        #expect(decomposed.localId == composed.localId, "the decomposed spelling is the same address")
        for hidden in ["zo\u{200B}e@gmail.com", "zoe@gma\u{202E}il.com", "zoe\u{FEFF}@gmail.com", "zoe\u{00AD}@gmail.com"] {
            #expect(wireErrorCode { _ = try test.signIn(subject: "4002", email: hidden) } == .invalidIdpResponse)
        }
        #expect(try test.store.read { try $0.accountCount() } == 1)
    }
}
