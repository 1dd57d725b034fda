import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import JOSE
import Testing

@Suite("Service accounts: the JWT-bearer token endpoint and admin access tokens")
struct ServiceAccountTokenTests {
    private func grant(_ test: TestPlatform, _ assertion: String?, grantType: String? = ServiceAccountTokenIssuer.grantType)
        throws -> AccessTokenResponse
    {
        try test.platform.serviceAccountTokens.grant(
            grantType: grantType, assertion: assertion, tokenEndpoint: TestServiceAccount.tokenEndpoint)
    }

    private var verifier: (TestPlatform) -> ServiceAccountTokenVerifier { { $0.platform.serviceAccountTokenVerifier } }

    @Test("google-auth's assertion gets a one-hour Bearer token that the verifier accepts as the account")
    func grantAndVerify() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let response = try grant(test, account.sign(account.grantClaims(now: test.time.nowSeconds)))
        #expect(response.expiresIn == 3600)
        #expect(response.tokenType == "Bearer")
        #expect(try verifier(test).caller(bearerToken: response.accessToken) == .serviceAccount(email: account.email))
        // As google-auth reads it.
        let json = try JSONValue(parsing: JSONEncoder().encode(response))
        #expect(json["access_token"]?.stringValue == response.accessToken)
        #expect(json["expires_in"] == .integer(3600))
        #expect(json["token_type"] == "Bearer")
    }

    @Test("the assertion may name this endpoint as aud, and may leave out kid (the signer is found by iss)")
    func ownAudienceAndNoKeyID() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let claims = account.grantClaims(now: test.time.nowSeconds, overrides: ["aud": .string(TestServiceAccount.tokenEndpoint)])
        #expect(try verifier(test).caller(bearerToken: grant(test, account.sign(claims)).accessToken) != nil)
        #expect(try verifier(test).caller(bearerToken: grant(test, account.sign(claims, keyID: .some(nil))).accessToken) != nil)
    }

    @Test("bad requests: missing or other grant type, missing assertion")
    func badRequests() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let assertion = try account.sign(account.grantClaims(now: test.time.nowSeconds))
        #expect(oauthError { _ = try grant(test, assertion, grantType: nil) } == "invalid_request")
        #expect(oauthError { _ = try grant(test, assertion, grantType: "client_credentials") } == "unsupported_grant_type")
        #expect(oauthError { _ = try grant(test, nil) } == "invalid_request")
        #expect(oauthError { _ = try grant(test, "not.a.jwt") } == "invalid_grant")
        #expect(oauthError { _ = try grant(test, "garbage") } == "invalid_grant")
    }

    @Test("refused assertions: another key, an unknown kid, someone else's iss, a revoked account")
    func refusedSigners() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let other = try TestServiceAccount(test, name: "other-api")
        let now = test.time.nowSeconds
        let claims = account.grantClaims(now: now)
        #expect(oauthError { _ = try grant(test, account.sign(claims, key: Fixture.otherKey())) } == "invalid_grant")
        #expect(oauthError { _ = try grant(test, account.sign(claims, keyID: "unknown-key")) } == "invalid_grant")
        // Signed by `other`, claiming to be `account`, with or without other's kid.
        #expect(oauthError { _ = try grant(test, other.sign(claims)) } == "invalid_grant")
        #expect(oauthError { _ = try grant(test, other.sign(claims, keyID: .some(nil))) } == "invalid_grant")
        #expect(try test.store.write { try $0.revokeServiceAccount(keyID: account.record.keyID, at: now) })
        #expect(oauthError { _ = try grant(test, account.sign(claims)) } == "invalid_grant")
        #expect(oauthError { _ = try grant(test, account.sign(claims, keyID: .some(nil))) } == "invalid_grant")
    }

    @Test("refused claims", arguments: [
        ["aud": "https://example.com/token"], ["aud": .null], ["exp": .null], ["iat": .null],
        ["exp": .integer(1_800_000_000 + 3601)], ["iat": .integer(1_800_000_000 + 600), "exp": .integer(1_800_000_000 + 1200)],
        ["iat": .integer(1_800_000_000 - 7200), "exp": .integer(1_800_000_000 - 3600)],
    ] as [[String: JSONValue]])
    func refusedClaims(overrides: [String: JSONValue]) throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        #expect(test.time.nowSeconds == 1_800_000_000)
        let assertion = try account.sign(account.grantClaims(now: test.time.nowSeconds, overrides: overrides))
        #expect(oauthError { _ = try grant(test, assertion) } == "invalid_grant")
    }

    @Test("a service account acts only as itself (no domain-wide delegation)")
    func noDelegation() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let claims = account.grantClaims(now: test.time.nowSeconds, overrides: ["sub": "someone@example.com"])
        #expect(oauthError { _ = try grant(test, account.sign(claims)) } == "unauthorized_client")
        let itself = account.grantClaims(now: test.time.nowSeconds, overrides: ["sub": .string(account.email)])
        #expect(try grant(test, account.sign(itself)).expiresIn == 3600)
    }

    @Test("an access token stops working once expired, and at once when its account is revoked")
    func expiryAndRevocation() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let token = try grant(test, account.sign(account.grantClaims(now: test.time.nowSeconds))).accessToken
        test.time.advance(by: 3599)
        #expect(try verifier(test).caller(bearerToken: token) == .serviceAccount(email: account.email))
        test.time.advance(by: 1)
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: token) } == .unauthenticated)

        test.time.advance(by: 10)
        let fresh = try grant(test, account.sign(account.grantClaims(now: test.time.nowSeconds))).accessToken
        #expect(try verifier(test).caller(bearerToken: fresh) != nil)
        try test.store.write { try $0.revokeServiceAccount(keyID: account.record.keyID, at: test.time.nowSeconds) }
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: fresh) } == .unauthenticated)
        // A new account of the same name does not revive the old one's tokens.
        let again = try TestServiceAccount(test)
        #expect(again.email == account.email)
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: fresh) } == .unauthenticated)
    }

    @Test("the verifier refuses an ID token, a token signed by another key, and another project's admin token")
    func refusedTokens() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let idToken = try #require(try test.signIn(subject: "1", email: "a@example.com").idToken)
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: idToken) } == .unauthenticated)

        let token = try grant(test, account.sign(account.grantClaims(now: test.time.nowSeconds))).accessToken
        let claims = try test.claims(of: token)
        let kid = try test.platform.sessionKeys.current().signer.keyID
        let forged = try Fixture.sign(claims, key: Fixture.otherKey(), keyID: kid)
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: forged) } == .unauthenticated)
        let unknownKey = try Fixture.sign(claims, key: Fixture.otherKey(), keyID: "other-kid")
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: unknownKey) } == .unauthenticated)
        var otherProject = claims
        otherProject["aud"] = "hearth:admin:another-project"
        let signedForOther = try test.platform.sessionKeys.current().signer.sign(payload: JSONValue.object(otherProject).jsonData())
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: signedForOther) } == .unauthenticated)
        // Each of iss, aud, sub and sa_kid must be the admin token's.
        for (claim, value) in [
            ("iss", JSONValue.string(TestPlatform.issuer)), ("sub", "other@test-project.iam.hearth"), ("sa_kid", "k"),
            ("sa_kid", .null),
        ] {
            var changed = claims
            changed[claim] = value == .null ? nil : value
            let signed = try test.platform.sessionKeys.current().signer.sign(payload: JSONValue.object(changed).jsonData())
            #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: signed) } == .unauthenticated, "\(claim)")
        }
        // A service account's own assertion is not an access token either.
        let assertion = try account.sign(account.grantClaims(now: test.time.nowSeconds))
        #expect(wireErrorCode { _ = try verifier(test).caller(bearerToken: assertion) } == .unauthenticated)
    }

    @Test("bearer tokens that are not JWTs (API keys, owner) are not the verifier's kind")
    func otherKinds() throws {
        let test = try TestPlatform()
        #expect(try verifier(test).caller(bearerToken: "AIzaSyD-test-api-key") == nil)
        #expect(try verifier(test).caller(bearerToken: "owner") == nil)
        #expect(try verifier(test).caller(bearerToken: "") == nil)
    }

    @Test("an admin access token is never accepted as an ID token")
    func notAnIDToken() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let token = try grant(test, account.sign(account.grantClaims(now: test.time.nowSeconds))).accessToken
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: token) } == .invalidIDToken)
        let claims = try test.claims(of: token)
        #expect(claims["iss"] != .string(TestPlatform.issuer))
        #expect(claims["aud"] != .string(TestPlatform.projectID))
        #expect(claims["firebase"] == nil)
    }

    @Test("the key file is Google's format with the private key of the stored public key")
    func keyFile() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        #expect(Set(account.keyFile.keys) == [
            "type", "project_id", "private_key_id", "private_key", "client_email", "client_id", "token_uri",
        ])
        #expect(account.keyFile["type"] == "service_account")
        #expect(account.keyFile["project_id"] == TestPlatform.projectID)
        #expect(account.keyFile["private_key_id"] == account.record.keyID)
        #expect(account.keyFile["client_email"] == "backend-api@test-project.iam.hearth")
        #expect(account.keyFile["token_uri"] == TestServiceAccount.tokenEndpoint)
        #expect(account.keyFile["private_key"]?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        #expect(try RSAPublicKey(pemRepresentation: account.record.publicKeyPEM) == account.privateKey.publicKey)
        #expect(!account.record.publicKeyPEM.contains("PRIVATE"))
        #expect(account.privateKey.publicKey.bitCount == 2048)
    }

    @Test("service-account names follow Google's rule", arguments: [
        ("backend", true), ("a12345", true), ("my-backend-2", true), (String(repeating: "a", count: 30), true),
        ("short", false), (String(repeating: "a", count: 31), false), ("1backend", false), ("backend-", false),
        ("Backend", false), ("back_end", false), ("back end", false), ("backend@x", false), ("", false),
    ])
    func names(name: String, valid: Bool) {
        #expect(NewServiceAccount.isValidName(name) == valid)
    }
}
