import Foundation
import HearthCommandLine
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthServer

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
            guard settings.hasIdentityProvider else {
                throw UsageError(
                    "no sign-in provider configured: set HEARTH_GOOGLE_CLIENT_IDS or googleClientIds, HEARTH_APPLE_CLIENT_IDS or apple.clientIds, or oidcProviders in --config (or use --dev)")
            }
        }
        // More threads than this made libmicrohttpd slower on 2 cores (JWKS at a quarter of the rate with 8).
        let threads = settings.threads ?? max(6, 3 * ProcessInfo.processInfo.activeProcessorCount)
        let outboundLimits = try settings.outboundLimits(httpThreads: threads)
        let extraIssuers = try settings.extraGoogleIssuers.map { try Self.issuer($0, timeout: outboundLimits.timeout) }
        let trustedProxies: TrustedProxies
        do {
            trustedProxies = try TrustedProxies(settings.trustedProxies)
        } catch {
            throw UsageError("trusted proxies: '\(error.entry)' is not an IP address or CIDR block")
        }
        if let origin = settings.trustedOrigins.first(where: { !CrossOriginRules.isOrigin($0) }) {
            throw UsageError("trusted origins: '\(origin)' is not an http(s) origin like https://app.example.com")
        }
        let mfaPolicy = settings.mfaPolicy
        let logFormat = settings.operations.logFormat
        let logLine: @Sendable (String) -> Void = { line in printLine(logFormat.render(line)) }
        let operations = ServeOperations(settings: settings, workerThreads: threads)
        let (smsSender, developmentCodes) = try Self.smsSender(settings, policy: mfaPolicy, log: logLine)
        // One connection per HTTP thread, and a few for the maintenance task and key reloads.
        let recording = operations.recording
        let store = try openStore(
            settings, creating: true, connections: threads + 3, onWriteRetry: { recording.storeTransactionRetried() },
            log: logLine)

        // Bind first, to know the port the public URL needs; the socket listens only once the
        // server can answer, so no client is ever told "not ready".
        let socket = try taking(settings, store) { try HTTPServer.bind(host: settings.host, port: settings.port) }

        let displayHost = settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host
        let hostForURL = displayHost.contains(":") ? "[\(displayHost)]" : displayHost
        let publicURL = (settings.publicURL ?? "http://\(hostForURL):\(socket.port)").trimmingSuffix("/")
        let issuer = settings.firebaseIssuer ?? settings.development ? "https://securetoken.google.com/\(projectID)" : "\(publicURL)/\(projectID)"
        var clientIDs = Set(settings.googleClientIDs)
        if settings.development { clientIDs.insert(Settings.developmentClientID) }
        let project = ProjectConfiguration(
            projectID: projectID, projectNumber: settings.resolvedProjectNumber(projectID: projectID), issuer: issuer,
            apiKeys: settings.development ? .anyNonEmpty : .only(Set(settings.apiKeys)), googleClientIDs: clientIDs,
            mfa: mfaPolicy, displayName: settings.emailActions.appName,
            emailEnumerationProtection: settings.passwordSignIn.emailEnumerationProtection)
        let time = SystemTimeSource()
        let google = RemoteGoogleIssuer(fetcher: URLSessionFetcher(timeout: outboundLimits.timeout), time: time)
        let devConfiguration = settings.development
            ? DevIdPConfiguration(
                issuer: "\(publicURL)/dev/google",
                clients: [DevIdPClient.development(
                    clientID: Settings.developmentClientID,
                    extraRedirectURIs: [
                        IdentityServer.playgroundCallbackURI(publicURL: publicURL),
                        IdentityServer.consoleCallbackURI(publicURL: publicURL),
                    ])])
            : nil
        let crossOrigin = CrossOriginRules(
            publicURL: publicURL, development: settings.development, trustedOrigins: settings.trustedOrigins)
        let otherProviders = try Self.closingStore(store) {
            try settings.identityProviders(time: time, timeout: outboundLimits.timeout)
        }
        // Hearth's key at Apple (configured, else in `--dev` its own for the dev Apple) signs the client secrets of
        // code exchanges and revocations; the maintenance task retries the revocations deletions queue.
        let configuredAppleKey = try Self.closingStore(store) { try AppleKey.configured(settings.apple) }
        let devAppleKey = try settings.development
            ? Self.closingStore(store) { try AppleKey.development(dataDirectory: settings.dataDirectory, publicURL: publicURL) }
            : nil
        // Calls to the dev Apple are made in process: over HTTP, one from a request handler could wait for its own thread.
        let appleKey = configuredAppleKey ?? devAppleKey
        let devApplePoster = devAppleKey.flatMap { $0.endpoint == appleKey?.endpoint ? DevAppleInProcessPoster(log: logLine) : nil }
        let appleTokens = try appleKey.map { key in
            try Self.closingStore(store) {
                try key.tokenClient(time: time, timeout: outboundLimits.timeout, poster: devApplePoster)
            }
        }
        // SMTP or the webhook when configured, else the development log in --dev; without either, email actions fail.
        let fallbackEmailSender: any EmailSender =
            settings.development ? DevelopmentEmailSender(log: logLine) : UnavailableEmailSender()
        let emailSender = try Self.closingStore(store) { try settings.emailSender() } ?? fallbackEmailSender
        let maintenance = MaintenanceTask(
            store: store, time: time, policy: settings.sessionPolicy, schedule: settings.purgeSchedule,
            anonymousAccountLifetimeDays: settings.anonymousAccountDays, audit: settings.audit,
            revokers: appleTokens.map { [IdentityProvider.appleID: AppleTokenRevoker(client: $0)] } ?? [:], log: logLine)
        let passwordHasher = try Self.closingStore(store) {
            try settings.passwords.hasher(importedVerifiers: [ImportedPasswordHashVerifier()], httpThreads: threads)
        }
        var configuration = IdentityPlatform.Configuration(project: project, passwords: passwordHasher)
        configuration.googleIssuers = extraIssuers + [google]
        configuration.devIdentityProvider = devConfiguration
        configuration.otherProviders = otherProviders
        configuration.devApple = devAppleKey.map { devKey in
            Self.devApple(
                publicURL: publicURL, settings: settings, keys: [devKey, configuredAppleKey].compactMap { $0 },
                crossOrigin: crossOrigin)
        }
        configuration.providerTokens = ProviderTokenHandling(apple: appleTokens, revocationsQueued: { maintenance.wake() })
        configuration.passwordLockouts = settings.passwordSignIn.lockouts
        configuration.smsSender = operations.counted(smsSender)
        configuration.mfaLimits = settings.mfaLimits
        configuration.rateLimits = settings.rateLimits
        configuration.outboundLimits = outboundLimits
        configuration.sessionPolicy = settings.sessionPolicy
        configuration.acceptsUnsignedCustomTokens = settings.development
        configuration.emailSender = operations.counted(emailSender)
        configuration.emailActions = settings.emailActions.settings(publicURL: publicURL, development: settings.development)
        configuration.issuedOOBCodes = settings.development ? IssuedOOBCodes(log: logLine) : nil
        configuration.securityEvents = { logLine($0.logLine) }
        configuration.metrics = operations.recording
        configuration.audit = settings.audit
        let platform: IdentityPlatform
        do {
            platform = try IdentityPlatform(configuration, store: operations.measured(store), time: time)
        } catch {
            store.close()
            throw StartupError("cannot load signing keys from \(settings.databaseLocation.redacted): \(error)")
        }
        devApplePoster?.attach(platform.devApple)
        operations.metrics?.exposeAge(of: platform.sessionKeys, time: time)
        exposeConnectionPool(of: store, in: operations.metrics)
        let readiness = Readiness(store: platform.store, signingKeys: platform.sessionKeys, time: time)
        let management = try Self.closingStore(store) { try operations.managementServer(readiness: readiness) }
        // Who may call the admin endpoints (`/v1/projects/{p}/accounts…`): service accounts through the access tokens
        // of `POST /oauth2/token`, and in development `Bearer owner`, as the Admin SDKs send to an emulator.
        let adminVerifiers: [any AdminTokenVerifier] =
            (settings.development ? [DevelopmentOwnerVerifier()] : []) + [platform.serviceAccountTokenVerifier]
        let console = try Self.closingStore(store) { try settings.consoleOptions(timeout: outboundLimits.timeout) }
        let server = IdentityServer(
            platform: platform,
            options: ServerOptions(
                publicURL: publicURL, development: settings.development, sentVerificationCodes: developmentCodes,
                trustedProxies: trustedProxies, adminVerifiers: adminVerifiers, devApple: platform.devApple,
                passwordPolicy: settings.passwords.policy, operations: operations.mainEndpoints(readiness: readiness),
                console: console),
            log: logLine)
        let http = HTTPServer(
            configuration: settings.httpLimits.applied(
                to: HTTPServer.Configuration(
                    host: settings.host, port: socket.port, threadCount: threads,
                    cors: crossOrigin.policy(for: server))),
            socket: socket,
            handler: server.handle,
            errorRenderer: operations.errorRenderer,
            log: { entry in logLine(entry.logLine) })
        try taking(settings, store) { try http.start() }
        try Self.closingStore(store) { try management?.start() }
        maintenance.start()
        printBanner(
            settings: settings, publicURL: publicURL, project: project, sealer: store.sealer,
            providers: platform.identityProviders.providerIDs)
        // Last, once the server answers: supervisors and tests wait for this line, and it names the real address
        // (the port chosen for --port 0) whatever --public-url says.
        logLine("event=listening address=\(socket.boundAddress)")

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        readiness.beginShutdown()
        let delay = settings.operations.shutdownDelaySeconds
        logLine("event=shutdown signal=\(received == SIGINT ? "SIGINT" : "SIGTERM") delay_s=\(delay)")
        if delay > 0 { Self.keepServing(seconds: delay, unlessSignalled: &stopSignals, log: logLine) }
        http.shutdown(gracePeriod: .seconds(10))
        management?.shutdown(gracePeriod: .seconds(1))
        maintenance.stop()
        store.close()
        logLine("event=stopped")
        exit(0)
    }

    /// Waits `seconds` while the listener keeps answering (and `/readyz` says 503), so that load balancers take this
    /// instance out before it closes; a second SIGINT or SIGTERM ends the wait at once.
    private static func keepServing(seconds: Int, unlessSignalled signals: inout sigset_t, log: (String) -> Void) {
        var timeout = timespec(tv_sec: seconds, tv_nsec: 0)
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while true {
            let signal = sigtimedwait(&signals, nil, &timeout)
            if signal > 0 {
                log("event=shutdown_delay_ended signal=\(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                return
            }
            // Interrupted by another signal (EINTR): wait out what is left; EAGAIN: the delay is over.
            let left = deadline.timeIntervalSinceNow
            guard errno == EINTR, left > 0 else { return }
            timeout = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
        }
    }

    /// The dev Apple's settings: its clients and teams are the development ones and the configured ones, and it
    /// checks client secrets with the public halves of `keys`.
    private static func devApple(
        publicURL: String, settings: Settings, keys: [AppleKey], crossOrigin: CrossOriginRules
    ) -> (DevAppleConfiguration, any AppleClientSecretChecking) {
        let configuration = DevAppleConfiguration(
            issuer: "\(publicURL)/dev/apple",
            clientIDs: Set(settings.apple.clientIds ?? []).union([DevAppleConfiguration.developmentClientID]),
            teamIDs: Set(keys.map(\.teamID)), trustsOrigin: { crossOrigin.trusts(origin: $0) })
        let publicKeys = Dictionary(keys.map { ($0.keyID, $0.privateKey.publicKey) }, uniquingKeysWith: { first, _ in first })
        return (configuration, ES256ClientSecretChecker(keys: publicKeys))
    }

    /// Runs a startup step after the store is open: if it fails, closes the store first.
    private static func closingStore<T>(_ store: any ConfiguredStore, _ step: () throws -> T) throws -> T {
        do {
            return try step()
        } catch {
            store.close()
            throw error
        }
    }

    /// Runs a step of taking the listening address (bind, then listen); if it fails, closes the store
    /// and says which address could not be used.
    private static func taking<T>(_ settings: Settings, _ store: any ConfiguredStore, _ step: () throws -> T) throws -> T {
        do {
            return try step()
        } catch {
            store.close()
            throw StartupError("cannot listen on \(settings.host):\(settings.port): \(error)")
        }
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

    private static func issuer(_ entry: Settings.IssuerEntry, timeout: TimeInterval) throws -> any GoogleAccessTokenIssuer {
        guard let jwks = URL(string: entry.jwksUri) else { throw UsageError("googleIssuers: bad jwksUri '\(entry.jwksUri)'") }
        let tokenInfo = entry.tokeninfoUri.flatMap(URL.init(string:)) ?? jwks
        let userInfo = entry.userinfoUri.flatMap(URL.init(string:)) ?? jwks
        return RemoteGoogleIssuer(
            issuerNames: [entry.issuer],
            endpoints: .init(jwks: jwks, tokenInfo: tokenInfo, userInfo: userInfo),
            fetcher: URLSessionFetcher(timeout: timeout), time: SystemTimeSource())
    }

    private static func printBanner(
        settings: Settings, publicURL: String, project: ProjectConfiguration, sealer: any SecretSealer,
        providers: [String]
    ) {
        let secretsAtRest = (sealer as? KeyringSecretSealer).map { "encrypted (AES-256-GCM, key \($0.currentKeyID))" }
            ?? "not encrypted (set HEARTH_ENCRYPTION_KEY, see docs/DEPLOYMENT.md)"
        var lines = [
            "Hearth is listening on \(publicURL) — project \(project.projectID)\(settings.development ? ", development mode" : "")",
            "  Identity Toolkit   \(publicURL)/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=…",
            "  Token refresh      \(publicURL)/securetoken.googleapis.com/v1/token?key=…",
            "  JWKS               \(publicURL)/.well-known/jwks.json",
            "  OpenID discovery   \(publicURL)/\(project.projectID)/.well-known/openid-configuration  (iss \(project.issuer))",
            "  Database           \(settings.databaseLocation.bannerDescription)",
            "  Secrets at rest    \(secretsAtRest)",
            "  Sign-in providers  \(providers.joined(separator: ", "))",
            "  Admin console      \(publicURL)/console",
        ]
        if settings.development {
            lines.append("  Dev Google IdP     \(publicURL)/dev/google/.well-known/openid-configuration")
            lines.append("  Try signing in     \(publicURL)/dev/google/try")
            lines.append("  Dev Apple          \(publicURL)/dev/apple/.well-known/openid-configuration")
            lines.append(
                "  Any non-empty API key works; Google client ID \(Settings.developmentClientID), Apple client ID "
                    + DevAppleConfiguration.developmentClientID)
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
