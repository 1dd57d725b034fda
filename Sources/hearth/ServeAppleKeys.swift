import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthProviders
import HearthServer

/// A step of `hearth serve`: Hearth's keys at Apple (configured, else in `--dev` its own for the dev Apple), which sign
/// the client secrets of code exchanges and revocations.
struct ServeAppleKeys {
    let configured: AppleKey?
    /// The dev Apple's key of `--dev`, kept in the data directory.
    let development: AppleKey?
    /// Apple's token endpoints, with the key that signs (the configured one first); nil without a key.
    let tokens: AppleTokenClient?
    /// Set when the tokens go to the dev Apple: calls to it are made in process, since over HTTP one from a request
    /// handler could wait for its own thread.
    let devAppleHTTP: DevAppleInProcessHTTP?

    init(_ serve: ServeSettings, publicURL: String, time: any TimeSource) throws {
        let settings = serve.settings
        configured = try AppleKey.configured(settings.apple)
        development = try settings.development
            ? AppleKey.development(dataDirectory: settings.dataDirectory, publicURL: publicURL)
            : nil
        let signing = configured ?? development
        let inProcess = development.flatMap {
            $0.endpoint == signing?.endpoint ? DevAppleInProcessHTTP(log: serve.log) : nil
        }
        tokens = try signing.map { key in
            try key.tokenClient(time: time, timeout: serve.outboundLimits.timeout, http: inProcess)
        }
        devAppleHTTP = inProcess
    }

    /// The dev Apple's settings: its clients and teams are the development ones and the configured ones, and it
    /// checks client secrets with the public halves of both keys; nil outside `--dev`.
    func devApple(site: ServeSite, settings: Settings) -> (DevAppleConfiguration, any AppleClientSecretChecking)? {
        guard let development else { return nil }
        let keys = [development, configured].compactMap { $0 }
        let crossOrigin = site.crossOrigin
        let configuration = DevAppleConfiguration(
            issuer: "\(site.publicURL)/dev/apple",
            clientIDs: Set(settings.apple.clientIds ?? []).union([DevAppleConfiguration.developmentClientID]),
            teamIDs: Set(keys.map(\.teamID)), trustsOrigin: { crossOrigin.trusts(origin: $0) })
        let publicKeys = Dictionary(keys.map { ($0.keyID, $0.privateKey.publicKey) }, uniquingKeysWith: { first, _ in first })
        return (configuration, ES256ClientSecretChecker(keys: publicKeys))
    }
}
