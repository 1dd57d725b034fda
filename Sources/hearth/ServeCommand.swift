import Foundation
import HearthCommandLine
import HearthCore
import HearthHTTP
import HearthSQLite
import HearthServer
import Synchronization

/// `hearth serve`: opens the store, listens, prints where to go, and stops cleanly on SIGINT/SIGTERM
/// (in-flight requests finish, then the store closes).
enum ServeCommand {
    static func run(_ arguments: [String]) throws -> Never {
        // Block SIGINT/SIGTERM before any thread exists, so every thread inherits the mask and the
        // signals wait for `sigwait` below instead of landing on a worker thread.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

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
            guard !settings.googleClientIDs.isEmpty else {
                throw UsageError(
                    "no Google client IDs configured: set HEARTH_GOOGLE_CLIENT_IDS or googleClientIds in --config (or use --dev)")
            }
        }
        let extraIssuers = try settings.extraGoogleIssuers.map(Self.issuer)
        let mfaPolicy = settings.mfaPolicy
        let logLine: @Sendable (String) -> Void = { line in printLine(line) }
        let (smsSender, developmentCodes) = try Self.smsSender(settings, policy: mfaPolicy, log: logLine)
        let store = try openStore(settings)

        let server = Mutex<IdentityServer?>(nil)
        let threads = settings.threads ?? max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let http = HTTPServer(
            configuration: HTTPServer.Configuration(
                host: settings.host, port: settings.port, threadCount: threads, cors: .reflectAnyOrigin),
            handler: { request in
                guard let server = server.withLock({ $0 }) else {
                    return HTTPResponse.text("starting", status: 503)
                }
                return server.handle(request)
            },
            errorRenderer: IdentityServer.render,
            log: { entry in logLine(entry.logLine) })
        do {
            try http.start()
        } catch {
            store.close()
            throw StartupError("cannot listen on \(settings.host):\(settings.port): \(error)")
        }

        let displayHost = settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host
        let hostForURL = displayHost.contains(":") ? "[\(displayHost)]" : displayHost
        let publicURL = (settings.publicURL ?? "http://\(hostForURL):\(http.port)").trimmingSuffix("/")
        let issuer = settings.firebaseIssuer ? "https://securetoken.google.com/\(projectID)" : "\(publicURL)/\(projectID)"
        var clientIDs = Set(settings.googleClientIDs)
        if settings.development { clientIDs.insert(Settings.developmentClientID) }
        let project = ProjectConfiguration(
            projectID: projectID, projectNumber: settings.resolvedProjectNumber(projectID: projectID), issuer: issuer,
            apiKeys: settings.development ? .anyNonEmpty : .only(Set(settings.apiKeys)), googleClientIDs: clientIDs,
            mfa: mfaPolicy)
        let time = SystemTimeSource()
        let google = RemoteGoogleIssuer(fetcher: URLSessionFetcher(), time: time)
        let devConfiguration = settings.development
            ? DevIdPConfiguration(
                issuer: "\(publicURL)/dev/google",
                clients: [DevIdPClient.development(
                    clientID: Settings.developmentClientID,
                    extraRedirectURIs: [IdentityServer.playgroundCallbackURI(publicURL: publicURL)])])
            : nil
        let platform: IdentityPlatform
        do {
            platform = try IdentityPlatform(
                project: project, store: store, time: time, googleIssuers: extraIssuers + [google],
                devIdentityProvider: devConfiguration, smsSender: smsSender, mfaLimits: settings.mfaLimits,
                sessionPolicy: settings.sessionPolicy)
        } catch {
            http.shutdown(gracePeriod: .seconds(1))
            store.close()
            throw StartupError("cannot load signing keys from \(settings.databasePath): \(error)")
        }
        server.withLock {
            $0 = IdentityServer(
                platform: platform,
                options: ServerOptions(
                    publicURL: publicURL, development: settings.development, sentVerificationCodes: developmentCodes),
                log: logLine)
        }
        let purger = SessionPurger(
            store: store, time: time, policy: settings.sessionPolicy, schedule: settings.purgeSchedule, log: logLine)
        purger.start()
        printBanner(settings: settings, publicURL: publicURL, project: project)

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        logLine("event=shutdown signal=\(received == SIGINT ? "SIGINT" : "SIGTERM")")
        http.shutdown(gracePeriod: .seconds(10))
        purger.stop()
        store.close()
        logLine("event=stopped")
        exit(0)
    }

    /// The SMS sender: a configured webhook or Twilio-compatible API, else in development the log sender
    /// (whose codes `GET /emulator/v1/projects/{p}/verificationCodes` lists). Phone factors without a sender
    /// outside development are a configuration error.
    private static func smsSender(_ settings: Settings, policy: MFAPolicy, log: @escaping @Sendable (String) -> Void) throws
        -> (any SMSSender, (@Sendable () -> [DeliveredCode])?)
    {
        let sms = settings.sms
        if let webhook = sms.webhookUrl {
            guard let url = URL(string: webhook), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError("sms webhook URL must be an http(s) URL")
            }
            return (WebhookSMSSender(url: url, secret: sms.webhookSecret), nil)
        }
        if let accountSID = sms.twilioAccountSid {
            guard let token = sms.twilioAuthToken, let from = sms.twilioFrom else {
                throw UsageError("Twilio SMS needs an account SID, an auth token and a from number")
            }
            guard let base = URL(string: sms.twilioBaseUrl ?? "https://api.twilio.com") else {
                throw UsageError("Twilio base URL is not a URL")
            }
            return (TwilioSMSSender(baseURL: base, accountSID: accountSID, authToken: token, from: from), nil)
        }
        if settings.development {
            let sender = DevelopmentSMSSender(log: log)
            return (sender, { sender.deliveredCodes })
        }
        if policy.factors.contains(.phone) {
            throw UsageError("phone second factors need an SMS sender: set sms.webhookUrl or the Twilio settings (see docs/CONFIGURATION.md)")
        }
        return (UnavailableSMSSender(), nil)
    }

    private static func issuer(_ entry: Settings.IssuerEntry) throws -> any GoogleIssuer {
        guard let jwks = URL(string: entry.jwksUri) else { throw UsageError("googleIssuers: bad jwksUri '\(entry.jwksUri)'") }
        let tokenInfo = entry.tokeninfoUri.flatMap(URL.init(string:)) ?? jwks
        let userInfo = entry.userinfoUri.flatMap(URL.init(string:)) ?? jwks
        return RemoteGoogleIssuer(
            issuerNames: [entry.issuer],
            endpoints: .init(jwks: jwks, tokenInfo: tokenInfo, userInfo: userInfo),
            fetcher: URLSessionFetcher(), time: SystemTimeSource())
    }

    private static func printBanner(settings: Settings, publicURL: String, project: ProjectConfiguration) {
        var lines = [
            "Hearth is listening on \(publicURL) — project \(project.projectID)\(settings.development ? ", development mode" : "")",
            "  Identity Toolkit   \(publicURL)/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=…",
            "  Token refresh      \(publicURL)/securetoken.googleapis.com/v1/token?key=…",
            "  JWKS               \(publicURL)/.well-known/jwks.json",
            "  OpenID discovery   \(publicURL)/\(project.projectID)/.well-known/openid-configuration  (iss \(project.issuer))",
            "  Database           \(settings.databasePath)",
        ]
        if settings.development {
            lines.append("  Dev Google IdP     \(publicURL)/dev/google/.well-known/openid-configuration")
            lines.append("  Try signing in     \(publicURL)/dev/google/try")
            lines.append("  Any non-empty API key works; Google client ID \(Settings.developmentClientID)")
        }
        printLine(lines.joined(separator: "\n"))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var result = self
        while result.hasSuffix(suffix) { result.removeLast(suffix.count) }
        return result
    }
}
