import Foundation
import HearthCore

/// Small pieces every console page is made of: escaped text, times, the CSRF field, links with queries.
public enum ConsoleHTML {
    /// Escapes text for HTML content and quoted attribute values.
    public static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// `2026-12-01 22:30:05 UTC`, for milliseconds since 1970.
    public static func time(millis: Int64) -> String { time(seconds: Double(millis) / 1000) }

    /// `2026-12-01 22:30:05 UTC`, for seconds since 1970.
    public static func time(seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC"
    }

    /// The hidden field that carries the CSRF token in every form that changes something.
    static func csrfField(_ viewer: ConsoleViewer) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(escape(viewer.csrfToken))\">"
    }

    /// `path?name=value&…` with the empty values left out, escaped for an attribute.
    static func link(_ path: String, _ query: [(String, String?)]) -> String {
        var components = URLComponents()
        components.path = path
        let items = query.compactMap { name, value in value.flatMap { $0.isEmpty ? nil : URLQueryItem(name: name, value: $0) } }
        components.queryItems = items.isEmpty ? nil : items
        return escape(components.string ?? path)
    }

    /// The path of a user's page (the uid percent-encoded as one path segment), in the project or under a tenant.
    public static func userPath(_ localID: String, tenantID: String? = nil) -> String {
        "\(usersPath(tenantID: tenantID))/\(segment(localID))"
    }

    /// The users page of the project, or of the tenant `tenantID` (`/console/tenants/<id>/users`).
    public static func usersPath(tenantID: String?) -> String {
        tenantID.map { "\(ConsolePaths.tenants)/\(segment($0))/users" } ?? ConsolePaths.users
    }

    static func segment(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: pathSegment) ?? text }

    /// RFC 3986's unreserved characters: what a path segment may hold unescaped.
    private static let pathSegment = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{21}"..."\u{7E}"))
        .union(CharacterSet(charactersIn: "-._~"))

    /// The overview of the project, or of the tenant `tenantID` (`/console/tenants/<id>`).
    public static func homePath(tenantID: String?) -> String {
        tenantID.map { "\(ConsolePaths.tenants)/\(segment($0))" } ?? ConsolePaths.home
    }

    /// The configuration page of the project, or of the tenant `tenantID` (`/console/tenants/<id>/config`).
    public static func configPath(tenantID: String?) -> String {
        tenantID.map { "\(ConsolePaths.tenants)/\(segment($0))/config" } ?? ConsolePaths.config
    }

    /// An announced error message, or nothing.
    public static func alert(_ message: String?) -> String {
        message.map { "<p class=\"alert\" role=\"alert\">\(escape($0))</p>" } ?? ""
    }
}

/// Where the console's pages are.
public enum ConsolePaths {
    public static let base = "/console"
    public static let stylesheet = "/console/console.css"
    public static let home = "/console/home"
    public static let users = "/console/users"
    public static let keys = "/console/keys"
    public static let rotateKey = "/console/keys/rotate"
    public static let audit = "/console/audit"
    public static let tenants = "/console/tenants"
    public static let config = "/console/config"
    public static let development = "/console/dev"
    public static let signIn = "/console/sign-in"
    public static let callback = "/console/callback"
    public static let secondFactor = "/console/second-factor"
    public static let signOut = "/console/sign-out"
}
