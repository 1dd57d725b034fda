import Foundation
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthProtocol
import JOSE
import Synchronization

/// A Google stand-in whose signing key the tests hold, so they can mint any token they need.
final class FakeGoogle: GoogleAccessTokenIssuer {
    static let clientID = "test-client.apps.googleusercontent.com"
    let issuerNames: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    let key: RSAPrivateKey
    let keyID = "fake-google-key"
    let time: any TimeSource
    private let accessTokens = Mutex<[String: (AccessTokenInfo, [String: JSONValue])]>([:])
    private let keyFetches = Mutex(0)

    init(time: any TimeSource) throws {
        self.time = time
        key = try FakeGoogle.sharedKey()
    }

    /// One key for the whole test run: RSA generation is slow.
    private static let cachedKey = Mutex<RSAPrivateKey?>(nil)
    static func sharedKey() throws -> RSAPrivateKey {
        try cachedKey.withLock { cached in
            if let cached { return cached }
            let key = try RSAPrivateKey.generate(bits: 2048)
            cached = key
            return key
        }
    }

    var fetchCount: Int { keyFetches.withLock { $0 } }

    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        keyFetches.withLock { $0 += 1 }
        var set = JWTKeySet()
        set.add(key.publicKey, keyID: keyID, algorithm: .rs256)
        return set
    }

    func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? {
        accessTokens.withLock { $0[accessToken]?.0 }
    }

    func userInfo(accessToken: String) throws -> [String: JSONValue] {
        guard let info = accessTokens.withLock({ $0[accessToken]?.1 }) else {
            throw WireError(.invalidIdpResponse, "unknown access token")
        }
        return info
    }

    /// Registers an access token as tokeninfo/userinfo would describe it.
    func addAccessToken(_ token: String, audience: String = FakeGoogle.clientID, subject: String, profile: [String: JSONValue]) {
        var userInfo = profile
        userInfo["sub"] = .string(subject)
        let info = AccessTokenInfo(audience: audience, authorizedParty: audience, subject: subject, expiresIn: 3000, scope: "openid email")
        accessTokens.withLock { $0[token] = (info, userInfo) }
    }

    /// Google-shaped claims for `subject`, with `overrides` applied (a `.null` removes a claim).
    func claims(subject: String, email: String? = nil, emailVerified: Bool = true, name: String? = "Test User",
                overrides: [String: JSONValue] = [:]) -> [String: JSONValue] {
        let now = time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": "https://accounts.google.com", "aud": .string(Self.clientID), "azp": .string(Self.clientID),
            "sub": .string(subject), "iat": .integer(now), "exp": .integer(now + 3600),
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(emailVerified)
        }
        if let name { claims["name"] = .string(name) }
        for (key, value) in overrides {
            if value == .null { claims.removeValue(forKey: key) } else { claims[key] = value }
        }
        return claims
    }

    func idToken(_ claims: [String: JSONValue], keyID: String? = nil) throws -> String {
        try JWTSigner(privateKey: key, keyID: keyID ?? self.keyID).sign(payload: JSONValue.object(claims).jsonData())
    }

    func idToken(subject: String, email: String? = nil, emailVerified: Bool = true, overrides: [String: JSONValue] = [:]) throws -> String {
        try idToken(claims(subject: subject, email: email, emailVerified: emailVerified, overrides: overrides))
    }
}

/// A platform over an in-memory store, a manual clock and `FakeGoogle`.
struct TestPlatform {
    let time = ManualTimeSource()
    let store = InMemoryStore()
    let google: FakeGoogle
    let apple: FakeApple
    let platform: IdentityPlatform
    /// The dev IdP the platform trusts as a Google issuer (`dev: true`).
    let devIdentityProvider: DevIdentityProvider?
    let sms = CapturingSMSSender()
    let passwords: TestPasswordHasher

    static let projectID = "test-project"
    static let issuer = "http://hearth.test/test-project"
    /// Two `oidc.*` providers whose tokens `google` signs: one left untrusted for emails (the default), one trusted.
    static let untrustedOpenID = "oidc.untrusted"
    static let trustedOpenID = "oidc.trusted"

    init(
        dev: Bool = false, mfa: MFAPolicy = .disabled, sessions: SessionPolicy = SessionPolicy(),
        rateLimits: RateLimiter.Rules = RateLimiter.Rules(), acceptsUnsignedCustomTokens: Bool = false,
        passwords: TestPasswordHasher = TestPasswordHasher(), passwordLockouts: PasswordLockouts = PasswordLockouts(),
        emailSender: any EmailSender = UnavailableEmailSender(), emailActions: EmailActionSettings = EmailActionSettings(),
        emailEnumerationProtection: Bool = true, securityEvents: @escaping @Sendable (SecurityEvent) -> Void = { _ in },
        rerunsWriteBodies: Bool = false, audit: AuditLog = AuditLog(), fileConfig: FileDeclaredConfig = FileDeclaredConfig(),
        wrapStore: (any HearthStore) -> any HearthStore = { $0 }
    ) throws {
        self.passwords = passwords
        google = try FakeGoogle(time: time)
        apple = try FakeApple(time: time)
        let project = ProjectConfiguration(
            projectID: Self.projectID, projectNumber: "123", issuer: Self.issuer, apiKeys: .anyNonEmpty,
            googleClientIDs: [FakeGoogle.clientID, "hearth-dev.apps.googleusercontent.com"], mfa: mfa,
            emailEnumerationProtection: emailEnumerationProtection)
        let devConfiguration = dev
            ? DevIdPConfiguration(
                issuer: "http://hearth.test/dev/google",
                clients: [.development(clientID: "hearth-dev.apps.googleusercontent.com")])
            : nil
        var configuration = IdentityPlatform.Configuration(project: project, passwords: passwords)
        configuration.googleIssuers = [google]
        configuration.otherProviders = [
            .apple(issuers: [apple], clientIDs: [FakeApple.clientID]),
            .openID(id: Self.untrustedOpenID, issuer: google, clientIDs: [FakeGoogle.clientID]),
            .openID(id: Self.trustedOpenID, issuer: google, clientIDs: [FakeGoogle.clientID], trustedForEmail: true),
        ]
        // API-made `oidc.*` configurations sign in with `google`'s tokens, for their client ID.
        configuration.makeOpenIDProvider = { [google] record in
            record.clientID.map { IdentityProvider.openID(id: record.id, issuer: google, clientIDs: [$0]) }
        }
        configuration.passwordLockouts = passwordLockouts
        configuration.smsSender = sms
        configuration.rateLimits = rateLimits
        configuration.sessionPolicy = sessions
        configuration.acceptsUnsignedCustomTokens = acceptsUnsignedCustomTokens
        configuration.emailSender = emailSender
        configuration.emailActions = emailActions
        configuration.securityEvents = securityEvents
        configuration.audit = audit
        configuration.fileConfig = fileConfig
        let platformStore = wrapStore(rerunsWriteBodies ? RerunningStore(store) : store)
        let devProviders = try devConfiguration.map { [time] in
            try DevProviders(google: $0, apple: nil, store: platformStore, time: time)
        }
        devProviders?.trust(in: &configuration)
        devIdentityProvider = devProviders?.google
        platform = try IdentityPlatform(configuration, store: platformStore, time: time)
    }

    var accounts: AccountService { platform.accounts }
    var tokens: TokenService { platform.tokens }

    /// The exact request the iOS SDK sends for `GoogleAuthProvider.credential(withIDToken:accessToken:)`.
    func signInRequest(idToken: String?, accessToken: String? = nil, nonce: String? = nil, linking firebaseIDToken: String? = nil,
                       autoCreate: Bool = true, returnIdpCredential: Bool = true, providerID: String = "google.com") -> SignInWithIdpRequest {
        var pairs = [("providerId", providerID)]
        if let idToken { pairs.append(("id_token", idToken)) }
        if let nonce { pairs.append(("nonce", nonce)) }
        if let accessToken { pairs.append(("access_token", accessToken)) }
        return SignInWithIdpRequest(
            requestUri: "http://localhost", postBody: FormEncoding.encode(pairs), returnSecureToken: true,
            returnIdpCredential: returnIdpCredential, autoCreate: autoCreate, idToken: firebaseIDToken)
    }

    func signIn(
        subject: String, email: String? = nil, emailVerified: Bool = true, overrides: [String: JSONValue] = [:],
        providerID: String = "google.com", linking firebaseIDToken: String? = nil
    ) throws -> SignInWithIdpResponse {
        try accounts.signInWithIdp(
            signInRequest(
                idToken: google.idToken(subject: subject, email: email, emailVerified: emailVerified, overrides: overrides),
                linking: firebaseIDToken, providerID: providerID), by: .user(client: nil))
    }

    /// The claims of a Hearth ID token (signature checked by the platform's own keys).
    func claims(of idToken: String) throws -> [String: JSONValue] {
        let verified = try platform.sessionKeys.current().verification.verify(idToken)
        guard case .object(let claims) = try JSONValue(parsing: verified.payload) else { throw WireError(.invalidIDToken) }
        return claims
    }
}

extension IdentityProviderRegistry {
    /// A registry of Google alone, trusting `issuer` for `FakeGoogle.clientID`.
    static func google(
        _ issuer: any GoogleAccessTokenIssuer, time: any TimeSource, limits: OutboundCallLimits = OutboundCallLimits()
    ) -> IdentityProviderRegistry {
        IdentityProviderRegistry(
            providers: [.google(issuers: [issuer], clientIDs: [FakeGoogle.clientID])], time: time, limits: limits)
    }

    /// Verifies a Google credential as `signInWithIdp` would.
    func verifyGoogle(idToken: String? = nil, accessToken: String? = nil, nonce: String? = nil) throws -> FederatedProfile {
        try verify(
            IdpCredential(idToken: idToken, accessToken: accessToken, nonce: nonce), providerID: "google.com",
            clientAddress: nil)
    }
}

/// The wire code `body` threw, or nil if it returned. Non-wire errors show up as `NOT_A_WIRE_ERROR`.
/// The `WireError` `body` throws, if any.
func wireError(_ body: () throws -> Void) -> WireError? {
    do {
        try body()
        return nil
    } catch {
        return error as? WireError
    }
}

func wireErrorCode(_ body: () throws -> Void) -> ErrorCode? {
    do {
        try body()
        return nil
    } catch let error as WireError {
        return error.code
    } catch {
        return ErrorCode(rawValue: "NOT_A_WIRE_ERROR \(error)")
    }
}

enum Fixture {
    private static let cachedOther = Mutex<RSAPrivateKey?>(nil)

    /// A second key, not Google's, for forged signatures.
    static func otherKey() throws -> RSAPrivateKey {
        try cachedOther.withLock { cached in
            if let cached { return cached }
            let key = try RSAPrivateKey.generate(bits: 2048)
            cached = key
            return key
        }
    }

    static func sign(_ claims: [String: JSONValue], key: RSAPrivateKey, keyID: String) throws -> String {
        try JWTSigner(privateKey: key, keyID: keyID).sign(payload: JSONValue.object(claims).jsonData())
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(text).map { String(format: "%02x", $0) }.joined()
    }
}

/// Keeps every SMS it is asked to send; can be told to fail.
final class CapturingSMSSender: SMSSender {
    struct Failure: Error {}
    private let state = Mutex<(messages: [SMSMessage], failing: Bool)>(([], false))

    var messages: [SMSMessage] { state.withLock { $0.messages } }
    var last: SMSMessage? { messages.last }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func send(_ message: SMSMessage) throws {
        try state.withLock { state in
            if state.failing { throw Failure() }
            state.messages.append(message)
        }
    }
}
