import HearthCommandLine
import HearthCore
import HearthProtocol

/// `"emailActions": {"appName": …, "codeLifetimeSeconds": 3600, "signInLinkLifetimeSeconds": 21600,
/// "sendsPerEmailPerHour": 5, "sendsPerClientPerHour": 50, "emailChangesPerAccountPerHour": 10,
/// "emailChangesPerClientPerHour": 30, "authorizedDomains": ["app.example.com"],
/// "actionUrl": "https://app.example.com/auth/action"}`
/// (docs/CONFIGURATION.md, "Email actions").
struct EmailActionFileSettings: Decodable {
    var appName: String?
    var codeLifetimeSeconds: Int64?
    var signInLinkLifetimeSeconds: Int64?
    var sendsPerEmailPerHour: Int?
    var sendsPerClientPerHour: Int?
    /// Changes of email a signed-in user may ask for, per account and per client address.
    var emailChangesPerAccountPerHour: Int?
    var emailChangesPerClientPerHour: Int?
    /// Hosts continue URLs may point at besides `localhost`, `127.0.0.1` and the public URL's host.
    var authorizedDomains: [String]?
    /// The page email links open instead of Hearth's (a custom email action handler).
    var actionUrl: String?

    static let keys: Set<String> = [
        "appName", "codeLifetimeSeconds", "signInLinkLifetimeSeconds", "sendsPerEmailPerHour", "sendsPerClientPerHour",
        "emailChangesPerAccountPerHour", "emailChangesPerClientPerHour", "authorizedDomains", "actionUrl",
    ]

    func validate() throws {
        for (value, name) in [(codeLifetimeSeconds, "codeLifetimeSeconds"), (signInLinkLifetimeSeconds, "signInLinkLifetimeSeconds")] {
            if let value, !(1...604_800).contains(value) {
                throw UsageError("config emailActions.\(name) must be between 1 and 604800 (a week)")
            }
        }
        let quotas = [
            (sendsPerEmailPerHour, "sendsPerEmailPerHour"), (sendsPerClientPerHour, "sendsPerClientPerHour"),
            (emailChangesPerAccountPerHour, "emailChangesPerAccountPerHour"),
            (emailChangesPerClientPerHour, "emailChangesPerClientPerHour"),
        ]
        for (value, name) in quotas {
            if let value, !(1...1_000_000).contains(value) {
                throw UsageError("config emailActions.\(name) must be between 1 and 1000000")
            }
        }
        for domain in authorizedDomains ?? [] where !ProjectConfigRules.isHostName(domain) {
            throw UsageError("config emailActions.authorizedDomains: '\(domain)' is not a host name (no scheme, port or path)")
        }
        if let actionUrl, !EmailActionSettings.isActionURL(actionUrl) {
            throw UsageError(
                "config emailActions.actionUrl must be an absolute https URL without query or fragment (http only on a loopback host)")
        }
        if let appName, appName.isEmpty || appName.count > 100 {
            throw UsageError("config emailActions.appName must be 1 to 100 characters")
        }
    }

    /// The core settings for a server at `publicURL`. Enumeration protection stays at its default (on) here.
    /// Continue URLs are held to the authorized domains, except in development without any configured (as the
    /// emulator, which checks none).
    func settings(publicURL: String, development: Bool) -> EmailActionSettings {
        var settings = EmailActionSettings(publicURL: publicURL, development: development)
        if !development || authorizedDomains != nil {
            settings.authorizedDomains = EmailActionSettings.defaultAuthorizedDomains(publicURL: publicURL)
                .union((authorizedDomains ?? []).map { $0.lowercased() })
        }
        settings.actionURL = actionUrl
        settings.codeLifetime = codeLifetimeSeconds ?? settings.codeLifetime
        settings.signInLinkLifetime = signInLinkLifetimeSeconds ?? settings.signInLinkLifetime
        if let limit = sendsPerEmailPerHour { settings.sendsPerEmail = WindowQuota(limit: limit, window: 3_600) }
        if let limit = sendsPerClientPerHour { settings.sendsPerClient = WindowQuota(limit: limit, window: 3_600) }
        if let limit = emailChangesPerAccountPerHour {
            settings.emailChanges.perAccount = WindowQuota(limit: limit, window: 3_600)
        }
        if let limit = emailChangesPerClientPerHour {
            settings.emailChanges.perClient = WindowQuota(limit: limit, window: 3_600)
        }
        return settings
    }
}
