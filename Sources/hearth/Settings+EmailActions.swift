import HearthCommandLine
import HearthCore

/// `"emailActions": {"appName": …, "codeLifetimeSeconds": 3600, "signInLinkLifetimeSeconds": 21600,
/// "sendsPerEmailPerHour": 5, "sendsPerClientPerHour": 50}` (docs/CONFIGURATION.md, "Email actions").
struct EmailActionFileSettings: Decodable {
    var appName: String?
    var codeLifetimeSeconds: Int64?
    var signInLinkLifetimeSeconds: Int64?
    var sendsPerEmailPerHour: Int?
    var sendsPerClientPerHour: Int?

    static let keys: Set<String> = [
        "appName", "codeLifetimeSeconds", "signInLinkLifetimeSeconds", "sendsPerEmailPerHour", "sendsPerClientPerHour",
    ]

    func validate() throws {
        for (value, name) in [(codeLifetimeSeconds, "codeLifetimeSeconds"), (signInLinkLifetimeSeconds, "signInLinkLifetimeSeconds")] {
            if let value, !(1...604_800).contains(value) {
                throw UsageError("config emailActions.\(name) must be between 1 and 604800 (a week)")
            }
        }
        for (value, name) in [(sendsPerEmailPerHour, "sendsPerEmailPerHour"), (sendsPerClientPerHour, "sendsPerClientPerHour")] {
            if let value, !(1...1_000_000).contains(value) {
                throw UsageError("config emailActions.\(name) must be between 1 and 1000000")
            }
        }
        if let appName, appName.isEmpty || appName.count > 100 {
            throw UsageError("config emailActions.appName must be 1 to 100 characters")
        }
    }

    /// The core settings for a server at `publicURL`. Enumeration protection stays at its default (on) here.
    func settings(publicURL: String, development: Bool) -> EmailActionSettings {
        var settings = EmailActionSettings(publicURL: publicURL, development: development)
        settings.codeLifetime = codeLifetimeSeconds ?? settings.codeLifetime
        settings.signInLinkLifetime = signInLinkLifetimeSeconds ?? settings.signInLinkLifetime
        if let limit = sendsPerEmailPerHour { settings.sendsPerEmail = WindowQuota(limit: limit, window: 3_600) }
        if let limit = sendsPerClientPerHour { settings.sendsPerClient = WindowQuota(limit: limit, window: 3_600) }
        return settings
    }
}
