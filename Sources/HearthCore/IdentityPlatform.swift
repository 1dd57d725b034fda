/// Everything one Hearth project runs on, wired together: the store, the session signing keys,
/// token minting, account operations, the identity providers and (in development) the dev IdP.
public final class IdentityPlatform: Sendable {
    public let project: ProjectConfiguration
    public let store: any HearthStore
    public let time: any TimeSource
    public let sessionKeys: SigningKeyRing
    public let tokens: TokenService
    public let accounts: AccountService
    /// Email and password sign-up, sign-in and changes (`accounts.signUp` and `accounts.update` hand over to it).
    public let passwordAccounts: PasswordAccounts
    public let mfa: MFAService
    /// `accounts:signInWithCustomToken`.
    public let customTokens: CustomTokenSignIn
    /// The OAuth token endpoint of service accounts (`POST /oauth2/token`).
    public let serviceAccountTokens: ServiceAccountTokenIssuer
    /// Accepts the admin access tokens `serviceAccountTokens` issues (for the admin endpoints' edge).
    public let serviceAccountTokenVerifier: ServiceAccountTokenVerifier
    /// Firebase's admin account operations; ``admin(as:)`` hands them out for one caller.
    private let administration: AdminService
    /// The in-memory rate limits of this instance, shared by the request edge and the services.
    public let rateLimiter: RateLimiter
    /// The identity providers `signInWithIdp` accepts.
    public let identityProviders: IdentityProviderRegistry
    /// The local Google look-alike; nil unless running with `--dev`.
    public let devIdentityProvider: DevIdentityProvider?
    /// The local Sign in with Apple look-alike; nil unless running with `--dev`.
    public let devApple: DevAppleProvider?
    /// Email actions: `sendOobCode`, `resetPassword`, applying codes, email-link sign-in, `createAuthUri`.
    public let emailActions: EmailActionService
    /// The audit log's settings, which every service writes its events under.
    public let audit: AuditLog

    /// Loads (or on first start creates) the signing keys.
    /// - Parameters:
    ///   - googleIssuers: issuers whose tokens count as Google sign-ins (normally Google itself), for the project's
    ///     Google client IDs.
    ///   - devIdentityProvider: settings of the dev IdP; when given it is trusted as a Google issuer too.
    ///   - otherProviders: the other enabled providers (`apple.com`, `oidc.*`).
    ///   - devApple: settings of the dev Apple (needs the dev IdP, whose accounts are its people) and the check of
    ///     its clients' ES256 secrets; when given it is trusted as an Apple issuer too.
    ///   - providerTokens: Apple's code exchange and the wake-up of queued revocations.
    ///   - passwords: hashes and checks every password (Argon2id in `hearth serve`).
    ///   - passwordLockouts: the wrong-password counters per email and per client.
    ///   - smsSender: delivers SMS codes for phone second factors.
    ///   - mfaLimits: lifetimes, attempt limits, lockouts and SMS quotas of second factors.
    ///   - rateLimits: the in-memory token buckets (see `RateLimiter`); nil turns them off.
    ///   - securityEvents: receives lockouts and exhausted quotas (for the log), once committed.
    ///   - outboundLimits: bounds on the calls access-token sign-ins make to identity providers.
    ///   - sessionPolicy: refresh-token rotation, reuse detection and the per-account session cap.
    ///   - acceptsUnsignedCustomTokens: whether `alg: none` custom tokens sign in (development only).
    ///   - emailSender: delivers the emails of email actions.
    ///   - emailActions: links, code lifetimes, send limits and enumeration protection of email actions.
    ///   - issuedOOBCodes: development only: records every email action code in plain text (log and listing).
    ///   - metrics: counts sign-ins by provider and outcome (``MetricsRecording``).
    ///   - audit: whether the services record audit events, and how long they are kept.
    public init(
        project: ProjectConfiguration, store: any HearthStore, time: any TimeSource = SystemTimeSource(),
        googleIssuers: [any GoogleAccessTokenIssuer], devIdentityProvider devConfiguration: DevIdPConfiguration? = nil,
        otherProviders: [IdentityProvider] = [],
        devApple devAppleSettings: (DevAppleConfiguration, any AppleClientSecretChecking)? = nil,
        providerTokens: ProviderTokenHandling = ProviderTokenHandling(),
        passwords: any PasswordHashing, passwordLockouts: PasswordLockouts = PasswordLockouts(),
        smsSender: any SMSSender = UnavailableSMSSender(), mfaLimits: MFAService.Limits = MFAService.Limits(),
        rateLimits: RateLimiter.Rules? = RateLimiter.Rules(),
        outboundLimits: OutboundCallLimits = OutboundCallLimits(),
        sessionPolicy: SessionPolicy = SessionPolicy(), acceptsUnsignedCustomTokens: Bool = false,
        emailSender: any EmailSender = UnavailableEmailSender(), emailActions: EmailActionSettings = EmailActionSettings(),
        issuedOOBCodes: IssuedOOBCodes? = nil,
        securityEvents: @escaping @Sendable (SecurityEvent) -> Void = { _ in },
        metrics: any MetricsRecording = NoMetrics(), audit: AuditLog = AuditLog()
    ) throws {
        self.project = project
        self.audit = audit
        self.store = store
        self.time = time
        rateLimiter = RateLimiter(rules: rateLimits ?? RateLimiter.Rules(), time: time, isEnabled: rateLimits != nil)
        sessionKeys = SigningKeyRing(
            store: store, time: time, owner: .sessions, tokenLifetime: project.idTokenLifetime, audit: audit)
        try sessionKeys.loadOrCreate()
        var issuers = googleIssuers
        if let devConfiguration {
            let devKeys = SigningKeyRing(
                store: store, time: time, owner: .devIdentityProvider, tokenLifetime: devConfiguration.idTokenLifetime)
            try devKeys.loadOrCreate()
            let dev = DevIdentityProvider(configuration: devConfiguration, store: store, keys: devKeys, time: time)
            devIdentityProvider = dev
            issuers.insert(dev, at: 0)
        } else {
            devIdentityProvider = nil
        }
        var providers = [IdentityProvider.google(issuers: issuers, clientIDs: project.googleClientIDs)] + otherProviders
        if let (configuration, clientSecrets) = devAppleSettings, let devIdentityProvider {
            let apple = try DevAppleProvider(
                configuration: configuration, accounts: devIdentityProvider, store: store, time: time,
                clientSecrets: clientSecrets)
            devApple = apple
            if let index = providers.firstIndex(where: { $0.id == IdentityProvider.appleID }) {
                providers[index].issuers.insert(apple, at: 0)
                providers[index].clientIDs.formUnion(configuration.clientIDs)
            } else {
                providers.append(.apple(issuers: [apple], clientIDs: configuration.clientIDs))
            }
        } else {
            devApple = nil
        }
        tokens = TokenService(
            project: project, store: store, keys: sessionKeys, time: time, policy: sessionPolicy, audit: audit)
        identityProviders = IdentityProviderRegistry(
            providers: providers, time: time, clockSkew: project.clockSkew, limits: outboundLimits)
        mfa = MFAService(
            project: project, store: store, tokens: tokens, time: time, sms: smsSender, limits: mfaLimits,
            limiter: rateLimiter, report: securityEvents, audit: audit)
        customTokens = CustomTokenSignIn(
            project: project, store: store, tokens: tokens, mfa: mfa, time: time, limiter: rateLimiter,
            acceptsUnsignedTokens: acceptsUnsignedCustomTokens, audit: audit)
        serviceAccountTokens = ServiceAccountTokenIssuer(project: project, store: store, keys: sessionKeys, time: time)
        serviceAccountTokenVerifier = ServiceAccountTokenVerifier(issuer: serviceAccountTokens)
        administration = AdminService(
            store: store, time: time, maximumFactors: mfaLimits.maximumFactors, passwords: passwords,
            revocationsQueued: providerTokens.revocationsQueued, actor: .system, audit: audit)
        self.emailActions = EmailActionService(
            project: project, store: store, tokens: tokens, mfa: mfa, time: time, sender: emailSender,
            passwords: passwords, settings: emailActions, limiter: rateLimiter, issuedCodes: issuedOOBCodes,
            report: securityEvents, audit: audit)
        passwordAccounts = PasswordAccounts(
            project: project, store: store, tokens: tokens, mfa: mfa, time: time, hasher: passwords,
            lockouts: passwordLockouts, limiter: rateLimiter, report: securityEvents, audit: audit,
            emailChanges: emailActions.emailChanges)
        accounts = AccountService(
            project: project, store: store, tokens: tokens, providers: identityProviders, mfa: mfa, time: time,
            limiter: rateLimiter, providerTokens: providerTokens, emailActions: self.emailActions,
            passwords: passwordAccounts, metrics: metrics, audit: audit)
    }

    /// Firebase's admin account operations, for a caller the request edge (or the console, or the command line)
    /// authorized: every change they make is recorded as done by `actor`. There is no default caller.
    public func admin(as actor: AuditActor) -> AdminService { administration.acting(as: actor) }
}
