import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

@Suite("Refresh tokens and ID token checks")
struct TokenServiceTests {
    @Test("refresh keeps auth_time and sign_in_provider, issues a fresh iat and refresh token, stores only hashes")
    func refreshKeepsSession() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "1", email: "r@example.com")
        let refreshToken = try #require(signIn.refreshToken)
        let authTime = try test.claims(of: try #require(signIn.idToken))["auth_time"]
        test.time.advance(by: 1800)
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: refreshToken), by: .user(client: nil))
        #expect(refreshed.accessToken == refreshed.idToken)
        #expect(refreshed.expiresIn == "3600")
        #expect(refreshed.refreshToken != refreshToken)
        #expect(refreshed.userId == signIn.localId)
        #expect(refreshed.projectId == "123")
        let claims = try test.claims(of: refreshed.idToken)
        #expect(claims["auth_time"] == authTime)
        #expect(claims["iat"] == .integer(test.time.nowSeconds))
        #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
        // Both name the same session, which keeps the hashes of the current and the replaced token, and the
        // current one's secret only sealed under the replaced one.
        let parts = [refreshToken, refreshed.refreshToken].map { token in
            token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(parts.map(\.count) == [2, 2])
        #expect(parts[0][0] == parts[1][0])
        let stored = try #require(try test.store.read { try $0.refreshSession(id: parts[0][0]) })
        #expect(stored.currentTokenHash == Fixture.sha256Hex(refreshed.refreshToken))
        #expect(stored.replaced?.tokenHash == Fixture.sha256Hex(refreshToken))
        #expect(stored.replaced?.sealedSuccessor != Base64URL.decode(parts[1][1]))
        let account = try #require(try test.store.read { try $0.account(localID: signIn.localId!) })
        #expect(account.lastRefreshAtMillis == test.time.nowMillis)
    }

    @Test("a session cookie carries the ID token's claims under Firebase's session issuer, for 5 minutes to 14 days")
    func sessionCookie() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "cookie", email: "cookie@example.com")
        let idToken = try #require(signIn.idToken)
        let tokenClaims = try test.claims(of: idToken)
        test.time.advance(by: 60)
        let cookie = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil)
        var claims = try test.claims(of: cookie)
        #expect(claims["iss"] == .string("https://session.firebase.google.com/\(TestPlatform.projectID)"))
        #expect(claims["iat"] == .integer(test.time.nowSeconds))
        #expect(claims["exp"] == .integer(test.time.nowSeconds + 1_209_600), "14 days by default")
        var cookieFirebase = try #require(claims["firebase"]?.objectValue)
        var tokenFirebase = try #require(tokenClaims["firebase"]?.objectValue)
        #expect(cookieFirebase.removeValue(forKey: TokenService.issuedAtMillisClaim) == .integer(test.time.nowMillis), "signed now, in ms")
        #expect(tokenFirebase.removeValue(forKey: TokenService.issuedAtMillisClaim) == .integer(test.time.nowMillis - 60_000))
        #expect(cookieFirebase == tokenFirebase)
        for name in ["iss", "iat", "exp", "firebase"] { claims[name] = tokenClaims[name] }
        #expect(claims == tokenClaims, "every other claim is the ID token's")
        let short = try test.claims(of: try test.tokens.mintSessionCookie(idToken: idToken, validDuration: 300))
        #expect(short["exp"] == .integer(test.time.nowSeconds + 300))

        for duration: Int64 in [299, 1_209_601, 0, -1] {
            #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: duration) } == .invalidDuration)
        }
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: nil, validDuration: nil) } == .missingIDToken)
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: cookie, validDuration: nil) } == .invalidIDToken,
                "a session cookie is not an ID token")
        // A revoked user's ID token makes no cookie.
        test.time.advance(by: 5)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: signIn.localId!))
            account.validSinceMillis = test.time.nowMillis
            try writer.updateAccount(account)
        }
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil) } == .tokenExpired)
    }

    @Test("bad grant requests", arguments: [
        (RefreshTokenRequest(grantType: nil, refreshToken: "x"), ErrorCode.missingGrantType),
        (RefreshTokenRequest(grantType: "authorization_code", refreshToken: "x"), .invalidGrantType),
        (RefreshTokenRequest(grantType: "refresh_token", refreshToken: nil), .missingRefreshToken),
        (RefreshTokenRequest(grantType: "refresh_token", refreshToken: "unknown"), .invalidRefreshToken),
    ])
    func badRequests(request: RefreshTokenRequest, code: ErrorCode) throws {
        let test = try TestPlatform()
        #expect(wireErrorCode { _ = try test.tokens.refresh(request, by: .user(client: nil)) } == code)
    }

    @Test("revocation (validSince moved past the sign-in) makes refresh fail with TOKEN_EXPIRED")
    func revoked() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "2")
        test.time.advance(by: 5)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: signIn.localId!))
            account.validSinceMillis = test.time.nowMillis
            try writer.updateAccount(account)
        }
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: signIn.refreshToken), by: .user(client: nil)) } == .tokenExpired)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: signIn.idToken) } == .tokenExpired)
    }

    @Test("disabled and deleted users cannot refresh")
    func disabledAndDeleted() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "3")
        let localID = try #require(signIn.localId)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.disabled = true
            try writer.updateAccount(account)
        }
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: signIn.refreshToken), by: .user(client: nil)) } == .userDisabled)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: signIn.idToken) } == .userDisabled)

        let other = try test.signIn(subject: "4")
        let idToken = try #require(other.idToken)
        _ = try test.accounts.delete(DeleteAccountRequest(idToken: idToken), by: .user(client: nil))
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: other.refreshToken), by: .user(client: nil)) } == .userNotFound)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: idToken) } == .userNotFound)
    }

    @Test("presented ID tokens: expired → TOKEN_EXPIRED; tampered, foreign or unsigned → INVALID_ID_TOKEN")
    func presentedTokens() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "5")
        let idToken = try #require(signIn.idToken)
        #expect(try test.tokens.authenticate(idToken: idToken).account.localID == signIn.localId)
        let parts = idToken.split(separator: ".").map(String.init)
        var payload = try test.claims(of: idToken)
        payload["sub"] = "someone-else"
        let swapped = parts[0] + "." + Base64URL.encode(JSONValue.object(payload).jsonData()) + "." + parts[2]
        let foreign = try test.google.idToken(subject: "5")
        let unsigned = #"eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0"# + "." + parts[1] + "."
        for token in [swapped, foreign, unsigned, "garbage", parts[0] + "." + parts[1]] {
            #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: token) } == .invalidIDToken)
        }
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: nil) } == .missingIDToken)
        test.time.advance(by: 3601)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: idToken) } == .tokenExpired)
    }

    @Test("custom claims are merged at the top level; reserved names cannot be overridden")
    func customClaims() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "6", email: "c@example.com")
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: signIn.localId!))
            account.customAttributes = #"{"role":"admin","level":3,"sub":"evil","email":"evil@example.com","firebase":{}}"#
            try writer.updateAccount(account)
        }
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: signIn.refreshToken), by: .user(client: nil))
        let claims = try test.claims(of: refreshed.idToken)
        #expect(claims["role"] == "admin")
        #expect(claims["level"] == 3)
        #expect(claims["sub"] == .string(signIn.localId!))
        #expect(claims["email"] == "c@example.com")
        #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
    }
}
