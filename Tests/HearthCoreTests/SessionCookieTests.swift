import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import JOSE
import Testing

/// Console sessions are their own kind of token, and session cookies and console sessions are revoked to the
/// millisecond (issue 18 §5 and §7).
@Suite("Console sessions and session cookies")
struct SessionCookieTests {
    /// A second that starts on a whole second, so the times below are exact binary fractions of it.
    static let second: TimeInterval = 1_800_000_000

    static func revoke(_ localID: String, _ test: TestPlatform) throws {
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.validSinceMillis = test.time.nowMillis
            try writer.updateAccount(account)
        }
    }

    @Test("a console session carries only the uid, auth_time and provider under the console's issuer and audience; an app's session cookie or an ID token is not one, and it is neither of them")
    func ownKind() throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "admin", email: "admin@example.com")
        let idToken = try #require(signIn.idToken)
        let localID = try #require(signIn.localId)
        let session = try test.tokens.mintConsoleSession(idToken: idToken, lifetime: 8 * 3600)
        let claims = try test.claims(of: session)
        #expect(Set(claims.keys) == ["iss", "aud", "sub", "auth_time", "iat", "exp", "firebase"])
        #expect(claims["iss"] == "hearth:console-session" && claims["aud"] == .string("hearth:console:\(TestPlatform.projectID)"))
        #expect(claims["sub"] == .string(localID) && claims["exp"] == .integer(test.time.nowSeconds + 8 * 3600))
        #expect(claims["firebase"] == ["sign_in_provider": "google.com", "hearth_issued_at_ms": .integer(test.time.nowMillis)])
        #expect(try test.tokens.consoleSessionAccount(session)?.localID == localID)

        let appCookie = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil)
        for other in [appCookie, idToken, "", "x.y.z", session + "x"] {
            #expect(try test.tokens.consoleSessionAccount(other) == nil, "\(other.prefix(20))")
        }
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: session, validDuration: nil) } == .invalidIDToken)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: session) } == .invalidIDToken)
        #expect(wireErrorCode { _ = try test.tokens.mintConsoleSession(idToken: appCookie, lifetime: 3600) } == .invalidIDToken)

        test.time.advance(by: 8 * 3600)
        #expect(try test.tokens.consoleSessionAccount(session) == nil, "expired")
        let fresh = try test.tokens.mintConsoleSession(idToken: try #require(try test.signIn(subject: "admin").idToken), lifetime: 3600)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.disabled = true
            try writer.updateAccount(account)
        }
        #expect(try test.tokens.consoleSessionAccount(fresh) == nil, "disabled")
    }

    @Test("a console session whose iat is ahead of the clock by more than the skew is refused, like an ID token")
    func consoleSessionFromTheFuture() throws {
        let test = try TestPlatform()
        test.time.set(Date(timeIntervalSince1970: Self.second))
        let idToken = try #require(try test.signIn(subject: "admin", email: "admin@example.com").idToken)
        let session = try test.tokens.mintConsoleSession(idToken: idToken, lifetime: 3600)
        test.time.set(Date(timeIntervalSince1970: Self.second - 300))
        #expect(try test.tokens.consoleSessionAccount(session) != nil, "within the skew")
        test.time.set(Date(timeIntervalSince1970: Self.second - 301))
        #expect(try test.tokens.consoleSessionAccount(session) == nil, "beyond the skew")
    }

    @Test("a revocation in the same second as a session cookie's or console session's ID token or signature refuses them, to the millisecond; ID tokens keep Firebase's second precision")
    func sameSecondRevocation() throws {
        let test = try TestPlatform()
        test.time.set(Date(timeIntervalSince1970: Self.second - 5))
        let localID = try #require(try test.signIn(subject: "revoked", email: "r@example.com").localId)
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.25))
        let idToken = try #require(try test.signIn(subject: "revoked").idToken)
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.5))
        let cookie = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil)
        let session = try test.tokens.mintConsoleSession(idToken: idToken, lifetime: 3600)
        #expect(try test.tokens.consoleSessionAccount(session)?.localID == localID)

        test.time.set(Date(timeIntervalSince1970: Self.second + 0.625))
        try Self.revoke(localID, test)
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.75))
        #expect(try test.tokens.consoleSessionAccount(session) == nil, "signed 125 ms before the revocation")
        #expect(try test.claims(of: cookie)["firebase"]?[TokenService.issuedAtMillisClaim] == .integer(Int64(Self.second) * 1000 + 500),
                "the cookie says it was signed before the revocation, for verifiers that compare milliseconds")
        // The ID token of that second cannot be exchanged after the revocation, though its iat is the revocation's second.
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil) } == .tokenExpired)
        #expect(wireErrorCode { _ = try test.tokens.mintConsoleSession(idToken: idToken, lifetime: 3600) } == .tokenExpired)
        #expect(try test.tokens.authenticate(idToken: idToken).account.localID == localID, "ID tokens: whole seconds, as Firebase")

        // A sign-in after the revocation, still in its second, gets both.
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.875))
        let after = try #require(try test.signIn(subject: "revoked").idToken)
        _ = try test.tokens.mintSessionCookie(idToken: after, validDuration: nil)
        #expect(try test.tokens.consoleSessionAccount(try test.tokens.mintConsoleSession(idToken: after, lifetime: 3600))?.localID == localID)
    }

    @Test("a cookie and a console session made in the millisecond of sign-up are valid (validSince is the creation time)")
    func sameSecondAsSignUp() throws {
        let test = try TestPlatform()
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.75))
        let signIn = try test.signIn(subject: "new", email: "new@example.com")
        let account = try #require(try test.store.read { try $0.account(localID: signIn.localId!) })
        #expect(account.validSinceMillis == test.time.nowMillis)
        let idToken = try #require(signIn.idToken)
        _ = try test.tokens.mintSessionCookie(idToken: idToken, validDuration: nil)
        let session = try test.tokens.mintConsoleSession(idToken: idToken, lifetime: 3600)
        #expect(try test.tokens.consoleSessionAccount(session)?.localID == signIn.localId)
    }

    @Test("an ID token without the millisecond claim (signed before Hearth wrote it) counts from the start of its second")
    func idTokenWithoutMilliseconds() throws {
        let test = try TestPlatform()
        test.time.set(Date(timeIntervalSince1970: Self.second - 5))
        let localID = try #require(try test.signIn(subject: "legacy").localId)
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.5))
        var claims = try test.claims(of: try #require(try test.signIn(subject: "legacy").idToken))
        var firebase = try #require(claims["firebase"]?.objectValue)
        firebase[TokenService.issuedAtMillisClaim] = nil
        claims["firebase"] = .object(firebase)
        let legacy = try test.platform.sessionKeys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
        _ = try test.tokens.mintSessionCookie(idToken: legacy, validDuration: nil)
        test.time.set(Date(timeIntervalSince1970: Self.second + 0.75))
        try Self.revoke(localID, test)
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: legacy, validDuration: nil) } == .tokenExpired)
    }
}
