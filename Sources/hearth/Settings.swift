import Foundation
import HearthCommandLine
import HearthCore
import HearthCrypto

/// Settings of `hearth serve` and `hearth keys`, resolved from flags, then `HEARTH_*` environment
/// variables, then the JSON config file, then defaults.
struct Settings {
    var host = "127.0.0.1"
    var port: UInt16 = 9099
    var dataDirectory = "./.hearth"
    /// Where the store lives (`--database`, `HEARTH_DATABASE_URL`, `database`); nil: `hearth.sqlite` in the data directory.
    var database: DatabaseLocation?
    var publicURL: String?
    var projectID: String?
    var projectNumber: String?
    var development = false
    /// Whether ID tokens name `https://securetoken.google.com/<project>` as their issuer; nil: in `--dev` only.
    var firebaseIssuer: Bool?
    var threads: Int?
    var apiKeys: [String] = []
    var googleClientIDs: [String] = []
    /// Extra OpenID issuers whose tokens count as Google sign-ins (a mock Google in tests).
    var extraGoogleIssuers: [IssuerEntry] = []
    /// Sign in with Apple (`apple` in the config file, `HEARTH_APPLE_CLIENT_IDS`).
    var apple = AppleSettings()
    /// Configured OpenID Connect providers (`oidcProviders` in the config file).
    var openIDProviders: [OpenIDProviderSettings] = []
    /// Second-factor kinds sign-in asks for; nil means the default (both with `--dev`, none otherwise).
    var mfaFactors: Set<MFAPolicy.Factor>?
    var sms = SMSSettings()
    /// How action emails are delivered (`email` in the config file, `HEARTH_SMTP_*`; docs/CONFIGURATION.md, "Email delivery").
    var email = EmailSettings()
    /// The key that seals private signing keys, TOTP secrets and provider tokens at rest, and older keys that only open
    /// (docs/CONFIGURATION.md, "Secrets at rest"); nil: secrets are stored unencrypted.
    var encryptionKey: EncryptionKeySource?
    var previousEncryptionKeys: EncryptionKeySource?
    /// Proxies whose `X-Forwarded-For` names the client (addresses or CIDR blocks).
    var trustedProxies: [String] = []
    /// Web origins besides loopback ones (in `--dev`) and Hearth's own that may call the development
    /// helpers and the dev IdP cross-origin, and are granted Private Network Access.
    var trustedOrigins: [String] = []
    /// Overrides of the in-memory rate limits; the rest keep their defaults (relaxed 100× with `--dev`).
    var rateLimitOverrides: [String: RateSettings] = [:]
    /// `HEARTH_RATE_LIMITS=off` turns the in-memory buckets off (to measure what they cost; the
    /// database-kept lockouts and quotas stay).
    var rateLimiting = true
    /// Email enumeration protection and wrong-password lockouts (Settings+PasswordSignIn.swift).
    var passwordSignIn = PasswordSignInSettings()
    /// Argon2id cost, the hashing gate and the password policy (`passwords` in the config file, `HEARTH_ARGON2_*`).
    var passwords = Passwords()
    /// Metrics, health endpoints and the log format (Settings+Operations.swift).
    var operations = Operations()
    /// Who may use the admin console and how they sign in (Settings+Console.swift).
    var console = ConsoleSettings()
    /// Whether the audit log is written and how long it is kept (`audit` in the config file, `HEARTH_AUDIT*`;
    /// Settings+Audit.swift).
    var audit = AuditLog()

    /// `{"burst": 60, "perMinute": 120}`: a token bucket.
    struct RateSettings: Decodable {
        var burst: Double
        var perMinute: Double
    }

    /// `{"burst": 5, "lockoutSeconds": 900, "maximumPerDay": 20}`: wrong codes before a lockout.
    struct LockoutSettings: Decodable {
        var burst: Int
        var lockoutSeconds: Int64
        var maximumPerDay: Int
    }
    var httpLimits = HTTPLimits()

    /// How SMS codes are delivered: the development log (only with `--dev`), a webhook, or a
    /// Twilio-compatible API.
    struct SMSSettings: Decodable {
        var webhookUrl: String?
        var webhookSecret: String?
        var twilioBaseUrl: String?
        var twilioAccountSid: String?
        var twilioAuthToken: String?
        var twilioFrom: String?
    }

    /// `"mfa": {"enabled": true, "factors": ["phone", "totp"], "pendingCredentialLifetimeSeconds": 600, "smsCodeLifetimeSeconds": 300}`.
    struct MFASettings: Decodable {
        var enabled: Bool
        var factors: [String]?
        var pendingCredentialLifetimeSeconds: Int64?
        var smsCodeLifetimeSeconds: Int64?
        var factorLockout: LockoutSettings?
        var clientLockout: LockoutSettings?
        var smsPerAccountPerHour: Int?
        var smsPerClientPerHour: Int?
        var smsPerProjectPerHour: Int?
    }
    var mfaLimits = MFAService.Limits()

    /// `"outbound": {"timeoutSeconds": 5, "maxConcurrentChecks": 2, "maxConcurrentChecksPerClient": 1,
    /// "accessTokenCacheSize": 10000, "accessTokenCacheSeconds": 3600}` (docs/CONFIGURATION.md, "Outbound calls").
    struct OutboundSettings: Decodable {
        var timeoutSeconds: Double?
        var maxConcurrentChecks: Int?
        var maxConcurrentChecksPerClient: Int?
        var accessTokenCacheSize: Int?
        var accessTokenCacheSeconds: Int64?

        static let keys: Set<String> = [
            "timeoutSeconds", "maxConcurrentChecks", "maxConcurrentChecksPerClient", "accessTokenCacheSize",
            "accessTokenCacheSeconds",
        ]
    }
    var outbound = OutboundSettings()
    /// `"sessions": {"rotateRefreshTokens": true, "reuseGraceSeconds": 60, "maxPerAccount": 100, …}`
    /// (docs/CONFIGURATION.md, "Sessions").
    struct SessionSettings: Decodable {
        var rotateRefreshTokens: Bool?
        var reuseGraceSeconds: Int64?
        var maxPerAccount: Int?
        var reuseDetectionSeconds: Int64?
        var revokedRetentionSeconds: Int64?
        var purgeIntervalSeconds: Int64?
        var purgeBatchSize: Int?
        var recentSignInSeconds: Int64?
    }
    var sessionPolicy = SessionPolicy()
    var purgeSchedule = MaintenanceTask.Schedule()
    /// Anonymous accounts are deleted this many days after they were created unless upgraded; 0 keeps them
    /// (docs/CONFIGURATION.md, "Maintenance task and anonymous accounts").
    var anonymousAccountDays = 30
    /// Code lifetimes and send limits of email actions, and the app name emails show (docs/CONFIGURATION.md, "Email actions").
    var emailActions = EmailActionFileSettings()
    /// The project's sign-in switches (`signIn` in the config file; Settings+ProjectConfig.swift).
    var signIn: SignInFile?

    /// `"anonymousAccounts": {"deleteAfterDays": 30}`.
    struct AnonymousAccountSettings: Decodable {
        var deleteAfterDays: Int?

        static let keys: Set<String> = ["deleteAfterDays"]
    }

    struct IssuerEntry: Decodable {
        var issuer: String
        var jwksUri: String
        var tokeninfoUri: String?
        var userinfoUri: String?
    }

    static let developmentProjectID = "demo-hearth"
    static let developmentClientID = "hearth-dev.apps.googleusercontent.com"

    /// The JSON config file (docs/CONFIGURATION.md). Unknown keys are an error, so typos do not go unnoticed.
    private struct File: Decodable {
        var host: String?
        var port: UInt16?
        var dataDir: String?
        var database: String?
        var publicUrl: String?
        var projectId: String?
        var projectNumber: String?
        var dev: Bool?
        var firebaseIssuer: Bool?
        var threads: Int?
        var apiKeys: [String]?
        var googleClientIds: [String]?
        var googleIssuers: [IssuerEntry]?
        var apple: AppleSettings?
        var oidcProviders: [OpenIDProviderSettings]?
        var mfa: MFASettings?
        var sms: SMSSettings?
        var email: EmailSettings?
        var trustedProxies: [String]?
        var trustedOrigins: [String]?
        var rateLimits: [String: RateSettings]?
        var encryptionKeyFile: String?
        var encryptionKeyPreviousFile: String?
        var outbound: OutboundSettings?
        var http: HTTPLimits?
        var sessions: SessionSettings?
        var anonymousAccounts: AnonymousAccountSettings?
        var emailActions: EmailActionFileSettings?
        var emailPrivacy: EmailPrivacySettings?
        var passwordLockout: PasswordLockoutSettings?
        var passwords: PasswordsFile?
        var console: ConsoleSettings?
        var metrics: Operations.MetricsFile?
        var logFormat: String?
        var shutdownDelaySeconds: Int?
        var audit: AuditFile?
        var signIn: SignInFile?
    }

    private static let fileKeys: Set<String> = [
        "host", "port", "dataDir", "database", "publicUrl", "projectId", "projectNumber", "dev", "firebaseIssuer", "threads",
        "apiKeys", "googleClientIds", "googleIssuers", "apple", "oidcProviders", "mfa", "sms", "trustedProxies",
        "trustedOrigins", "rateLimits", "encryptionKeyFile", "encryptionKeyPreviousFile", "outbound", "http", "sessions",
        "anonymousAccounts", "emailActions", "passwords", "email", "emailPrivacy", "passwordLockout",
        "metrics", "logFormat", "shutdownDelaySeconds", "audit", "console", "signIn",
    ]

    /// The options of every command that opens the store.
    static let storeOptions: Set<String> = ["data-dir", "database", "config", "encryption-key-file", "encryption-key-previous-file"]
    static let valuedOptions: Set<String> = storeOptions.union([
        "host", "port", "public-url", "project-id", "threads", "trusted-proxies",
    ]).union(Operations.valuedOptions)
    static let switchOptions: Set<String> = ["dev", "firebase-issuer", "hearth-issuer", "help"]

    init(options: ParsedOptions, environment: [String: String]) throws {
        if let path = options.values["config"] ?? environment["HEARTH_CONFIG"] {
            try apply(file: path)
        }
        try apply(environment: environment)
        try apply(options: options)
        try checkSessions()
        try checkProviders()
        try checkEmail()
        try checkConsole()
    }

    private mutating func apply(file path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read config file \(path)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UsageError("config file \(path) is not a JSON object")
        }
        if let unknown = object.keys.first(where: { !Self.fileKeys.contains($0) }) {
            throw UsageError("config file \(path): unknown setting '\(unknown)'")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw UsageError("config file \(path): a setting has the wrong type")
        }
        host = file.host ?? host
        port = file.port ?? port
        dataDirectory = file.dataDir ?? dataDirectory
        if let value = file.database { database = try DatabaseLocation(parsing: value, source: "config database") }
        publicURL = file.publicUrl ?? publicURL
        projectID = file.projectId ?? projectID
        projectNumber = file.projectNumber ?? projectNumber
        development = file.dev ?? development
        firebaseIssuer = file.firebaseIssuer ?? firebaseIssuer
        threads = file.threads ?? threads
        apiKeys = file.apiKeys ?? apiKeys
        googleClientIDs = file.googleClientIds ?? googleClientIDs
        extraGoogleIssuers = file.googleIssuers ?? extraGoogleIssuers
        try applyProviders(apple: file.apple, openID: file.oidcProviders, fileObject: object, path: path)
        if let mfa = file.mfa {
            mfaFactors = mfa.enabled ? try Self.factors(mfa.factors ?? ["phone", "totp"], source: "config mfa.factors") : []
            for (value, name) in [(mfa.pendingCredentialLifetimeSeconds, "pendingCredentialLifetimeSeconds"), (mfa.smsCodeLifetimeSeconds, "smsCodeLifetimeSeconds")] {
                if let value, !(1...86_400).contains(value) { throw UsageError("config mfa.\(name) must be between 1 and 86400") }
            }
            mfaLimits.pendingCredentialLifetime = mfa.pendingCredentialLifetimeSeconds ?? mfaLimits.pendingCredentialLifetime
            mfaLimits.phoneCodeLifetime = mfa.smsCodeLifetimeSeconds ?? mfaLimits.phoneCodeLifetime
            try applyLimits(mfa)
        }
        if let fileSMS = file.sms { sms = fileSMS }
        try Self.checkSignInKeys(in: object, path: path)
        signIn = file.signIn ?? signIn
        try checkTestPhoneNumbers()
        try applyEmail(file.email, fileObject: object, path: path)
        trustedProxies = file.trustedProxies ?? trustedProxies
        trustedOrigins = file.trustedOrigins ?? trustedOrigins
        if let rates = file.rateLimits {
            let names = Set(RateLimiter.Bucket.allCases.map(\.rawValue))
            for (name, rate) in rates {
                guard names.contains(name) else {
                    throw UsageError("config rateLimits: unknown limit '\(name)' (one of \(names.sorted().joined(separator: ", ")))")
                }
                guard rate.burst >= 1, rate.perMinute > 0 else {
                    throw UsageError("config rateLimits.\(name): burst must be at least 1 and perMinute above 0")
                }
            }
            rateLimitOverrides = rates
        }
        if let fileOutbound = file.outbound {
            try Self.checkKeys(of: "outbound", in: object, known: OutboundSettings.keys, path: path)
            outbound = fileOutbound
        }
        if let http = file.http {
            try http.validate(fileObject: object["http"] as Any, path: path)
            httpLimits = http
        }
        if let sessions = file.sessions { apply(sessions: sessions) }
        if let anonymous = file.anonymousAccounts {
            try Self.checkKeys(of: "anonymousAccounts", in: object, known: AnonymousAccountSettings.keys, path: path)
            anonymousAccountDays = anonymous.deleteAfterDays ?? anonymousAccountDays
        }
        if let actions = file.emailActions {
            try Self.checkKeys(of: "emailActions", in: object, known: EmailActionFileSettings.keys, path: path)
            try actions.validate()
            emailActions = actions
        }
        try applyPasswordSignIn(
            emailPrivacy: file.emailPrivacy, lockout: file.passwordLockout, fileObject: object, path: path)
        encryptionKey = file.encryptionKeyFile.map(EncryptionKeySource.file) ?? encryptionKey
        previousEncryptionKeys = file.encryptionKeyPreviousFile.map(EncryptionKeySource.file) ?? previousEncryptionKeys
        if let filePasswords = file.passwords { try passwords.apply(file: filePasswords, fileObject: object["passwords"], path: path) }
        try applyConsole(file.console, fileObject: object, path: path)
        try Self.checkKeys(of: "metrics", in: object, known: Operations.metricsFileKeys, path: path)
        try operations.apply(metrics: file.metrics, logFormat: file.logFormat, shutdownDelay: file.shutdownDelaySeconds)
        try applyAudit(file.audit, fileObject: object, path: path)
    }

    /// Refuses a key of the config file's object `section` that is not `known`, so typos do not go unnoticed.
    /// `prefix` names the enclosing object in the message (`email.`).
    static func checkKeys(of section: String, in object: [String: Any], known: Set<String>, path: String, prefix: String = "") throws {
        let given = (object[section] as? [String: Any])?.keys ?? [:].keys
        if let unknown = given.first(where: { !known.contains($0) }) {
            throw UsageError("config file \(path): unknown setting '\(prefix)\(section).\(unknown)'")
        }
    }

    /// The lockout and SMS quota settings of `mfa` in the config file.
    private mutating func applyLimits(_ mfa: MFASettings) throws {
        for (settings, name, path) in [
            (mfa.factorLockout, "factorLockout", \MFAService.Limits.factorFailures),
            (mfa.clientLockout, "clientLockout", \MFAService.Limits.clientFailures),
        ] {
            guard let settings else { continue }
            guard settings.burst >= 1, settings.lockoutSeconds >= 1, settings.maximumPerDay >= settings.burst else {
                throw UsageError("config mfa.\(name): burst and lockoutSeconds must be at least 1, maximumPerDay at least burst")
            }
            mfaLimits[keyPath: path] = FailureLockout(
                burst: settings.burst, lockout: settings.lockoutSeconds, maximumPerWindow: settings.maximumPerDay,
                window: 86_400)
        }
        for (value, name, path) in [
            (mfa.smsPerAccountPerHour, "smsPerAccountPerHour", \MFAService.Limits.smsPerAccount),
            (mfa.smsPerClientPerHour, "smsPerClientPerHour", \MFAService.Limits.smsPerClient),
            (mfa.smsPerProjectPerHour, "smsPerProjectPerHour", \MFAService.Limits.smsPerProject),
        ] {
            guard let value else { continue }
            guard value >= 1 else { throw UsageError("config mfa.\(name) must be at least 1") }
            mfaLimits[keyPath: path] = WindowQuota(limit: value, window: 3_600)
        }
    }

    /// The in-memory rate limits: defaults (100× with `--dev`), then the config file's overrides; nil
    /// when turned off.
    var rateLimits: RateLimiter.Rules? {
        guard rateLimiting else { return nil }
        var rules = development ? RateLimiter.Rules().relaxed(by: 100) : RateLimiter.Rules()
        for bucket in RateLimiter.Bucket.allCases {
            if let rate = rateLimitOverrides[bucket.rawValue] {
                rules[bucket] = .burst(rate.burst, perMinute: rate.perMinute)
            }
        }
        return rules
    }

    private mutating func apply(sessions: SessionSettings) {
        sessionPolicy.rotatesRefreshTokens = sessions.rotateRefreshTokens ?? sessionPolicy.rotatesRefreshTokens
        sessionPolicy.reuseGracePeriod = sessions.reuseGraceSeconds ?? sessionPolicy.reuseGracePeriod
        sessionPolicy.maximumSessionsPerAccount = sessions.maxPerAccount ?? sessionPolicy.maximumSessionsPerAccount
        sessionPolicy.reuseDetectionPeriod = sessions.reuseDetectionSeconds ?? sessionPolicy.reuseDetectionPeriod
        sessionPolicy.revokedRetention = sessions.revokedRetentionSeconds ?? sessionPolicy.revokedRetention
        purgeSchedule.interval = sessions.purgeIntervalSeconds ?? purgeSchedule.interval
        purgeSchedule.batchSize = sessions.purgeBatchSize ?? purgeSchedule.batchSize
        sessionPolicy.recentSignInWindow = sessions.recentSignInSeconds ?? sessionPolicy.recentSignInWindow
    }

    /// The session settings in effect must make sense together, wherever each came from.
    private func checkSessions() throws {
        let tenYears: Int64 = 10 * 366 * 86_400
        let policy = sessionPolicy
        guard (0...3_600).contains(policy.reuseGracePeriod) else {
            throw UsageError("sessions.reuseGraceSeconds (HEARTH_REFRESH_REUSE_GRACE_SECONDS) must be between 0 and 3600")
        }
        guard (1...100_000).contains(policy.maximumSessionsPerAccount) else {
            throw UsageError("sessions.maxPerAccount (HEARTH_MAX_SESSIONS_PER_ACCOUNT) must be between 1 and 100000")
        }
        guard (policy.reuseGracePeriod...tenYears).contains(policy.reuseDetectionPeriod) else {
            throw UsageError("sessions.reuseDetectionSeconds must be at least sessions.reuseGraceSeconds and at most 10 years")
        }
        guard (0...tenYears).contains(policy.revokedRetention) else {
            throw UsageError("sessions.revokedRetentionSeconds must be between 0 and 10 years")
        }
        guard (1...300).contains(policy.recentSignInWindow) else {
            throw UsageError("sessions.recentSignInSeconds must be between 1 and 300 (it may only be shorter than Firebase's five minutes)")
        }
        guard (1...86_400).contains(purgeSchedule.interval), (1...100_000).contains(purgeSchedule.batchSize) else {
            throw UsageError("sessions.purgeIntervalSeconds must be between 1 and 86400, sessions.purgeBatchSize between 1 and 100000")
        }
        guard (0...36_500).contains(anonymousAccountDays) else {
            throw UsageError("anonymousAccounts.deleteAfterDays (HEARTH_ANONYMOUS_ACCOUNT_DAYS) must be between 0 (keep) and 36500")
        }
    }

    private mutating func apply(environment: [String: String]) throws {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        host = nonEmpty("HEARTH_HOST") ?? host
        if let value = nonEmpty("HEARTH_PORT") { port = try Self.port(value, source: "HEARTH_PORT") }
        dataDirectory = nonEmpty("HEARTH_DATA_DIR") ?? dataDirectory
        if let value = nonEmpty("HEARTH_DATABASE_URL") {
            database = try DatabaseLocation(parsing: value, source: "HEARTH_DATABASE_URL")
        }
        publicURL = nonEmpty("HEARTH_PUBLIC_URL") ?? publicURL
        projectID = nonEmpty("HEARTH_PROJECT_ID") ?? projectID
        if let value = nonEmpty("HEARTH_DEV") { development = try Self.flag(value, source: "HEARTH_DEV") }
        if let value = nonEmpty("HEARTH_FIREBASE_ISSUER") {
            firebaseIssuer = try Self.flag(value, source: "HEARTH_FIREBASE_ISSUER")
        }
        if let value = nonEmpty("HEARTH_THREADS") { threads = try Self.threads(value, source: "HEARTH_THREADS") }
        if let value = nonEmpty("HEARTH_API_KEYS") { apiKeys = Self.list(value) }
        if let value = nonEmpty("HEARTH_GOOGLE_CLIENT_IDS") { googleClientIDs = Self.list(value) }
        if let value = nonEmpty("HEARTH_APPLE_CLIENT_IDS") { apple.clientIds = Self.list(value) }
        if let value = nonEmpty("HEARTH_MFA") {
            mfaFactors = value.lowercased() == "off" ? [] : try Self.factors(Self.list(value), source: "HEARTH_MFA")
        }
        sms.webhookUrl = nonEmpty("HEARTH_SMS_WEBHOOK_URL") ?? sms.webhookUrl
        sms.webhookSecret = nonEmpty("HEARTH_SMS_WEBHOOK_SECRET") ?? sms.webhookSecret
        sms.twilioBaseUrl = nonEmpty("HEARTH_TWILIO_BASE_URL") ?? sms.twilioBaseUrl
        sms.twilioAccountSid = nonEmpty("HEARTH_TWILIO_ACCOUNT_SID") ?? sms.twilioAccountSid
        sms.twilioAuthToken = nonEmpty("HEARTH_TWILIO_AUTH_TOKEN") ?? sms.twilioAuthToken
        sms.twilioFrom = nonEmpty("HEARTH_TWILIO_FROM") ?? sms.twilioFrom
        applyEmail(environment: environment)
        if let value = nonEmpty("HEARTH_TRUSTED_PROXIES") { trustedProxies = Self.list(value) }
        if let value = nonEmpty("HEARTH_TRUSTED_ORIGINS") { trustedOrigins = Self.list(value) }
        if let value = nonEmpty("HEARTH_RATE_LIMITS") { rateLimiting = try Self.flag(value, source: "HEARTH_RATE_LIMITS") }
        encryptionKey = try EncryptionKeySource(
            environment: environment, value: "HEARTH_ENCRYPTION_KEY", file: "HEARTH_ENCRYPTION_KEY_FILE") ?? encryptionKey
        previousEncryptionKeys = try EncryptionKeySource(
            environment: environment, value: "HEARTH_ENCRYPTION_KEY_PREVIOUS", file: "HEARTH_ENCRYPTION_KEY_PREVIOUS_FILE")
            ?? previousEncryptionKeys
        try httpLimits.apply(environment: environment)
        try applyPasswordSignIn(environment: environment)
        try passwords.apply(environment: environment)
        try operations.apply(environment: environment)
        try applyConsole(environment: environment)
        try applyAudit(environment: environment)
        if let value = nonEmpty("HEARTH_ROTATE_REFRESH_TOKENS") {
            sessionPolicy.rotatesRefreshTokens = try Self.flag(value, source: "HEARTH_ROTATE_REFRESH_TOKENS")
        }
        if let value = nonEmpty("HEARTH_REFRESH_REUSE_GRACE_SECONDS") {
            guard let seconds = Int64(value) else {
                throw UsageError("HEARTH_REFRESH_REUSE_GRACE_SECONDS must be a number of seconds, not '\(value)'")
            }
            sessionPolicy.reuseGracePeriod = seconds
        }
        if let value = nonEmpty("HEARTH_ANONYMOUS_ACCOUNT_DAYS") {
            guard let days = Int(value) else {
                throw UsageError("HEARTH_ANONYMOUS_ACCOUNT_DAYS must be a number of days, not '\(value)'")
            }
            anonymousAccountDays = days
        }
        if let value = nonEmpty("HEARTH_MAX_SESSIONS_PER_ACCOUNT") {
            guard let count = Int(value) else {
                throw UsageError("HEARTH_MAX_SESSIONS_PER_ACCOUNT must be a number, not '\(value)'")
            }
            sessionPolicy.maximumSessionsPerAccount = count
        }
    }

    private mutating func apply(options: ParsedOptions) throws {
        host = options.values["host"] ?? host
        if let value = options.values["port"] { port = try Self.port(value, source: "--port") }
        dataDirectory = options.values["data-dir"] ?? dataDirectory
        if let value = options.values["database"] { database = try DatabaseLocation(parsing: value, source: "--database") }
        publicURL = options.values["public-url"] ?? publicURL
        projectID = options.values["project-id"] ?? projectID
        if let value = options.values["threads"] { threads = try Self.threads(value, source: "--threads") }
        if let value = options.values["trusted-proxies"] { trustedProxies = Self.list(value) }
        if options.flags.contains("dev") { development = true }
        try operations.apply(options: options)
        if options.flags.contains("firebase-issuer") { firebaseIssuer = true }
        if options.flags.contains("hearth-issuer") { firebaseIssuer = false }
        encryptionKey = options.values["encryption-key-file"].map(EncryptionKeySource.file) ?? encryptionKey
        previousEncryptionKeys = options.values["encryption-key-previous-file"].map(EncryptionKeySource.file)
            ?? previousEncryptionKeys
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw UsageError("--public-url must start with http:// or https://")
        }
        if host.isEmpty { throw UsageError("--host must not be empty") }
    }

    private static func port(_ value: String, source: String) throws -> UInt16 {
        guard let port = UInt16(value) else { throw UsageError("\(source) must be a port number (0–65535), not '\(value)'") }
        return port
    }

    private static func threads(_ value: String, source: String) throws -> Int {
        guard let count = Int(value), (1...256).contains(count) else {
            throw UsageError("\(source) must be a number of threads between 1 and 256")
        }
        return count
    }

    static func flag(_ value: String, source: String) throws -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw UsageError("\(source) must be 1 or 0")
        }
    }

    private static func factors(_ names: [String], source: String) throws -> Set<MFAPolicy.Factor> {
        Set(try names.map { name in
            guard let factor = MFAPolicy.Factor(rawValue: name.lowercased()) else {
                throw UsageError("\(source): unknown second factor '\(name)' (phone or totp)")
            }
            return factor
        })
    }

    /// The project's MFA policy: as configured, else both factors in development and none otherwise.
    var mfaPolicy: MFAPolicy {
        let factors = mfaFactors ?? (development ? Set(MFAPolicy.Factor.allCases) : [])
        return factors.isEmpty ? .disabled : MFAPolicy(enabled: true, factors: factors)
    }

    static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The project id in effect: configured, or `demo-hearth` in development.
    func resolvedProjectID() throws -> String {
        if let projectID, !projectID.isEmpty { return projectID }
        if development { return Self.developmentProjectID }
        throw UsageError("no project id: pass --project-id (or HEARTH_PROJECT_ID), or use --dev")
    }

    /// A stable 12-digit project number derived from the project id (Firebase sends the number as `project_id`).
    func resolvedProjectNumber(projectID: String) -> String {
        if let projectNumber { return projectNumber }
        let digest = SHA256.hash(projectID)
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 900_000_000_000 + 100_000_000_000
        return String(value)
    }

    /// The outbound-call limits: as configured (checked), else the defaults, with at most half the HTTP threads
    /// (at least one) allowed to wait on access-token checks unless configured otherwise.
    func outboundLimits(httpThreads: Int) throws -> OutboundCallLimits {
        var limits = OutboundCallLimits()
        limits.maxConcurrentChecks = min(limits.maxConcurrentChecks, max(1, httpThreads / 2))
        if let timeout = outbound.timeoutSeconds {
            guard (0.1...120).contains(timeout) else { throw UsageError("config outbound.timeoutSeconds must be between 0.1 and 120") }
            limits.timeout = timeout
        }
        if let checks = outbound.maxConcurrentChecks {
            guard checks >= 1, checks < max(2, httpThreads) else {
                throw UsageError("config outbound.maxConcurrentChecks must be at least 1 and less than the HTTP threads (\(httpThreads))")
            }
            limits.maxConcurrentChecks = checks
        }
        if let perClient = outbound.maxConcurrentChecksPerClient {
            guard (1...limits.maxConcurrentChecks).contains(perClient) else {
                throw UsageError("config outbound.maxConcurrentChecksPerClient must be between 1 and maxConcurrentChecks")
            }
            limits.maxConcurrentChecksPerClient = perClient
        }
        if let size = outbound.accessTokenCacheSize {
            guard (0...1_000_000).contains(size) else { throw UsageError("config outbound.accessTokenCacheSize must be between 0 and 1000000") }
            limits.accessTokenCacheSize = size
        }
        if let seconds = outbound.accessTokenCacheSeconds {
            guard (0...86_400).contains(seconds) else { throw UsageError("config outbound.accessTokenCacheSeconds must be between 0 and 86400") }
            limits.accessTokenCacheLifetime = seconds
        }
        return limits
    }

    var databasePath: String { (dataDirectory as NSString).appendingPathComponent("hearth.sqlite") }

    /// The store in effect: as configured, else `hearth.sqlite` in the data directory.
    var databaseLocation: DatabaseLocation { database ?? .sqlite(path: databasePath) }
}
