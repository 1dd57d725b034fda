import Foundation
import HearthCrypto
import HearthProtocol
import HearthVerify
import JOSE
import OutboundTesting
import Testing

@testable import HearthAdmin

@Suite("Tokens")
struct TokenTests {
    let harness = Harness()

    // MARK: - Custom tokens

    @Test("a service account's custom token is RS256 with its kid, and carries Firebase's claim set")
    func signedCustomToken() async throws {
        let token = try await harness.auth(try harness.serviceAccount()).createCustomToken(uid: "uid-7", claims: ["premium": true])
        var keys = JWTKeySet()
        keys.add(Fixture.accountKey.publicKey, keyID: "sa-key-1")
        let verified = try keys.verify(token)
        #expect(verified.header == JWSHeader(alg: "RS256", kid: "sa-key-1", typ: "JWT"))
        #expect(try JSONValue(parsing: verified.payload) == [
            "iss": .string(Fixture.clientEmail), "sub": .string(Fixture.clientEmail),
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "uid": "uid-7", "iat": 1_800_000_000, "exp": 1_800_003_600, "claims": ["premium": true],
        ])
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("in development the custom token is unsigned, as firebase-admin makes it for the emulator")
    func unsignedCustomToken() async throws {
        let token = try await harness.auth().createCustomToken(uid: "uid-7")
        #expect(token.hasSuffix("."))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"none","typ":"JWT"}"#)
        let payload = try #require(Base64URL.decode(parts[1]))
        #expect(try JSONValue(parsing: payload) == [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "uid": "uid-7", "iat": 1_800_000_000, "exp": 1_800_003_600,
        ])
    }

    @Test("custom tokens refuse a bad uid and reserved claim names")
    func customTokenRules() async {
        let auth = harness.auth()
        #expect(await adminError { try await auth.createCustomToken(uid: "") }?.code == .invalidUID)
        #expect(await adminError { try await auth.createCustomToken(uid: String(repeating: "x", count: 129)) }?.code == .invalidUID)
        #expect(await adminError { try await auth.createCustomToken(uid: "u", claims: ["aud": "x"]) }?.code == .forbiddenClaim)
    }

    // MARK: - ID tokens

    @Test("a valid ID token verifies locally, without an admin call")
    func verifiesLocally() async throws {
        let verified = try await harness.auth().verifyIDToken(Fixture.token(uid: "uid-1"))
        #expect(verified.uid == "uid-1")
        #expect(verified.signInProvider == "google.com")
        #expect(harness.transport.requests.isEmpty)
        #expect(harness.jwks.count == 1)
    }

    @Test("an expired ID token is idTokenExpired; one with another issuer or a forged signature is invalidIDToken")
    func refusedTokens() async {
        let auth = harness.auth()
        let expired = Fixture.token(issuedAt: Fixture.start.addingTimeInterval(-7200))
        #expect(await adminError { try await auth.verifyIDToken(expired) }?.code == .idTokenExpired)
        let hearthIssuer = Fixture.token(issuer: "http://127.0.0.1:9099/demo-hearth")
        let wrongIssuer = await adminError { try await auth.verifyIDToken(hearthIssuer) }
        #expect(wrongIssuer?.code == .invalidIDToken)
        #expect(wrongIssuer?.message.contains("iss") == true)
        var forged = Fixture.token()
        forged.removeLast(4)
        forged += "AAAA"
        #expect(await adminError { try await auth.verifyIDToken(forged) }?.code == .invalidIDToken)
        #expect(await adminError { try await auth.verifyIDToken("") }?.code == .invalidIDToken)
    }

    @Test("idTokenIssuer selects Hearth's own issuer")
    func customIssuer() async throws {
        let auth = AdminAuth(
            serverURL: Fixture.serverURL, projectID: Fixture.projectID, credential: .owner,
            idTokenIssuer: "http://127.0.0.1:9099/demo-hearth", transport: harness.transport, jwksHTTP: harness.jwks,
            clock: { Fixture.start })
        let verified = try await auth.verifyIDToken(Fixture.token(issuer: "http://127.0.0.1:9099/demo-hearth"))
        #expect(verified.uid == "uid-1")
    }

    @Test("checkRevoked looks the user up and accepts a token issued at or after validSince")
    func checkRevokedAccepts() async throws {
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["validSince": "1800000000"]))
        let verified = try await harness.auth().verifyIDToken(Fixture.token(), checkRevoked: true)
        #expect(verified.uid == "uid-1")
        #expect(harness.transport.requests.first?.json == ["localId": ["uid-1"]])
    }

    @Test("checkRevoked refuses a token issued before validSince")
    func checkRevokedRevoked() async {
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["validSince": "1800000001"]))
        let error = await adminError { try await harness.auth().verifyIDToken(Fixture.token(), checkRevoked: true) }
        #expect(error?.code == .idTokenRevoked)
    }

    @Test("checkRevoked refuses a disabled or deleted user")
    func checkRevokedUser() async {
        let auth = harness.auth()
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["disabled": true]))
        #expect(await adminError { try await auth.verifyIDToken(Fixture.token(), checkRevoked: true) }?.code == .userDisabled)
        harness.transport.enqueue("accounts:lookup", json: ["kind": "identitytoolkit#GetAccountInfoResponse"])
        #expect(await adminError { try await auth.verifyIDToken(Fixture.token(), checkRevoked: true) }?.code == .userNotFound)
    }

    // MARK: - Session cookies

    @Test("a session cookie verifies with the session issuer; an ID token is not a session cookie")
    func sessionCookies() async throws {
        let auth = harness.auth()
        let cookie = Fixture.token(issuer: "https://session.firebase.google.com/demo-hearth", lifetime: 86_400)
        #expect(try await auth.verifySessionCookie(cookie).uid == "uid-1")
        #expect(await adminError { try await auth.verifySessionCookie(Fixture.token()) }?.code == .invalidSessionCookie)
        #expect(await adminError { try await auth.verifyIDToken(cookie) }?.code == .invalidIDToken)
        let expired = Fixture.token(
            issuer: "https://session.firebase.google.com/demo-hearth", issuedAt: Fixture.start.addingTimeInterval(-1000), lifetime: 300)
        #expect(await adminError { try await auth.verifySessionCookie(expired) }?.code == .sessionCookieExpired)
    }

    @Test("verifySessionCookie with checkRevoked refuses a cookie issued before validSince")
    func sessionCookieRevoked() async {
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["validSince": "1800000001"]))
        let cookie = Fixture.token(issuer: "https://session.firebase.google.com/demo-hearth")
        let error = await adminError { try await harness.auth().verifySessionCookie(cookie, checkRevoked: true) }
        #expect(error?.code == .sessionCookieRevoked)
    }

    /// A session cookie as Hearth signs it, saying the millisecond it was signed (`firebase.hearth_issued_at_ms`).
    static func hearthCookie(signedAtMillis: Int64, issuer: String = "https://session.firebase.google.com/demo-hearth",
                             audience: String = "demo-hearth") -> String {
        let iat = signedAtMillis / 1000
        let claims: JSONValue = [
            "iss": .string(issuer), "aud": .string(audience), "sub": "uid-1", "user_id": "uid-1",
            "iat": .integer(iat), "exp": .integer(iat + 3600), "auth_time": .integer(iat - 100),
            "firebase": ["sign_in_provider": "google.com", "identities": [:], "hearth_issued_at_ms": .integer(signedAtMillis)],
        ]
        return try! Fixture.hearthSigner.sign(payload: claims.jsonData(sortedKeys: true))
    }

    @Test("verifySessionCookie with checkRevoked compares Hearth's cookies in milliseconds: signed in the second of a revocation, before it, is revoked; after it is not; without the milliseconds, whole seconds")
    func sessionCookieRevokedToTheMillisecond() async throws {
        let auth = harness.auth()
        let second = Int64(Fixture.start.timeIntervalSince1970) * 1000
        let revokedAt: [String: JSONValue] = ["validSince": .string(String(second / 1000)), "validSinceMillis": .string(String(second + 600))]
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(revokedAt))
        let before = await adminError { try await auth.verifySessionCookie(Self.hearthCookie(signedAtMillis: second + 400), checkRevoked: true) }
        #expect(before?.code == .sessionCookieRevoked)
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(revokedAt))
        #expect(try await auth.verifySessionCookie(Self.hearthCookie(signedAtMillis: second + 600), checkRevoked: true).uid == "uid-1")
        // A server that does not say validSinceMillis, or a cookie that does not say its millisecond: seconds.
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["validSince": .string(String(second / 1000))]))
        #expect(try await auth.verifySessionCookie(Self.hearthCookie(signedAtMillis: second + 400), checkRevoked: true).uid == "uid-1")
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(revokedAt))
        let plain = Fixture.token(issuer: "https://session.firebase.google.com/demo-hearth")
        #expect(try await auth.verifySessionCookie(plain, checkRevoked: true).uid == "uid-1")
        // ID tokens keep whole seconds, as firebase-admin and Hearth's own lookups compare them.
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(revokedAt))
        #expect(try await auth.verifyIDToken(Fixture.token(), checkRevoked: true).uid == "uid-1")
    }

    @Test("a console session (its own issuer and audience) is neither a session cookie nor an ID token")
    func consoleSessionIsNotACookie() async {
        let auth = harness.auth()
        let millis = Int64(Fixture.start.timeIntervalSince1970) * 1000
        for console in [
            Self.hearthCookie(signedAtMillis: millis, issuer: "hearth:console-session", audience: "hearth:console:demo-hearth"),
            Self.hearthCookie(signedAtMillis: millis, audience: "hearth:console:demo-hearth"),
        ] {
            #expect(await adminError { try await auth.verifySessionCookie(console) }?.code == .invalidSessionCookie)
            #expect(await adminError { try await auth.verifyIDToken(console) }?.code == .invalidIDToken)
        }
    }
}
