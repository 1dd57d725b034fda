import Foundation
import HearthCommandLine

/// Where the terminal app finds Hearth, the portfolio API and its saved session. Each setting comes
/// from a flag or the same-named environment variable.
struct PortfolioSettings {
    var hearthURL: URL
    var apiKey: String
    var projectID: String
    var apiURL: URL
    var sessionDirectory: URL?
    var googleClientID: String
    var googleClientSecret: String?
    /// The OpenID issuer for Google sign-in: Hearth's dev IdP by default.
    var googleIssuer: URL
    /// The Sign in with Apple client (services ID) and Apple: Hearth's dev Apple by default.
    var appleClientID: String
    var appleIssuer: URL

    static let valuedOptions: Set<String> = [
        "hearth-url", "api-key", "project-id", "api-url", "session-dir", "google-client-id", "google-client-secret",
        "google-issuer", "apple-client-id", "apple-issuer", "as", "name", "email", "code",
    ]

    init(options: ParsedOptions, environment: [String: String]) throws {
        let values = OptionValues(options: options, environment: environment)
        hearthURL = try Self.url(values["hearth-url", "HEARTH_URL", default: "http://127.0.0.1:9099"], name: "HEARTH_URL")
        apiKey = values["api-key", "HEARTH_API_KEY", default: "portfolio-demo"]
        projectID = values["project-id", "HEARTH_PROJECT_ID", default: "demo-hearth"]
        apiURL = try Self.url(values["api-url", "PORTFOLIO_API_URL", default: "http://127.0.0.1:8088"], name: "PORTFOLIO_API_URL")
        sessionDirectory = values.value(flag: "session-dir", variable: "PORTFOLIO_SESSION_DIR").map { URL(fileURLWithPath: $0) }
        googleClientID = values["google-client-id", "PORTFOLIO_GOOGLE_CLIENT_ID", default: "hearth-dev.apps.googleusercontent.com"]
        googleClientSecret = values.value(flag: "google-client-secret", variable: "PORTFOLIO_GOOGLE_CLIENT_SECRET")
        googleIssuer = try Self.url(
            values["google-issuer", "PORTFOLIO_GOOGLE_ISSUER", default: hearthURL.absoluteString.trimmingSlash + "/dev/google"],
            name: "PORTFOLIO_GOOGLE_ISSUER")
        appleClientID = values["apple-client-id", "PORTFOLIO_APPLE_CLIENT_ID", default: "dev.hearth.portfolio"]
        appleIssuer = try Self.url(
            values["apple-issuer", "PORTFOLIO_APPLE_ISSUER", default: hearthURL.absoluteString.trimmingSlash + "/dev/apple"],
            name: "PORTFOLIO_APPLE_ISSUER")
    }

    private static func url(_ text: String, name: String) throws -> URL {
        guard let url = URL(string: text.trimmingSlash), let scheme = url.scheme, scheme == "http" || scheme == "https",
            url.host != nil
        else { throw UsageError("\(name) must be an http(s) URL, not '\(text)'") }
        return url
    }
}

extension String {
    var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
