import Foundation
import HearthCore
import HearthDevProviders
import HearthProtocol
import JOSE
import Testing

/// Correctly signed tokens whose times are not whole seconds between 1970 and 9999 are refused, never a trap.
@Suite("Numeric claims on signed input")
struct GoogleNumericClaimsTests {
    /// `exp`/`iat` values that once trapped (integer conversion, `exp + 300`) or that no real token carries.
    static let hostile: [(claim: String, value: JSONValue)] = [
        ("exp", .double(1e20)), ("exp", .integer(Int64.max)), ("exp", .double(1e300)), ("exp", .integer(Int64.min)),
        ("exp", .double(-1e300)), ("exp", .double(9.3e18)), ("exp", .double(1.5)), ("exp", .integer(253_402_300_800)),
        ("iat", .integer(Int64.min)), ("iat", .integer(Int64.max)), ("iat", .double(-1e300)), ("iat", .double(1e300)),
        ("iat", .double(-9.3e18)), ("iat", .integer(-1)), ("exp", .string("2000000000")), ("iat", .bool(true)),
    ]

    @Test("Google ID tokens: INVALID_IDP_RESPONSE, and the verifier keeps working", arguments: hostile)
    func googleIDToken(claim: String, value: JSONValue) throws {
        let test = try TestPlatform()
        let token = try test.google.idToken(subject: "g-num", overrides: [claim: value])
        let code = wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: token), by: .user(client: nil)) }
        #expect(code == .invalidIdpResponse)
        #expect(try test.signIn(subject: "g-ok").isNewUser == true)
    }

    @Test("whole seconds written as a double are accepted")
    func integralDouble() throws {
        let test = try TestPlatform()
        let now = Double(test.time.nowSeconds)
        let token = try test.google.idToken(
            subject: "g-double", overrides: ["iat": .double(now), "exp": .double(now + 3600)])
        #expect(try test.accounts.signInWithIdp(test.signInRequest(idToken: token), by: .user(client: nil)).isNewUser == true)
    }

    @Test("Hearth ID tokens (TokenService.authenticate): INVALID_ID_TOKEN", arguments: hostile)
    func sessionToken(claim: String, value: JSONValue) throws {
        let test = try TestPlatform()
        let signIn = try test.signIn(subject: "g-session")
        var claims = try test.claims(of: try #require(signIn.idToken))
        claims[claim] = value
        let forged = try test.platform.sessionKeys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: forged) } == .invalidIDToken)
        #expect(try test.tokens.authenticate(idToken: signIn.idToken).account.localID == signIn.localId)
    }

    @Test("dev IdP tokeninfo for ID tokens: invalid_token", arguments: hostile)
    func devIdPTokenInfo(claim: String, value: JSONValue) throws {
        let test = try TestPlatform(dev: true)
        let dev = try #require(test.devIdentityProvider)
        let keys = SigningKeyRing(store: test.store, time: test.time, owner: .devIdentityProvider, tokenLifetime: 3600)
        let now = test.time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": "http://hearth.test/dev/google", "aud": "hearth-dev.apps.googleusercontent.com", "sub": "d-1",
            "iat": .integer(now), "exp": .integer(now + 3600),
        ]
        let valid = try keys.loadOrCreate().signer.sign(payload: JSONValue.object(claims).jsonData())
        #expect(try dev.tokenInfo(accessToken: nil, idToken: valid)["sub"] == "d-1")
        claims[claim] = value
        let hostile = try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
        if claim == "exp" {
            #expect(throws: OAuthError("invalid_token", "")) {
                _ = try dev.tokenInfo(accessToken: nil, idToken: hostile)
            }
        }
        // Through signInWithIdp the dev IdP is a Google issuer like any other.
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(test.signInRequest(idToken: hostile), by: .user(client: nil)) } == .invalidIdpResponse)
    }
}
