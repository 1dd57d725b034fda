import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

@Suite("Custom tokens: accounts:signInWithCustomToken")
struct CustomTokenSignInTests {
    private func signIn(_ test: TestPlatform, _ token: String?) throws -> SignInWithCustomTokenResponse {
        try test.platform.customTokens.signIn(SignInWithCustomTokenRequest(token: token), by: .user(client: nil))
    }

    @Test("firebase-admin's signed token makes a new account with a custom session carrying its claims")
    func newAccount() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let token = try account.sign(
            account.customTokenClaims(uid: "user-42", now: test.time.nowSeconds, claims: ["admin": true, "tier": "gold"]))
        let first = try signIn(test, token)
        #expect(first.isNewUser)
        #expect(first.kind == "identitytoolkit#VerifyCustomTokenResponse")
        #expect(first.expiresIn == "3600")
        let claims = try test.claims(of: first.idToken)
        #expect(claims["sub"] == "user-42")
        #expect(claims["user_id"] == "user-42")
        #expect(claims["admin"] == true)
        #expect(claims["tier"] == "gold")
        #expect(claims["firebase"]?["sign_in_provider"] == "custom")
        let stored = try #require(try test.store.read { try $0.account(localID: "user-42") })
        #expect(stored.lastLoginAtMillis == test.time.nowMillis)
        #expect(stored.lastRefreshAtMillis == test.time.nowMillis)

        // The claims stay with the session through refreshes.
        test.time.advance(by: 60)
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: first.refreshToken), by: .user(client: nil))
        #expect(try test.claims(of: refreshed.idToken)["admin"] == true)

        let again = try signIn(test, account.sign(account.customTokenClaims(uid: "user-42", now: test.time.nowSeconds)))
        #expect(!again.isNewUser)
        #expect(try test.claims(of: again.idToken)["admin"] == nil)
        #expect(try test.store.read { try $0.accountCount() } == 1)
    }

    @Test("a token without kid (firebase-admin for Node) is verified with its iss's key")
    func noKeyID() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let token = try account.sign(account.customTokenClaims(uid: "u1", now: test.time.nowSeconds), keyID: .some(nil))
        #expect(try signIn(test, token).isNewUser)
    }

    @Test("unsigned tokens (firebase-admin in emulator mode) sign in only on a development server")
    func unsignedTokens() throws {
        let claims: [String: JSONValue] = [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
            "aud": .string(CustomTokenSignIn.audience), "uid": "dev-user", "iat": 1, "exp": 3601,
            "claims": ["role": "tester"],
        ]
        let production = try TestPlatform()
        #expect(wireErrorCode { _ = try signIn(production, unsignedToken(claims)) } == .invalidCustomToken)
        #expect(try production.store.read { try $0.accountCount() } == 0)

        let development = try TestPlatform(acceptsUnsignedCustomTokens: true)
        let response = try signIn(development, unsignedToken(claims))
        #expect(response.isNewUser)
        #expect(try development.claims(of: response.idToken)["role"] == "tester")
        // Still a custom token: other audiences are refused.
        var idTokenShaped = claims
        idTokenShaped["aud"] = .string(TestPlatform.projectID)
        #expect(wireErrorCode { _ = try signIn(development, unsignedToken(idTokenShaped)) } == .invalidCustomToken)
    }

    @Test("refused signers: another key, an unknown kid, a revoked account, sub not its email")
    func refusedSigners() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let claims = account.customTokenClaims(uid: "u1", now: test.time.nowSeconds)
        #expect(wireErrorCode { _ = try signIn(test, account.sign(claims, key: Fixture.otherKey())) } == .invalidCustomToken)
        #expect(wireErrorCode { _ = try signIn(test, account.sign(claims, keyID: "unknown")) } == .invalidCustomToken)
        var other = claims
        other["sub"] = "someone@example.com"
        #expect(wireErrorCode { _ = try signIn(test, account.sign(other)) } == .invalidCustomToken)
        try test.store.write { try $0.revokeServiceAccount(keyID: account.record.keyID, at: test.time.nowSeconds) }
        #expect(wireErrorCode { _ = try signIn(test, account.sign(claims)) } == .invalidCustomToken)
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("refused tokens", arguments: [
        (["aud": "test-project"], ErrorCode.invalidCustomToken),
        (["exp": .integer(1_800_000_000 + 3601)], .invalidCustomToken),
        (["iat": .integer(1_800_000_000 - 7200), "exp": .integer(1_800_000_000 - 3600)], .invalidCustomToken),
        (["uid": .null], .missingIdentifier),
        (["uid": ""], .missingIdentifier),
        (["uid": .string(String(repeating: "u", count: 129))], .invalidCustomToken),
        (["claims": ["sub": "root"]], .forbiddenClaim),
        (["claims": ["firebase": ["x": 1]]], .forbiddenClaim),
        (["claims": ["admin", "x"]], .invalidClaims),
        (["claims": "admin"], .invalidClaims),
        (["claims": ["big": .string(String(repeating: "x", count: 1000))]], .claimsTooLarge),
        (["claims": ["big": .string(String(repeating: "😀", count: 500))]], .claimsTooLarge),
        (["tenant_id": "tenant-1"], .tenantIDMismatch),
    ] as [([String: JSONValue], ErrorCode)])
    func refusedTokens(overrides: [String: JSONValue], code: ErrorCode) throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        #expect(test.time.nowSeconds == 1_800_000_000)
        let token = try account.sign(account.customTokenClaims(uid: "u1", now: test.time.nowSeconds, overrides: overrides))
        #expect(wireErrorCode { _ = try signIn(test, token) } == code)
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("claims are measured in UTF-16 code units of their JSON, as a user's custom claims: 600 \"é\" (1,200 bytes) fit")
    func claimsMeasuredAsUserClaims() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let motto = String(repeating: "é", count: 600)
        let token = try account.sign(account.customTokenClaims(uid: "u1", now: test.time.nowSeconds, claims: ["motto": .string(motto)]))
        #expect(try test.claims(of: signIn(test, token).idToken)["motto"] == .string(motto))
    }

    @Test("a uid of 128 characters is accepted")
    func longestUID() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        let uid = String(repeating: "u", count: 128)
        #expect(try signIn(test, account.sign(account.customTokenClaims(uid: uid, now: test.time.nowSeconds))).isNewUser)
    }

    @Test("missing, malformed and ID tokens are refused; a disabled user cannot sign in")
    func otherRefusals() throws {
        let test = try TestPlatform()
        let account = try TestServiceAccount(test)
        #expect(wireErrorCode { _ = try signIn(test, nil) } == .missingCustomToken)
        #expect(wireErrorCode { _ = try signIn(test, "") } == .missingCustomToken)
        #expect(wireErrorCode { _ = try signIn(test, "garbage") } == .invalidCustomToken)
        let idToken = try #require(try test.signIn(subject: "1", email: "a@example.com").idToken)
        #expect(wireErrorCode { _ = try signIn(test, idToken) } == .invalidCustomToken)

        _ = try signIn(test, account.sign(account.customTokenClaims(uid: "u1", now: test.time.nowSeconds)))
        try test.platform.admin.setDisabled(localID: "u1", true, by: .commandLine)
        #expect(wireErrorCode {
            _ = try signIn(test, account.sign(account.customTokenClaims(uid: "u1", now: test.time.nowSeconds)))
        } == .userDisabled)
    }
}
