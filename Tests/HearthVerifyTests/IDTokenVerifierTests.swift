import Foundation
import HearthCrypto
import HearthProtocol
import HearthVerify
import JOSE
import OutboundTesting
import Testing

@Suite("IDTokenVerifier: signature and claims")
struct IDTokenVerifierTests {
    let clock = ManualClock()
    let fetcher = FakeOutboundHTTP.jwks()
    let verifier: IDTokenVerifier

    init() {
        verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
    }

    /// Runs `verify` and returns the error's code, or nil when the token was accepted.
    func code(_ token: String, verifier: IDTokenVerifier? = nil) -> VerificationError.Code? {
        do {
            _ = try (verifier ?? self.verifier).verify(token)
            return nil
        } catch {
            return error.code
        }
    }

    func code(claims overrides: [String: Any?]) -> VerificationError.Code? {
        code(Fixtures.token(claims: Fixtures.claims(overrides)))
    }

    @Test("a valid Hearth ID token verifies and exposes its claims")
    func validToken() throws {
        let claims = Fixtures.claims([
            "role": "admin",
            "firebase": ["sign_in_provider": "password", "sign_in_second_factor": "totp"] as [String: Any],
        ])
        let token = Fixtures.token(claims: claims)
        let verified = try verifier.verify(token)
        let seconds = Fixtures.start.timeIntervalSince1970
        #expect(verified.uid == "uid-123")
        #expect(verified.email == "ada@example.com")
        #expect(verified.emailVerified)
        #expect(verified.signInProvider == "password")
        #expect(verified.signInSecondFactor == "totp")
        #expect(verified.issuedAt == Date(timeIntervalSince1970: seconds - 10))
        #expect(verified.expiresAt == Date(timeIntervalSince1970: seconds + 3590))
        #expect(verified.authTime == Date(timeIntervalSince1970: seconds - 100))
        #expect(verified.claims["role"] == "admin")
        #expect(verified.claims["sub"] == "uid-123")
        #expect(verified.claims["email_verified"] == true)
        #expect(verified.claims["exp"] == .integer(Int64(seconds) + 3590))
        #expect(verified.claims["firebase"]?["sign_in_second_factor"] == "totp")
        #expect(verified.claims.count == claims.count)
        #expect(fetcher.requests.map(\.url) == [Fixtures.jwksURL])
        // Equal tokens verify to equal values; a different token does not.
        #expect(try verifier.verify(token) == verified)
        #expect(try verifier.verify(Fixtures.token()) != verified)
    }

    @Test("optional profile claims may be absent")
    func minimalToken() throws {
        let verified = try verifier.verify(
            Fixtures.token(claims: Fixtures.claims(["email": nil, "email_verified": nil, "firebase": nil, "name": nil])))
        #expect(verified.email == nil)
        #expect(!verified.emailVerified)
        #expect(verified.signInProvider == nil)
        #expect(verified.signInSecondFactor == nil)
    }

    @Test("the async variant verifies, and fetches keys off the cooperative pool")
    func asyncVerify() async throws {
        let token = Fixtures.token()
        let verified: VerifiedToken = try await verifier.verify(token)
        #expect(verified.uid == "uid-123")
        await #expect(throws: VerificationError(.invalidSignature, reason: "")) {
            _ = try await verifier.verify(Fixtures.token(key: Fixtures.outsiderKey))
        }
        #expect(fetcher.count == 1)
    }

    @Test("an empty token is missingToken")
    func missingToken() {
        #expect(code("") == .missingToken)
    }

    @Test(
        "tokens that are not a compact JWS are malformedToken",
        arguments: [
            "abc", "a.b", "a.b.c.d", "..", "eyJhbGciOiJSUzI1NiJ9..c2ln", "!!!.eyJ9.c2ln", "e30=.e30.c2ln",
            Base64URL.encode(Array("not json".utf8)) + ".e30.c2ln",
        ])
    func malformed(token: String) {
        #expect(code(token) == .malformedToken)
    }

    @Test("a token longer than 16 KiB is refused before parsing")
    func oversized() {
        let token = Fixtures.token(claims: Fixtures.claims(["padding": String(repeating: "x", count: 17_000)]))
        #expect(code(token) == .malformedToken)
        #expect(fetcher.count == 0)
    }

    @Test("a signed payload that is not a JSON object, or not valid JSON, is malformedToken")
    func payloadNotObject() {
        #expect(code(Fixtures.token(payload: Data("[1,2]".utf8))) == .malformedToken)
        #expect(code(Fixtures.token(payload: Data("{\"sub\":}".utf8))) == .malformedToken)
    }

    @Test("alg none is refused, in any case, even with a known kid")
    func algNone() {
        let payload = try! JSONSerialization.data(withJSONObject: Fixtures.claims())
        for alg in ["none", "None", "NONE"] {
            let unsigned = Fixtures.token(header: ["alg": alg], payload: payload, key: nil)
            #expect(code(unsigned) == .unsupportedAlgorithm)
            let signed = Fixtures.token(header: ["alg": alg], payload: payload)
            #expect(code(signed) == .unsupportedAlgorithm)
        }
    }

    @Test("an HS256 header is refused, with a known kid and with an unknown one (which causes no refetch)")
    func hmacHeader() throws {
        let payload = try JSONSerialization.data(withJSONObject: Fixtures.claims())
        // An HMAC "signature" keyed with the public key's bytes: the classic algorithm-confusion forgery.
        let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"key-a","typ":"JWT"}"#.utf8))
        let input = header + "." + Base64URL.encode(payload)
        let mac = HMAC.sha256(key: Array(Fixtures.keyA.publicKey.pemRepresentation.utf8), message: Array(input.utf8))
        #expect(code(input + "." + Base64URL.encode(mac)) == .unsupportedAlgorithm)

        let unknown = Fixtures.token(header: ["alg": "HS256", "kid": "key-zz"], payload: payload)
        #expect(code(unknown) == .unsupportedAlgorithm)
        #expect(fetcher.count == 1)
    }

    @Test("an RS256 key is not used for another RSA algorithm")
    func otherRSAAlgorithm() throws {
        let payload = try JSONSerialization.data(withJSONObject: Fixtures.claims())
        #expect(code(Fixtures.token(header: ["alg": "RS384"], payload: payload)) == .unsupportedAlgorithm)
        #expect(code(Fixtures.token(header: ["alg": "PS256"], payload: payload)) == .unsupportedAlgorithm)
        #expect(code(Fixtures.token(header: ["alg": "XS999"], payload: payload)) == .unsupportedAlgorithm)
    }

    @Test("a token without kid, or with an empty one, is missingKeyID")
    func missingKeyID() {
        #expect(code(Fixtures.token(kid: nil)) == .missingKeyID)
        #expect(code(Fixtures.token(kid: "")) == .missingKeyID)
    }

    @Test("a tampered payload or signature is invalidSignature")
    func tampered() {
        let token = Fixtures.token()
        let parts = token.split(separator: ".").map(String.init)
        let forgedClaims = Fixtures.claims(["sub": "someone-else"])
        let forgedPayload = Base64URL.encode(try! JSONSerialization.data(withJSONObject: forgedClaims, options: [.sortedKeys]))
        #expect(code([parts[0], forgedPayload, parts[2]].joined(separator: ".")) == .invalidSignature)

        var signature = Base64URL.decode(parts[2])!
        signature[17] ^= 0x01
        #expect(code([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: ".")) == .invalidSignature)
        #expect(code(parts[0] + "." + parts[1] + ".") == .invalidSignature)
        #expect(code(Fixtures.token(key: Fixtures.outsiderKey)) == .invalidSignature)
    }

    @Test("a tenant check accepts only its tenant's tokens; by default every tenant's and the project's pass")
    func tenantCheck() throws {
        func token(tenant: Any?) -> String {
            var firebase: [String: Any] = ["sign_in_provider": "password"]
            if let tenant { firebase["tenant"] = tenant }
            return Fixtures.token(claims: Fixtures.claims(["firebase": firebase]))
        }
        let acme = token(tenant: "acme-x4k2q")
        let other = token(tenant: "other-a1b2c")
        let project = token(tenant: nil)
        #expect(try verifier.verify(acme).tenantID == "acme-x4k2q")
        #expect(try verifier.verify(project).tenantID == nil)
        #expect(code(other) == nil, "the default accepts any tenant, as firebase-admin's project client")

        let acmeOnly = verifier.requiring(.tenant("acme-x4k2q"))
        #expect(acmeOnly.tenantCheck == .tenant("acme-x4k2q") && verifier.tenantCheck == .any)
        #expect(code(acme, verifier: acmeOnly) == nil)
        #expect(code(other, verifier: acmeOnly) == .wrongTenant)
        #expect(code(project, verifier: acmeOnly) == .wrongTenant)
        #expect(code(token(tenant: 42), verifier: acmeOnly) == .wrongTenant, "a tenant that is not a string is none")
        #expect(code(token(tenant: "ACME-X4K2Q"), verifier: acmeOnly) == .wrongTenant)

        let projectOnly = verifier.requiring(.projectOnly)
        #expect(code(project, verifier: projectOnly) == nil)
        #expect(code(acme, verifier: projectOnly) == .wrongTenant)
        do {
            _ = try acmeOnly.verify(other)
            Issue.record("another tenant's token was accepted")
        } catch {
            #expect(error.reason == #"the token belongs to tenant "other-a1b2c", expected tenant "acme-x4k2q""#)
            #expect(error.httpStatus == 401)
        }
    }

    @Test("the issuer must match exactly")
    func wrongIssuer() {
        #expect(code(claims: ["iss": "https://securetoken.google.com/demo-hearth"]) == .wrongIssuer)
        #expect(code(claims: ["iss": Fixtures.issuer + "/"]) == .wrongIssuer)
        #expect(code(claims: ["iss": nil]) == .missingClaim)
        #expect(code(claims: ["iss": 42]) == .malformedToken)
    }

    @Test("a verifier with several issuer names accepts each, and names them all when refusing another")
    func severalIssuers() throws {
        let firebaseName = "https://securetoken.google.com/demo-hearth"
        let verifier = IDTokenVerifier(
            projectID: Fixtures.projectID, issuers: [Fixtures.issuer, firebaseName], jwksURL: Fixtures.jwksURL,
            http: fetcher, clock: { clock.now })
        #expect(code(Fixtures.token(claims: Fixtures.claims([:])), verifier: verifier) == nil)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["iss": firebaseName])), verifier: verifier) == nil)
        do {
            _ = try verifier.verify(Fixtures.token(claims: Fixtures.claims(["iss": "https://evil.example/demo-hearth"])))
            Issue.record("another issuer was accepted")
        } catch {
            #expect(error.code == .wrongIssuer)
            #expect(error.reason.contains("expected \"\(Fixtures.issuer)\" or \"\(firebaseName)\""), "\(error.reason)")
        }
    }

    @Test("the audience must be the project ID")
    func wrongAudience() {
        #expect(code(claims: ["aud": "other-project"]) == .wrongAudience)
        #expect(code(claims: ["aud": ["other-project"]]) == .wrongAudience)
        #expect(code(claims: ["aud": ["other-project", "demo-hearth"]]) == nil)
        #expect(code(claims: ["aud": nil]) == .missingClaim)
        #expect(code(claims: ["aud": 7]) == .malformedToken)
    }

    @Test("the audience is checked before the issuer, as firebase-admin does")
    func audienceFirst() {
        #expect(code(claims: ["aud": "other-project", "iss": "http://127.0.0.1:9099/other-project"]) == .wrongAudience)
    }

    @Test(
        "sub must be a non-empty string of at most 128 characters",
        arguments: [
            ("", VerificationError.Code.invalidSubject), (String(repeating: "u", count: 129), .invalidSubject),
            (String(repeating: "u", count: 128), nil), ("ü", nil),
        ] as [(String, VerificationError.Code?)])
    func subject(sub: String, expected: VerificationError.Code?) {
        #expect(code(claims: ["sub": sub]) == expected)
    }

    @Test("a sub that is not a string is invalidSubject; a missing one is missingClaim")
    func subjectType() {
        #expect(code(claims: ["sub": 12345]) == .invalidSubject)
        #expect(code(claims: ["sub": NSNull()]) == .invalidSubject)
        #expect(code(claims: ["sub": nil]) == .missingClaim)
    }

    @Test("exp must be later than now minus the clock skew")
    func expiry() {
        let now = Int(Fixtures.start.timeIntervalSince1970)
        #expect(code(claims: ["exp": now - 61]) == .expired)
        #expect(code(claims: ["exp": now - 60]) == .expired)
        #expect(code(claims: ["exp": now - 59]) == nil)
        #expect(code(claims: ["exp": nil]) == .missingClaim)
        #expect(code(claims: ["exp": "tomorrow"]) == .malformedToken)
        let strict = Fixtures.verifier(fetcher: fetcher, clock: clock, clockSkew: 0)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["exp": now]))) == nil)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["exp": now])), verifier: strict) == .expired)
    }

    @Test("a token expires as the clock moves on")
    func expiresWithTime() throws {
        let token = Fixtures.token()
        _ = try verifier.verify(token)
        clock.advance(by: 3590 + 60)
        #expect(code(token) == .expired)
    }

    @Test("iat must not be later than now plus the clock skew")
    func issuedInFuture() {
        let now = Int(Fixtures.start.timeIntervalSince1970)
        #expect(code(claims: ["iat": now + 61]) == .issuedInFuture)
        #expect(code(claims: ["iat": now + 60]) == nil)
        #expect(code(claims: ["iat": nil]) == .missingClaim)
        // NumericDates are whole seconds.
        #expect(code(claims: ["iat": Double(now) + 0.5]) == .malformedToken)
    }

    @Test("nbf, when present, must be reached by now plus the clock skew")
    func notBefore() {
        let now = Int(Fixtures.start.timeIntervalSince1970)
        #expect(code(claims: ["nbf": now + 61]) == .notYetValid)
        #expect(code(claims: ["nbf": now + 60]) == nil)
        #expect(code(claims: ["nbf": "soon"]) == .malformedToken)
    }

    @Test("auth_time is required and must not be later than now plus the clock skew")
    func authTime() {
        let now = Int(Fixtures.start.timeIntervalSince1970)
        #expect(code(claims: ["auth_time": now + 61]) == .authTimeInFuture)
        #expect(code(claims: ["auth_time": now + 60]) == nil)
        #expect(code(claims: ["auth_time": nil]) == .missingClaim)
        #expect(code(claims: ["auth_time": true]) == .malformedToken)
    }

    @Test("informational claims of the wrong type are ignored, not trusted")
    func lenientProfileClaims() throws {
        let verified = try verifier.verify(
            Fixtures.token(claims: Fixtures.claims(["email": 5, "email_verified": "yes", "firebase": "google.com"])))
        #expect(verified.email == nil)
        #expect(!verified.emailVerified)
        #expect(verified.signInProvider == nil)
    }

    @Test("no error description or WWW-Authenticate value contains the token or its parts")
    func errorsNeverContainTheToken() {
        let payload = try! JSONSerialization.data(withJSONObject: Fixtures.claims())
        let tokens = [
            Fixtures.token(claims: Fixtures.claims(["aud": "x"])), Fixtures.token(claims: Fixtures.claims(["exp": 1])),
            Fixtures.token(key: Fixtures.outsiderKey), Fixtures.token(kid: "key-unknown"), Fixtures.token(kid: nil),
            Fixtures.token(header: ["alg": "none"], payload: payload, key: nil), "a.b", Fixtures.token() + "x",
        ]
        for token in tokens {
            do {
                _ = try verifier.verify(token)
                Issue.record("expected a failure")
            } catch {
                let texts = [error.description, error.reason, error.wwwAuthenticateHeader, error.wireError.message]
                for text in texts {
                    #expect(!text.contains(token))
                    for part in token.split(separator: ".") where part.count > 8 {
                        #expect(!text.contains(part), "\(error.code) leaks a token segment")
                    }
                }
            }
        }
    }

    @Test("init(hearthURL:projectID:) takes both issuer names Hearth uses, and Hearth's JWKS path")
    func hearthDefaults() {
        for base in ["http://127.0.0.1:9099", "http://127.0.0.1:9099/"] {
            let verifier = IDTokenVerifier(hearthURL: URL(string: base)!, projectID: "demo-hearth")
            #expect(verifier.issuers == ["http://127.0.0.1:9099/demo-hearth", "https://securetoken.google.com/demo-hearth"])
            #expect(verifier.issuer == "http://127.0.0.1:9099/demo-hearth")
            #expect(verifier.jwksURL.absoluteString == "http://127.0.0.1:9099/.well-known/jwks.json")
            #expect(verifier.projectID == "demo-hearth")
            #expect(verifier.clockSkew == 60)
        }
    }
}
