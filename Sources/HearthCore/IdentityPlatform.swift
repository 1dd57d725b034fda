/// Everything one Hearth project runs on, wired together: the store, the session signing keys,
/// token minting, account operations and the identity providers.
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
    /// Firebase's admin account operations and the operator's, used by the admin API, the console and
    /// `hearth users`; each operation that changes something is told its ``Caller``.
    public let admin: AdminService
    /// Identity Platform's tenant API (`/v2/projects/{p}/tenants…`).
    public let tenants: TenantService
    /// Identity Platform's provider-configuration API (`oauthIdpConfigs`, `defaultSupportedIdpConfigs`).
    public let providerConfigs: ProviderConfigService
    /// Identity Platform's project configuration API (`/v2/projects/{p}/config`).
    public let projectConfig: ProjectConfigService
    /// The enforced configuration settings of each scope, cached for at most 5 s (shared by every scope's services).
    public let configDirectory: ProjectConfigDirectory
    /// This scope's enforced settings, as its services read them.
    public let settings: ScopeSettings
    /// The in-memory rate limits of this instance, shared by the request edge and the services.
    public let rateLimiter: RateLimiter
    /// The identity providers `signInWithIdp` accepts.
    public let identityProviders: IdentityProviderRegistry
    /// Email actions: `sendOobCode`, `resetPassword`, applying codes, email-link sign-in, `createAuthUri`.
    public let emailActions: EmailActionService
    /// SAML sign-in with the scope's `inboundSamlConfigs` (`createAuthUri`'s start, `signInWithIdp`'s check).
    public let saml: SAMLSignIn
    /// The audit log's settings, which every service writes its events under.
    public let audit: AuditLog
    /// What the services share (store, clock, rate limiter, audit log, security events, metrics, project).
    public let context: ServiceContext

    /// What this platform was wired from, kept so that ``scoped(to:)`` wires a tenant's services alike.
    let configuration: Configuration

    /// Loads (or on first start creates) the signing keys, and wires every service from `configuration`.
    public convenience init(_ configuration: Configuration, store: any HearthStore, time: any TimeSource = SystemTimeSource()) throws {
        let project = configuration.project
        let rateLimits = configuration.rateLimits
        let rateLimiter = RateLimiter(rules: rateLimits ?? RateLimiter.Rules(), time: time, isEnabled: rateLimits != nil)
        let sessionKeys = SigningKeyRing(
            store: store, time: time, owner: .sessions, tokenLifetime: project.idTokenLifetime, audit: configuration.audit)
        try sessionKeys.loadOrCreate()
        let providers = [IdentityProvider.google(issuers: configuration.googleIssuers, clientIDs: project.googleClientIDs)]
            + configuration.otherProviders
        let directory = configuration.makeOpenIDProvider.map {
            ProviderConfigDirectory(store: store, time: time, make: $0)
        }
        let identityProviders = IdentityProviderRegistry(
            providers: providers, time: time, clockSkew: project.clockSkew, limits: configuration.outboundLimits,
            directory: directory)
        self.init(
            configuration, store: store, time: time, rateLimiter: rateLimiter, sessionKeys: sessionKeys,
            identityProviders: identityProviders, configDirectory: ProjectConfigDirectory(time: time))
    }

    /// Wires every service over `store` (the project's or a tenant's view), sharing the given instance-wide parts.
    private init(
        _ configuration: Configuration, store: any HearthStore, time: any TimeSource, rateLimiter: RateLimiter,
        sessionKeys: SigningKeyRing, identityProviders: IdentityProviderRegistry, configDirectory: ProjectConfigDirectory
    ) {
        let project = configuration.project
        let audit = configuration.audit
        self.configuration = configuration
        self.project = project
        self.audit = audit
        self.store = store
        self.time = time
        self.rateLimiter = rateLimiter
        self.sessionKeys = sessionKeys
        self.identityProviders = identityProviders
        let context = ServiceContext(
            project: project, store: store, time: time, rateLimiter: rateLimiter, audit: audit,
            securityEvents: configuration.securityEvents, metrics: configuration.metrics)
        self.context = context
        tokens = TokenService(context: context, keys: sessionKeys, policy: configuration.sessionPolicy)
        providerConfigs = ProviderConfigService(
            context: context, fileDeclared: identityProviders.providerIDs.compactMap(identityProviders.provider),
            changed: { identityProviders.directory?.forget($0) })
        self.configDirectory = configDirectory
        let projectConfig = ProjectConfigService(
            context: context, file: configuration.fileConfig,
            authorizedDomains: configuration.emailActions.authorizedDomainList, changed: { configDirectory.forget($0) })
        self.projectConfig = projectConfig
        let settings = ScopeSettings(scope: store.scope, directory: configDirectory, service: projectConfig)
        self.settings = settings
        mfa = MFAService(
            context: context, tokens: tokens, sms: configuration.smsSender, limits: configuration.mfaLimits,
            scopeSettings: settings)
        customTokens = CustomTokenSignIn(
            context: context, tokens: tokens, mfa: mfa, acceptsUnsignedTokens: configuration.acceptsUnsignedCustomTokens)
        serviceAccountTokens = ServiceAccountTokenIssuer(project: project, store: store, keys: sessionKeys, time: time)
        serviceAccountTokenVerifier = ServiceAccountTokenVerifier(issuer: serviceAccountTokens)
        admin = AdminService(
            context: context, maximumFactors: configuration.mfaLimits.maximumFactors, passwords: configuration.passwords,
            scopeSettings: settings, revocationsQueued: configuration.providerTokens.revocationsQueued)
        tenants = TenantService(context: context)
        let saml = SAMLSignIn(context: context, keys: sessionKeys)
        self.saml = saml
        emailActions = EmailActionService(
            context: context, tokens: tokens, mfa: mfa, sender: configuration.emailSender,
            passwords: configuration.passwords, settings: configuration.emailActions, scopeSettings: settings,
            issuedCodes: configuration.issuedOOBCodes, saml: saml)
        passwordAccounts = PasswordAccounts(
            context: context, tokens: tokens, mfa: mfa, hasher: configuration.passwords, scopeSettings: settings,
            lockouts: configuration.passwordLockouts, emailChanges: configuration.emailActions.emailChanges,
            emailActions: emailActions)
        accounts = AccountService(
            context: context, tokens: tokens, providers: identityProviders, mfa: mfa,
            providerTokens: configuration.providerTokens, emailActions: emailActions, passwords: passwordAccounts,
            saml: saml)
    }

    /// The services acting in `scope` (``StoreScope``): over the store's view `store.scoped(to: scope)`, sharing this
    /// platform's signing keys, rate limiter, identity providers, metrics and senders. A tenant's token service writes
    /// `firebase.tenant` into its ID tokens and session cookies, and each platform refuses the others' tokens
    /// (`TENANT_ID_MISMATCH`). Cheap but not free (it wires every service): ``TenantPlatforms`` keeps them.
    public func scoped(to scope: StoreScope) -> IdentityPlatform {
        guard scope != store.scope else { return self }
        return IdentityPlatform(
            configuration, store: store.scoped(to: scope), time: time, rateLimiter: rateLimiter,
            sessionKeys: sessionKeys, identityProviders: identityProviders, configDirectory: configDirectory)
    }

    /// The enforced configuration settings of this platform's scope (cached for at most 5 s,
    /// ``ProjectConfigDirectory``).
    public func configSettings() throws -> ProjectSettings {
        try settings.current()
    }

    /// The tenant these services act for; nil for the project itself.
    public var tenantID: String? { store.scope.tenant }
}
extension IdentityPlatform {
    /// What a platform is made of besides its store and clock: one value, every part but the project and the
    /// password hasher defaulted to "off" or the documented defaults.
    public struct Configuration: Sendable {
        public var project: ProjectConfiguration
        /// Hashes and checks every password (Argon2id in `hearth serve`).
        public var passwords: any PasswordHashing
        /// Issuers whose tokens count as Google sign-ins (normally Google itself; in `--dev` the dev IdP first, see
        /// HearthDevProviders' `DevProviders`), for the project's Google client IDs.
        public var googleIssuers: [any GoogleAccessTokenIssuer] = []
        /// The other enabled providers (`apple.com`, `oidc.*`; in `--dev` the dev Apple among Apple's issuers).
        public var otherProviders: [IdentityProvider] = []
        /// Makes the sign-in entries of enabled `oidc.*` configurations made through the admin API; nil: they are
        /// stored and answered, but `signInWithIdp` does not take them.
        public var makeOpenIDProvider: OpenIDProviderMaking?
        /// Apple's code exchange and the wake-up of queued revocations.
        public var providerTokens = ProviderTokenHandling()
        /// The wrong-password counters per email and per client.
        public var passwordLockouts = PasswordLockouts()
        /// Delivers SMS codes for phone second factors.
        public var smsSender: any SMSSender = UnavailableSMSSender()
        /// Lifetimes, attempt limits, lockouts and SMS quotas of second factors.
        public var mfaLimits = MFAService.Limits()
        /// The in-memory token buckets (see `RateLimiter`); nil turns them off.
        public var rateLimits: RateLimiter.Rules? = RateLimiter.Rules()
        /// Bounds on the calls access-token sign-ins make to identity providers.
        public var outboundLimits = OutboundCallLimits()
        /// Refresh-token rotation, reuse detection, the per-account session cap and the recent-sign-in window.
        public var sessionPolicy = SessionPolicy()
        /// Whether `alg: none` custom tokens sign in (development only).
        public var acceptsUnsignedCustomTokens = false
        /// Delivers the emails of email actions.
        public var emailSender: any EmailSender = UnavailableEmailSender()
        /// Links, code lifetimes, send limits and enumeration protection of email actions.
        public var emailActions = EmailActionSettings()
        /// Development only: records every email action code in plain text (log and listing).
        public var issuedOOBCodes: IssuedOOBCodes?
        /// Receives lockouts and exhausted quotas (for the log), once committed.
        public var securityEvents: @Sendable (SecurityEvent) -> Void = { _ in }
        /// Counts sign-ins by provider and outcome (``MetricsRecording``).
        public var metrics: any MetricsRecording = NoMetrics()
        /// Whether the services record audit events, and how long they are kept.
        public var audit = AuditLog()
        /// The project configuration settings the config file declares (locked in the config API).
        public var fileConfig = FileDeclaredConfig()

        public init(project: ProjectConfiguration, passwords: any PasswordHashing) {
            self.project = project
            self.passwords = passwords
        }
    }
}
