import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import HearthProviders
import JOSE
import OutboundTesting
import Testing

/// An issuer with a fixed name and key.
struct StaticIssuer: OpenIDIssuer {
    let issuerNames: Set<String>
    let key: RSAPrivateKey
    let keyID = "static-key"

    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        var set = JWTKeySet()
        set.add(key.publicKey, keyID: keyID, algorithm: .rs256)
        return set
    }

    func sign(_ claims: [String: JSONValue]) throws -> String { try Fixture.sign(claims, key: key, keyID: keyID) }
}

/// Answers each URL with its own status and body (`max-age=3600`), anything else with a 404.
func routedHTTP(_ replies: [String: (Int, Data)]) -> FakeOutboundHTTP {
    FakeOutboundHTTP { request in
        let (status, body) = replies[request.url.absoluteString] ?? (404, Data())
        return .answer(status: status, headers: ["Cache-Control": "max-age=3600"], body: body)
    }
}

@Suite("Identity provider registry")
struct IdentityProviderRegistryTests {
    static let acmeIssuer = "https://id.acme.test"
    let time = ManualTimeSource()

    func acmeClaims(subject: String, overrides: [String: JSONValue] = [:]) -> [String: JSONValue] {
        let now = time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": .string(Self.acmeIssuer), "aud": "acme-client", "sub": .string(subject), "iat": .integer(now),
            "exp": .integer(now + 300), "email": "wile@acme.test", "email_verified": "true", "name": "Wile E.",
            "given_name": "Wile", "family_name": "Coyote", "picture": "https://acme.test/w.png",
        ]
        for (key, value) in overrides { claims[key] = value }
        return claims
    }

    func registry(acme: StaticIssuer, google: FakeGoogle) -> IdentityProviderRegistry {
        IdentityProviderRegistry(
            providers: [
                .google(issuers: [google], clientIDs: [FakeGoogle.clientID]),
                .apple(issuers: [], clientIDs: []),
                .openID(id: "oidc.acme", issuer: acme, clientIDs: ["acme-client", "acme-web"]),
            ], time: time)
    }

    @Test("unknown and unconfigured provider IDs are OPERATION_NOT_ALLOWED; a provider without client IDs is not enabled")
    func unknownProviders() throws {
        let acme = StaticIssuer(issuerNames: [Self.acmeIssuer], key: try Fixture.otherKey())
        let registry = registry(acme: acme, google: try FakeGoogle(time: time))
        #expect(registry.providerIDs == ["google.com", "oidc.acme"])
        let token = try acme.sign(acmeClaims(subject: "u"))
        for providerID in ["apple.com", "facebook.com", "oidc.other", "OIDC.acme", ""] {
            let code = wireErrorCode { _ = try registry.verify(IdpCredential(idToken: token), providerID: providerID, clientAddress: nil) }
            #expect(code == .operationNotAllowed, "\(providerID)")
        }
        let test = try TestPlatform()
        let request = SignInWithIdpRequest(
            requestUri: "http://localhost", postBody: "providerId=oidc.acme&id_token=\(token)", returnSecureToken: true)
        #expect(wireErrorCode { _ = try test.accounts.signInWithIdp(request, by: .user(client: nil)) } == .operationNotAllowed)
    }

    @Test("an oidc.* provider: standard claims, federatedId and rawUserInfo as the emulator answers, and a code sent beside the ID token kept")
    func openIDProfile() throws {
        let acme = StaticIssuer(issuerNames: [Self.acmeIssuer], key: try Fixture.otherKey())
        let registry = registry(acme: acme, google: try FakeGoogle(time: time))
        let claims = acmeClaims(subject: "acme-42", overrides: ["aud": ["someone-else", "acme-web"]])
        let credential = IdpCredential(idToken: try acme.sign(claims), authorizationCode: "code-1")
        let profile = try registry.verify(credential, providerID: "oidc.acme", clientAddress: nil)
        #expect(profile == FederatedProfile(
            providerID: "oidc.acme", rawID: "acme-42", federatedID: "acme-42", email: "wile@acme.test", emailVerified: true,
            displayName: "Wile E.", givenName: "Wile", familyName: "Coyote", photoURL: "https://acme.test/w.png",
            rawUserInfo: claims, clientID: "acme-web", authorizationCode: "code-1"))
    }

    @Test("each provider trusts only its own issuers and audiences")
    func issuersAreScoped() throws {
        let google = try FakeGoogle(time: time)
        let acme = StaticIssuer(issuerNames: [Self.acmeIssuer], key: try Fixture.otherKey())
        let registry = registry(acme: acme, google: google)
        let cases: [(String, String, String)] = [
            ("a Google token as oidc.acme", try google.idToken(subject: "g"), "oidc.acme"),
            ("an acme token as google.com", try acme.sign(acmeClaims(subject: "a")), "google.com"),
            ("acme's key signing a Google issuer", try acme.sign(acmeClaims(subject: "a", overrides: ["iss": "https://accounts.google.com", "aud": .string(FakeGoogle.clientID)])), "google.com"),
            ("Google's client ID as acme's audience", try acme.sign(acmeClaims(subject: "a", overrides: ["aud": .string(FakeGoogle.clientID)])), "oidc.acme"),
        ]
        for (name, token, providerID) in cases {
            let code = wireErrorCode { _ = try registry.verify(IdpCredential(idToken: token), providerID: providerID, clientAddress: nil) }
            #expect(code == .invalidIdpResponse, "\(name)")
        }
    }

    @Test("oidc.* nonce: checked when the request has one (raw or SHA-256 in the token), like Google")
    func openIDNonce() throws {
        let acme = StaticIssuer(issuerNames: [Self.acmeIssuer], key: try Fixture.otherKey())
        let registry = registry(acme: acme, google: try FakeGoogle(time: time))
        func verify(_ claimed: JSONValue?, _ nonce: String?) -> ErrorCode? {
            wireErrorCode {
                let claims = acmeClaims(subject: "n", overrides: claimed.map { ["nonce": $0] } ?? [:])
                _ = try registry.verify(IdpCredential(idToken: try acme.sign(claims), nonce: nonce), providerID: "oidc.acme", clientAddress: nil)
            }
        }
        #expect(verify("n-1", "n-1") == nil)
        #expect(verify(.string(Fixture.sha256Hex("n-1")), "n-1") == nil)
        #expect(verify("n-1", nil) == nil)
        #expect(verify(nil, "n-1") == .missingOrInvalidNonce)
        #expect(verify("n-2", "n-1") == .missingOrInvalidNonce)
    }

    @Test("Apple's nonce and audience rules hold in the registry itself, and Apple takes no access token alone")
    func appleEntry() throws {
        let apple = try FakeApple(time: time)
        let registry = IdentityProviderRegistry(
            providers: [.apple(issuers: [apple], clientIDs: [FakeApple.clientID, "com.example.web"])], time: time)
        let profile = try registry.verify(
            IdpCredential(idToken: try apple.idToken(apple.claims(subject: "s", rawNonce: "r")), nonce: "r", authorizationCode: "c-1"),
            providerID: "apple.com", clientAddress: nil)
        #expect(profile.clientID == FakeApple.clientID && profile.authorizationCode == "c-1")
        #expect(wireErrorCode {
            _ = try registry.verify(IdpCredential(accessToken: "at"), providerID: "apple.com", clientAddress: nil)
        } == .invalidIdpResponse)
    }

    @Test("discovery: the JWKS is found through <issuer>/.well-known/openid-configuration, read once")
    func discovery() throws {
        let key = try Fixture.otherKey()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: "static-key")]))
        let document = { (issuer: String) in
            JSONValue.object(["issuer": .string(issuer), "jwks_uri": "https://id.acme.test/keys"]).jsonData()
        }
        let fetcher = routedHTTP([
            "https://id.acme.test/.well-known/openid-configuration": (200, document(Self.acmeIssuer)),
            "https://id.acme.test/keys": (200, jwks),
        ])
        let issuer = RemoteOpenIDIssuer(
            issuerNames: [Self.acmeIssuer], keys: .discovery(issuer: Self.acmeIssuer), http: fetcher, time: time)
        let registry = IdentityProviderRegistry(
            providers: [.openID(id: "oidc.acme", issuer: issuer, clientIDs: ["acme-client"])], time: time)
        let signer = StaticIssuer(issuerNames: [Self.acmeIssuer], key: key)
        for subject in ["d-1", "d-2"] {
            let token = try signer.sign(acmeClaims(subject: subject))
            #expect(try registry.verify(IdpCredential(idToken: token), providerID: "oidc.acme", clientAddress: nil).rawID == subject)
        }
        #expect(fetcher.count("https://id.acme.test/.well-known/openid-configuration") == 1)
        #expect(fetcher.count("https://id.acme.test/keys") == 1)

    }

    @Test("a discovery document naming another issuer, or keys over plain http for an https issuer, is not trusted, and not asked again at once", arguments: [
        ("https://evil.test", "https://id.acme.test/keys"), (IdentityProviderRegistryTests.acmeIssuer, "http://id.acme.test/keys"),
    ])
    func untrustedDiscovery(issuer: String, keys: String) throws {
        let key = try Fixture.otherKey()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: "static-key")]))
        let document = JSONValue.object(["issuer": .string(issuer), "jwks_uri": .string(keys)]).jsonData()
        let fetcher = routedHTTP([
            "https://id.acme.test/.well-known/openid-configuration": (200, document), keys: (200, jwks),
        ])
        let misled = RemoteOpenIDIssuer(
            issuerNames: [Self.acmeIssuer], keys: .discovery(issuer: Self.acmeIssuer), http: fetcher, time: time)
        for _ in 0..<3 {
            #expect(wireErrorCode { _ = try misled.verificationKeys(forceRefresh: false) } == .invalidIdpResponse)
        }
        #expect(fetcher.count("https://id.acme.test/.well-known/openid-configuration") == 1)
        #expect(fetcher.count(keys) == 0)
    }
}
