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
    var publicURL: String?
    var projectID: String?
    var projectNumber: String?
    var development = false
    var firebaseIssuer = false
    var threads: Int?
    var apiKeys: [String] = []
    var googleClientIDs: [String] = []
    /// Extra OpenID issuers whose tokens count as Google sign-ins (a mock Google in tests).
    var extraGoogleIssuers: [IssuerEntry] = []
    /// Second-factor kinds sign-in asks for; nil means the default (both with `--dev`, none otherwise).
    var mfaFactors: Set<MFAPolicy.Factor>?
    var sms = SMSSettings()

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
    }
    var mfaLimits = MFAService.Limits()

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
    }
    var sessionPolicy = SessionPolicy()
    var purgeSchedule = SessionPurger.Schedule()

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
        var publicUrl: String?
        var projectId: String?
        var projectNumber: String?
        var dev: Bool?
        var firebaseIssuer: Bool?
        var threads: Int?
        var apiKeys: [String]?
        var googleClientIds: [String]?
        var googleIssuers: [IssuerEntry]?
        var mfa: MFASettings?
        var sms: SMSSettings?
        var sessions: SessionSettings?
    }

    private static let fileKeys: Set<String> = [
        "host", "port", "dataDir", "publicUrl", "projectId", "projectNumber", "dev", "firebaseIssuer", "threads",
        "apiKeys", "googleClientIds", "googleIssuers", "mfa", "sms", "sessions",
    ]

    static let valuedOptions: Set<String> = ["host", "port", "data-dir", "public-url", "project-id", "config", "threads"]
    static let switchOptions: Set<String> = ["dev", "firebase-issuer", "help"]

    init(options: ParsedOptions, environment: [String: String]) throws {
        if let path = options.values["config"] ?? environment["HEARTH_CONFIG"] {
            try apply(file: path)
        }
        try apply(environment: environment)
        try apply(options: options)
        try checkSessions()
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
        publicURL = file.publicUrl ?? publicURL
        projectID = file.projectId ?? projectID
        projectNumber = file.projectNumber ?? projectNumber
        development = file.dev ?? development
        firebaseIssuer = file.firebaseIssuer ?? firebaseIssuer
        threads = file.threads ?? threads
        apiKeys = file.apiKeys ?? apiKeys
        googleClientIDs = file.googleClientIds ?? googleClientIDs
        extraGoogleIssuers = file.googleIssuers ?? extraGoogleIssuers
        if let mfa = file.mfa {
            mfaFactors = mfa.enabled ? try Self.factors(mfa.factors ?? ["phone", "totp"], source: "config mfa.factors") : []
            for (value, name) in [(mfa.pendingCredentialLifetimeSeconds, "pendingCredentialLifetimeSeconds"), (mfa.smsCodeLifetimeSeconds, "smsCodeLifetimeSeconds")] {
                if let value, !(1...86_400).contains(value) { throw UsageError("config mfa.\(name) must be between 1 and 86400") }
            }
            mfaLimits.pendingCredentialLifetime = mfa.pendingCredentialLifetimeSeconds ?? mfaLimits.pendingCredentialLifetime
            mfaLimits.phoneCodeLifetime = mfa.smsCodeLifetimeSeconds ?? mfaLimits.phoneCodeLifetime
        }
        if let fileSMS = file.sms { sms = fileSMS }
        if let sessions = file.sessions { apply(sessions: sessions) }
    }

    private mutating func apply(sessions: SessionSettings) {
        sessionPolicy.rotatesRefreshTokens = sessions.rotateRefreshTokens ?? sessionPolicy.rotatesRefreshTokens
        sessionPolicy.reuseGracePeriod = sessions.reuseGraceSeconds ?? sessionPolicy.reuseGracePeriod
        sessionPolicy.maximumSessionsPerAccount = sessions.maxPerAccount ?? sessionPolicy.maximumSessionsPerAccount
        sessionPolicy.reuseDetectionPeriod = sessions.reuseDetectionSeconds ?? sessionPolicy.reuseDetectionPeriod
        sessionPolicy.revokedRetention = sessions.revokedRetentionSeconds ?? sessionPolicy.revokedRetention
        purgeSchedule.interval = sessions.purgeIntervalSeconds ?? purgeSchedule.interval
        purgeSchedule.batchSize = sessions.purgeBatchSize ?? purgeSchedule.batchSize
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
        guard (1...86_400).contains(purgeSchedule.interval), (1...100_000).contains(purgeSchedule.batchSize) else {
            throw UsageError("sessions.purgeIntervalSeconds must be between 1 and 86400, sessions.purgeBatchSize between 1 and 100000")
        }
    }

    private mutating func apply(environment: [String: String]) throws {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        host = nonEmpty("HEARTH_HOST") ?? host
        if let value = nonEmpty("HEARTH_PORT") { port = try Self.port(value, source: "HEARTH_PORT") }
        dataDirectory = nonEmpty("HEARTH_DATA_DIR") ?? dataDirectory
        publicURL = nonEmpty("HEARTH_PUBLIC_URL") ?? publicURL
        projectID = nonEmpty("HEARTH_PROJECT_ID") ?? projectID
        if let value = nonEmpty("HEARTH_DEV") { development = try Self.flag(value, source: "HEARTH_DEV") }
        if let value = nonEmpty("HEARTH_FIREBASE_ISSUER") {
            firebaseIssuer = try Self.flag(value, source: "HEARTH_FIREBASE_ISSUER")
        }
        if let value = nonEmpty("HEARTH_THREADS") { threads = try Self.threads(value, source: "HEARTH_THREADS") }
        if let value = nonEmpty("HEARTH_API_KEYS") { apiKeys = Self.list(value) }
        if let value = nonEmpty("HEARTH_GOOGLE_CLIENT_IDS") { googleClientIDs = Self.list(value) }
        if let value = nonEmpty("HEARTH_MFA") {
            mfaFactors = value.lowercased() == "off" ? [] : try Self.factors(Self.list(value), source: "HEARTH_MFA")
        }
        sms.webhookUrl = nonEmpty("HEARTH_SMS_WEBHOOK_URL") ?? sms.webhookUrl
        sms.webhookSecret = nonEmpty("HEARTH_SMS_WEBHOOK_SECRET") ?? sms.webhookSecret
        sms.twilioBaseUrl = nonEmpty("HEARTH_TWILIO_BASE_URL") ?? sms.twilioBaseUrl
        sms.twilioAccountSid = nonEmpty("HEARTH_TWILIO_ACCOUNT_SID") ?? sms.twilioAccountSid
        sms.twilioAuthToken = nonEmpty("HEARTH_TWILIO_AUTH_TOKEN") ?? sms.twilioAuthToken
        sms.twilioFrom = nonEmpty("HEARTH_TWILIO_FROM") ?? sms.twilioFrom
        if let value = nonEmpty("HEARTH_ROTATE_REFRESH_TOKENS") {
            sessionPolicy.rotatesRefreshTokens = try Self.flag(value, source: "HEARTH_ROTATE_REFRESH_TOKENS")
        }
        if let value = nonEmpty("HEARTH_REFRESH_REUSE_GRACE_SECONDS") {
            guard let seconds = Int64(value) else {
                throw UsageError("HEARTH_REFRESH_REUSE_GRACE_SECONDS must be a number of seconds, not '\(value)'")
            }
            sessionPolicy.reuseGracePeriod = seconds
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
        publicURL = options.values["public-url"] ?? publicURL
        projectID = options.values["project-id"] ?? projectID
        if let value = options.values["threads"] { threads = try Self.threads(value, source: "--threads") }
        if options.flags.contains("dev") { development = true }
        if options.flags.contains("firebase-issuer") { firebaseIssuer = true }
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

    private static func flag(_ value: String, source: String) throws -> Bool {
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

    private static func list(_ value: String) -> [String] {
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

    var databasePath: String { (dataDirectory as NSString).appendingPathComponent("hearth.sqlite") }
}
