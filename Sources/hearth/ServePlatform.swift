import HearthCommandLine
import HearthCore
import HearthDevProviders
import HearthOutbound
import HearthProviders
import HearthServer

/// A step of `hearth serve`: the identity platform over the open store, with the maintenance task (created, pushed
/// on `resources` to be stopped, not started yet) and in `--dev` the look-alikes of Google and Apple it trusts.
struct ServePlatform {
    let platform: IdentityPlatform
    let devProviders: DevProviders?
    let maintenance: MaintenanceTask

    init(
        _ serve: ServeSettings, site: ServeSite, senders: ServeSenders, store: any ConfiguredStore,
        operations: ServeOperations, time: any TimeSource, resources: ResourceStack
    ) throws {
        let settings = serve.settings
        let timeout = serve.outboundLimits.timeout
        let otherProviders = try settings.identityProviders(time: time, timeout: timeout)
        let appleKeys = try ServeAppleKeys(serve, publicURL: site.publicURL, time: time)
        // The maintenance task also retries the revocations deletions queue.
        let maintenance = resources.push(
            MaintenanceTask(
                store: store, time: time, policy: settings.sessionPolicy, schedule: settings.purgeSchedule,
                anonymousAccountLifetimeDays: settings.anonymousAccountDays, audit: settings.audit,
                revokers: appleKeys.tokens.map { [IdentityProvider.appleID: AppleTokenRevoker(client: $0)] } ?? [:],
                log: serve.log)
        ) { $0.stop() }
        let passwordHasher = try settings.passwords.hasher(
            importedVerifiers: [ImportedPasswordHashVerifier()], httpThreads: serve.threads)
        var configuration = IdentityPlatform.Configuration(project: site.project, passwords: passwordHasher)
        configuration.googleIssuers =
            serve.extraIssuers + [RemoteGoogleIssuer(http: URLSessionOutboundHTTP(timeout: timeout), time: time)]
        configuration.otherProviders = otherProviders
        configuration.makeOpenIDProvider = Settings.apiOpenIDProvider(time: time, timeout: timeout)
        configuration.providerTokens = ProviderTokenHandling(
            apple: appleKeys.tokens, revocationsQueued: { maintenance.wake() })
        configuration.passwordLockouts = settings.passwordSignIn.lockouts
        configuration.smsSender = operations.counted(senders.sms)
        configuration.mfaLimits = settings.mfaLimits
        configuration.rateLimits = settings.rateLimits
        configuration.outboundLimits = serve.outboundLimits
        configuration.sessionPolicy = settings.sessionPolicy
        configuration.acceptsUnsignedCustomTokens = settings.development
        configuration.emailSender = operations.counted(senders.email)
        configuration.emailActions = settings.emailActions.settings(
            publicURL: site.publicURL, development: settings.development)
        configuration.issuedOOBCodes = settings.development ? IssuedOOBCodes(log: serve.log) : nil
        configuration.securityEvents = { serve.log($0.logLine) }
        configuration.metrics = operations.recording
        configuration.audit = settings.audit
        configuration.fileConfig = settings.fileDeclaredConfig(emailActions: configuration.emailActions)
        let measuredStore = operations.measured(store)
        do {
            let devProviders = try site.devIdentityProvider(development: settings.development).map {
                try DevProviders(
                    google: $0, apple: appleKeys.devApple(site: site, settings: settings), store: measuredStore, time: time)
            }
            devProviders?.trust(in: &configuration)
            platform = try IdentityPlatform(configuration, store: measuredStore, time: time)
            self.devProviders = devProviders
        } catch {
            throw StartupError("cannot load signing keys from \(settings.databaseLocation.redacted): \(error)")
        }
        appleKeys.devAppleHTTP?.attach(devProviders?.apple)
        operations.metrics?.exposeAge(of: platform.sessionKeys, time: time)
        exposeConnectionPool(of: store, in: operations.metrics)
        self.maintenance = maintenance
    }
}
