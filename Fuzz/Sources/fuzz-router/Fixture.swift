import Foundation
import FuzzSupport
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthProtocol
import HearthProviders
import HearthServer

/// Hearth's real routes as `hearth serve --dev` registers them, over an in-memory store, called in-process.
///
/// The store holds the fixed signing keys (`TestKeys`), the clock stands still at `FixedTime`, and one known user
/// (`Fixture.user`, linked to the dev IdP's `fuzz-google-sub`, with a session whose refresh token is
/// `Fixture.refreshToken`) is put back before every input. So tokens in the seed corpus are valid: dev IdP ID tokens sign in, session ID tokens
/// reach lookup, update, delete and the MFA routes, and the refresh token refreshes. Admin routes take `Bearer owner`
/// (as with `--dev`), and unsigned custom tokens sign in. The dev Apple serves its routes and signs in as `apple.com`
/// (its key is the dev IdP's under `devapple-fuzz`); Apple's token endpoint cannot be reached.
struct Fixture {
    static let publicURL = "http://hearth.test"
    static let projectID = "demo-hearth"
    static let clientID = "hearth-dev.apps.googleusercontent.com"
    static let user = Account(
        localID: "fuzz-user", email: "fuzz@example.com", emailVerified: true, displayName: "Fuzz",
        createdAtMillis: (FixedTime.seconds - 86400) * 1000, validSinceMillis: 0,
        providers: [LinkedIdentity(providerID: "google.com", rawID: "fuzz-google-sub", email: "fuzz@example.com")])
    static let sessionID = "fuzz-session"
    static let refreshToken = "\(sessionID).fuzz-refresh-token"

    let server: IdentityServer
    private let store: InMemoryStore

    init() {
        store = InMemoryStore()
        do {
            try store.write { writer in
                for key in [TestKeys.session, TestKeys.issuer, TestKeys.devApple] {
                    try writer.insertSigningKey(SigningKeyRecord(
                        keyID: key.keyID, algorithm: "RS256", privateKeyPEM: key.pem, createdAt: FixedTime.seconds - 86400))
                }
            }
            let project = ProjectConfiguration(
                projectID: Self.projectID, projectNumber: "1", issuer: "\(Self.publicURL)/\(Self.projectID)",
                apiKeys: .anyNonEmpty, googleClientIDs: [Self.clientID], mfa: .allFactors)
            let dev = DevIdPConfiguration(
                issuer: "\(Self.publicURL)/dev/google",
                clients: [.development(
                    clientID: Self.clientID,
                    extraRedirectURIs: [IdentityServer.playgroundCallbackURI(publicURL: Self.publicURL)])])
            let sms = DevelopmentSMSSender(log: { _ in }, capacity: 16)
            // Apple's token endpoint is out of reach: code exchanges and revocations fail as when Apple is down.
            let appleTokens = AppleTokenClient(
                clientSecret: try AppleClientSecret(
                    teamID: DevAppleConfiguration.developmentTeamID, keyID: "HEARTHDEVKY",
                    privateKey: try P256PrivateKey.generate(), time: FixedTime()),
                http: UnreachableApple(), endpoint: URL(string: "\(Self.publicURL)/dev/apple")!)
            // Real Argon2id, at its cheapest, so that password inputs are checked as in production.
            var configuration = IdentityPlatform.Configuration(
                project: project,
                passwords: try Argon2PasswordHasher(
                    parameters: try Argon2Parameters(memoryKiB: 1024, iterations: 1, parallelism: 1),
                    importedVerifiers: [ImportedPasswordHashVerifier()]))
            let devProviders = try DevProviders(
                google: dev,
                apple: (DevAppleConfiguration(issuer: "\(Self.publicURL)/dev/apple"), RefusingAppleClientSecretChecker()),
                store: store, time: FixedTime())
            devProviders.trust(in: &configuration)
            configuration.providerTokens = ProviderTokenHandling(apple: appleTokens)
            configuration.smsSender = sms
            configuration.acceptsUnsignedCustomTokens = true
            configuration.emailActions = EmailActionSettings(publicURL: Self.publicURL, development: true)
            let platform = try IdentityPlatform(configuration, store: store, time: FixedTime())
            server = IdentityServer(
                platform: platform,
                options: ServerOptions(
                    publicURL: Self.publicURL, development: true, sentVerificationCodes: { sms.deliveredCodes },
                    adminVerifiers: [DevelopmentOwnerVerifier(), platform.serviceAccountTokenVerifier],
                    devIdentityProvider: devProviders.google, devApple: devProviders.apple))
        } catch {
            fatalError("the fuzzing server does not start: \(error)")
        }
    }

    /// Puts the known user and its session back as they were (an input may have changed or deleted them). Returns
    /// false when the session was rotated or revoked: a session cannot be put back in place, so the caller starts a
    /// new fixture.
    func restoreUser() -> Bool {
        do {
            return try store.write { writer in
                // An input may have given the user's email or Google identity to another account.
                let user = Self.user
                let holders = [try writer.account(email: "fuzz@example.com"), try writer.account(providerID: "google.com", rawID: "fuzz-google-sub")]
                for case let holder? in holders where holder.localID != user.localID {
                    try writer.deleteAccount(localID: holder.localID)
                }
                if try writer.account(localID: user.localID) == nil {
                    try writer.insertAccount(user)
                } else {
                    try writer.updateAccount(user)
                }
                let hash = SHA256.hash(Self.refreshToken).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                let session = RefreshSession(
                    sessionID: Self.sessionID, localID: user.localID, signInProvider: "google.com",
                    authTime: FixedTime.seconds - 60, startedAtMillis: (FixedTime.seconds - 60) * 1000,
                    currentTokenHash: hash)
                guard let stored = try writer.refreshSession(id: Self.sessionID) else {
                    try writer.insertRefreshSession(session)
                    return true
                }
                return stored == session
            }
        } catch {
            fatalError("the known user cannot be restored: \(error)")
        }
    }
}

/// Apple's token endpoint as seen when it cannot be reached.
private struct UnreachableApple: OutboundHTTP {
    struct Unreachable: Error {}

    func send(_ request: OutboundRequest) throws -> OutboundResponse {
        throw Unreachable()
    }
}
