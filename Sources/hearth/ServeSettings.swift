import Foundation
import HearthCommandLine
import HearthCore
import HearthOutbound
import HearthProviders
import HearthServer

/// The first step of `hearth serve`: the settings read and checked before anything is opened.
struct ServeSettings {
    let settings: Settings
    let projectID: String
    /// HTTP worker threads.
    let threads: Int
    let outboundLimits: OutboundCallLimits
    /// The extra Google issuers of `googleIssuers` (tests and mocks).
    let extraIssuers: [any GoogleAccessTokenIssuer]
    let trustedProxies: TrustedProxies
    /// Writes one log line in the configured format.
    let log: @Sendable (String) -> Void

    /// Reads the options, the environment and the config file; prints the help and exits for `--help`.
    ///
    /// - Throws: `UsageError` for anything the operator has to fix (exit status 64).
    static func read(_ arguments: [String]) throws -> ServeSettings {
        let options = try ParsedOptions(arguments, valued: Settings.valuedOptions, switches: Settings.switchOptions)
        if options.flags.contains("help") {
            print(Help.serve)
            exit(0)
        }
        if let extra = options.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let projectID = try settings.resolvedProjectID()
        if !settings.development {
            guard !settings.apiKeys.isEmpty else {
                throw UsageError("no API keys configured: set HEARTH_API_KEYS or apiKeys in --config (or use --dev)")
            }
            guard settings.hasIdentityProvider else {
                throw UsageError(
                    "no sign-in provider configured: set HEARTH_GOOGLE_CLIENT_IDS or googleClientIds, HEARTH_APPLE_CLIENT_IDS or apple.clientIds, or oidcProviders in --config (or use --dev)")
            }
        }
        // More threads than this made libmicrohttpd slower on 2 cores (JWKS at a quarter of the rate with 8).
        let threads = settings.threads ?? max(6, 3 * ProcessInfo.processInfo.activeProcessorCount)
        let outboundLimits = try settings.outboundLimits(httpThreads: threads)
        let extraIssuers = try settings.extraGoogleIssuers.map { try issuer($0, timeout: outboundLimits.timeout) }
        let trustedProxies: TrustedProxies
        do {
            trustedProxies = try TrustedProxies(settings.trustedProxies)
        } catch {
            throw UsageError("trusted proxies: '\(error.entry)' is not an IP address or CIDR block")
        }
        if let origin = settings.trustedOrigins.first(where: { !CrossOriginRules.isOrigin($0) }) {
            throw UsageError("trusted origins: '\(origin)' is not an http(s) origin like https://app.example.com")
        }
        let logFormat = settings.operations.logFormat
        return ServeSettings(
            settings: settings, projectID: projectID, threads: threads, outboundLimits: outboundLimits,
            extraIssuers: extraIssuers, trustedProxies: trustedProxies,
            log: { line in printLine(logFormat.render(line)) })
    }

    private static func issuer(_ entry: Settings.IssuerEntry, timeout: TimeInterval) throws -> any GoogleAccessTokenIssuer {
        guard let jwks = URL(string: entry.jwksUri) else { throw UsageError("googleIssuers: bad jwksUri '\(entry.jwksUri)'") }
        let tokenInfo = entry.tokeninfoUri.flatMap(URL.init(string:)) ?? jwks
        let userInfo = entry.userinfoUri.flatMap(URL.init(string:)) ?? jwks
        return RemoteGoogleIssuer(
            issuerNames: [entry.issuer],
            endpoints: .init(jwks: jwks, tokenInfo: tokenInfo, userInfo: userInfo),
            http: URLSessionOutboundHTTP(timeout: timeout), time: SystemTimeSource())
    }
}
