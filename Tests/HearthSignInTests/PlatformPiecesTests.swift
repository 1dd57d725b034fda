import Foundation
import HearthCrypto
import HearthProtocol
import JOSE
import Testing
@testable import HearthSignIn

/// The Foundation-only pieces the Apple RS256 path is built from, checked here against OpenSSL.
@Suite("Platform pieces")
struct PlatformPiecesTests {
    @Test("PKCS #1 DER of an RSA public key parses back to the same numbers")
    func rsaPublicKeyDER() throws {
        let key = TestKeys.signing.publicKey
        let der = RSAPublicKeyDER.pkcs1(modulus: key.modulus, exponent: key.exponent)
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let pem = "-----BEGIN RSA PUBLIC KEY-----\n\(base64)\n-----END RSA PUBLIC KEY-----\n"
        let parsed = try RSAPublicKey(pemRepresentation: pem)
        #expect(parsed == key)
        #expect(Array(der.prefix(4)) == [0x30, 0x82, 0x01, 0x0A], "SEQUENCE, two-byte length 266 for 2048 bits")
    }

    @Test("compact JWT parsing and JWKS key lookup agree with the signer")
    func compactJWTAndKeyLookup() throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let token = provider.sign(["sub": "1"])
        let jwt = try CompactJWT.parse(token)
        #expect(jwt.algorithm == "RS256")
        #expect(jwt.keyID == TestKeys.keyID)
        #expect(try JSONValue(parsing: jwt.payload) == ["sub": "1"])
        #expect(TestKeys.signing.publicKey.isValidSHA256Signature(Array(jwt.signature), for: Array(jwt.signingInput.utf8)))

        let keySet = TestProvider.keySet([(TestKeys.other, "a"), (TestKeys.signing, TestKeys.keyID)])
        let key = try JWKSDocument.rsaKey(for: jwt, in: keySet)
        #expect(key.modulus == TestKeys.signing.publicKey.modulus)
        #expect(key.exponent == [1, 0, 1])
        #expect(throws: IDTokenSignatureError.unknownKeyID("no key has kid \"test-key-1\"")) {
            try JWKSDocument.rsaKey(for: jwt, in: TestProvider.keySet([(TestKeys.other, "a")]))
        }
    }

    @Test("compact JWT parsing refuses alg none, a missing kid, and malformed tokens")
    func compactJWTRefusals() {
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"k"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + ".c2ln"
        let noKid = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + ".c2ln"
        for token in [none, noKid, "a.b", "a..c", "###.###.###"] {
            #expect(throws: IDTokenSignatureError.self) { try CompactJWT.parse(token) }
        }
    }

    @Test("the platform verifier separates unknown keys from bad signatures")
    func platformVerifier() throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let verifier = PlatformIDTokenSignatureVerifier()
        let keys = TestProvider.keySet([(TestKeys.signing, TestKeys.keyID)])
        let payload = try verifier.verify(provider.sign(["sub": "1"]), jwks: keys)
        #expect(try JSONValue(parsing: payload) == ["sub": "1"])
        #expect(throws: IDTokenSignatureError.self) { try verifier.verify(provider.sign(["sub": "1"], keyID: "other"), jwks: keys) }
        do {
            _ = try verifier.verify(provider.sign(["sub": "1"], keyID: "other"), jwks: keys)
        } catch let error as IDTokenSignatureError {
            guard case .unknownKeyID = error else { Issue.record("expected unknownKeyID, got \(error)"); return }
        }
        do {
            _ = try verifier.verify(provider.sign(["sub": "1"], key: TestKeys.other), jwks: keys)
            Issue.record("a token signed by another key verified")
        } catch let error as IDTokenSignatureError {
            guard case .invalid = error else { Issue.record("expected invalid, got \(error)"); return }
        }
    }

    @Test("base64url and random tokens")
    func base64AndRandom() {
        #expect(Base64URLText.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URLText.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URLText.decode("-_8=") == nil)
        #expect(Base64URLText.decode("a") == nil)
        let token = RandomToken.make()
        #expect(token.count == 43 && Base64URLText.decode(token)?.count == 32)
        #expect(Digest.codeChallenge(forVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "RFC 7636 Appendix B")
    }

    @Test("discovery: an https issuer's endpoints must be https; an http dev issuer may use http")
    func discoverySchemes() throws {
        func document(_ issuer: String, token: String) -> Data {
            JSONValue.object([
                "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/auth"),
                "token_endpoint": .string(token), "jwks_uri": .string(issuer + "/certs"),
            ]).jsonData()
        }
        #expect(throws: SignInError.self) {
            try ProviderMetadata(document: document("https://a.test", token: "http://a.test/token"), expectedIssuer: "https://a.test")
        }
        let dev = try ProviderMetadata(
            document: document("http://127.0.0.1:9/dev", token: "http://127.0.0.1:9/dev/token"), expectedIssuer: "http://127.0.0.1:9/dev")
        #expect(dev.tokenEndpoint.absoluteString == "http://127.0.0.1:9/dev/token")
        #expect(dev.revocationEndpoint == nil && dev.userinfoEndpoint == nil)
        #expect(throws: SignInError.self) {
            try ProviderMetadata(document: Data("[]".utf8), expectedIssuer: "https://a.test")
        }
        #expect(ProviderMetadata.discoveryURL(issuer: "https://a.test/")?.absoluteString == "https://a.test/.well-known/openid-configuration")
    }

    @Test("authorization responses: repeated parameters are dropped, redirect URIs match ignoring the query")
    func responseParsing() {
        #expect(AuthorizationResponse.parameters(query: "code=a&state=s&state=t") == ["code": "a"])
        let redirect = "http://127.0.0.1:5000/oauth2callback"
        #expect(AuthorizationResponse.matches(URL(string: "http://127.0.0.1:5000/oauth2callback?x=1")!, redirectURI: redirect))
        #expect(!AuthorizationResponse.matches(URL(string: "http://127.0.0.1:5001/oauth2callback")!, redirectURI: redirect))
        #expect(!AuthorizationResponse.matches(URL(string: "http://localhost:5000/oauth2callback")!, redirectURI: redirect))
        #expect(!AuthorizationResponse.matches(URL(string: "http://127.0.0.1:5000/callback")!, redirectURI: "http://127.0.0.1:5000/callback"))
    }
}
