import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthServer
import Synchronization

/// An `IdentityServer` over an in-memory store, called in-process (no sockets).
struct ServerFixture {
    static let publicURL = "http://hearth.test"
    let platform: IdentityPlatform
    let server: IdentityServer
    /// The dev IdP (in development).
    let devIdentityProvider: DevIdentityProvider?
    /// The dev Apple (in development).
    let devApple: DevAppleProvider?
    /// What the server logged.
    let log = LogLines()

    init(
        development: Bool = true, apiKeys: ProjectConfiguration.APIKeyPolicy = .anyNonEmpty,
        store: any HearthStore = InMemoryStore(), rateLimits: RateLimiter.Rules = RateLimiter.Rules(),
        trustedProxies: TrustedProxies = .none, adminVerifiers: [any AdminTokenVerifier]? = nil,
        appleClientSecrets: any AppleClientSecretChecking = RefusingAppleClientSecretChecker(),
        passwordPolicy: PasswordPolicy = .firebaseDefault, console: ConsoleOptions = ConsoleOptions(),
        emailEnumerationProtection: Bool = true, issuedOOBCodes: IssuedOOBCodes? = nil,
        fileConfig: FileDeclaredConfig = FileDeclaredConfig()
    ) throws {
        let project = ProjectConfiguration(
            projectID: "demo-hearth", projectNumber: "1", issuer: "\(Self.publicURL)/demo-hearth", apiKeys: apiKeys,
            googleClientIDs: ["hearth-dev.apps.googleusercontent.com"],
            emailEnumerationProtection: emailEnumerationProtection)
        let dev = development
            ? DevIdPConfiguration(
                issuer: "\(Self.publicURL)/dev/google",
                clients: [.development(
                    clientID: "hearth-dev.apps.googleusercontent.com",
                    extraRedirectURIs: [
                        IdentityServer.playgroundCallbackURI(publicURL: Self.publicURL),
                        IdentityServer.consoleCallbackURI(publicURL: Self.publicURL),
                    ])])
            : nil
        var configuration = IdentityPlatform.Configuration(
            project: project, passwords: try Argon2PasswordHasher(parameters: Argon2Parameters(memoryKiB: 1_024, iterations: 1)))
        configuration.rateLimits = rateLimits
        configuration.issuedOOBCodes = issuedOOBCodes
        configuration.fileConfig = fileConfig
        if passwordPolicy != .firebaseDefault {
            configuration.fileConfig.settings["passwordPolicyConfig"] = passwordPolicy.configForm
            configuration.fileConfig.keys["passwordPolicyConfig"] = "passwords.policy"
        }
        configuration.acceptsUnsignedCustomTokens = development
        let devProviders = try dev.map { try DevProviders(google: $0, apple: nil, store: store, time: SystemTimeSource()) }
        devProviders?.trust(in: &configuration)
        let platform = try IdentityPlatform(configuration, store: store)
        self.platform = platform
        devIdentityProvider = devProviders?.google
        let origins = CrossOriginRules(publicURL: Self.publicURL, development: true, trustedOrigins: ["https://app.example.com"])
        let devApple = try devProviders.map(\.google).map { people in
            try DevAppleProvider(
                configuration: DevAppleConfiguration(
                    issuer: "\(Self.publicURL)/dev/apple", trustsOrigin: { origins.trusts(origin: $0) }),
                accounts: people, store: store, time: platform.time, clientSecrets: appleClientSecrets)
        }
        self.devApple = devApple
        server = IdentityServer(
            platform: platform,
            options: ServerOptions(
                publicURL: Self.publicURL, development: development, trustedProxies: trustedProxies,
                adminVerifiers: adminVerifiers ?? (development ? [DevelopmentOwnerVerifier()] : []), devIdentityProvider: devProviders?.google, devApple: devApple,
                console: console),
            log: log.append)
    }

    func call(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: String = "", from address: String? = nil
    ) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        let request = HTTPRequest(
            method: method, path: parts[0], rawQuery: parts.count > 1 ? parts[1] : "", headers: headers,
            body: Array(body.utf8), remoteAddress: address)
        return server.handle(request)
    }

    func postJSON(_ target: String, _ json: String, headers: HTTPHeaders = [:], from address: String? = nil) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return call(.post, target, headers: headers, body: json, from: address)
    }
}

/// Log lines a server wrote.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    @Sendable func append(_ line: String) { lines.withLock { $0.append(line) } }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
}
