import Foundation
import HearthCommandLine

/// Where the store lives (`--database`, `HEARTH_DATABASE_URL`, `database` in the config file): a SQLite file, or a
/// PostgreSQL database that several Hearth instances share.
enum DatabaseLocation: Equatable {
    case sqlite(path: String)
    /// A libpq connection URL (`postgres://user:password@host:5432/db?sslmode=verify-full`).
    case postgres(url: String)

    /// Reads `sqlite:PATH`, a plain path, or a `postgres://` / `postgresql://` URL; `source` names the setting in
    /// errors (which never repeat a URL, since it may hold a password).
    init(parsing value: String, source: String) throws {
        let lowered = value.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            guard value.count > value.prefix(while: { $0 != ":" }).count + 3 else {
                throw UsageError("\(source): the PostgreSQL URL names no server")
            }
            self = .postgres(url: value)
        } else if lowered.hasPrefix("sqlite:") {
            let path = String(value.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw UsageError("\(source): sqlite: needs a file path (sqlite:/var/lib/hearth/hearth.sqlite)") }
            self = .sqlite(path: path)
        } else if value.contains("://") {
            throw UsageError("\(source): unknown kind of database (sqlite:PATH, postgres://… or postgresql://…)")
        } else {
            guard !value.isEmpty else { throw UsageError("\(source) must not be empty") }
            self = .sqlite(path: value)
        }
    }

    /// The location as logs and banners may show it: the path, or the URL with its password replaced by `***`.
    var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return Self.redactingPassword(url)
        }
    }

    /// What the startup banner says: the kind of store and its redacted location.
    var bannerDescription: String {
        switch self {
        case .sqlite: return "SQLite \(redacted)"
        case .postgres: return "PostgreSQL \(redacted)"
        }
    }

    /// Whether both name the same database (the same file, or the same URL once its password is ignored).
    func isSame(as other: DatabaseLocation) -> Bool {
        switch (self, other) {
        case (.sqlite(let one), .sqlite(let two)):
            return URL(fileURLWithPath: one).standardizedFileURL.resolvingSymlinksInPath()
                == URL(fileURLWithPath: two).standardizedFileURL.resolvingSymlinksInPath()
        case (.postgres, .postgres):
            return Self.withoutParameters(redacted) == Self.withoutParameters(other.redacted)
        default:
            return false
        }
    }

    /// `url` with the password of its user info and the value of a `password=` parameter replaced by `***`.
    static func redactingPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority.replaceSubrange(authority.index(after: colon)..<at, with: "***")
        }
        var tail = String(rest[authorityEnd...])
        if let question = tail.firstIndex(of: "?") {
            let query = tail[tail.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { parameter in
                    parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
                }
            tail = String(tail[...question]) + query.joined(separator: "&")
        }
        return String(url[..<schemeEnd.upperBound]) + authority + tail
    }

    /// The URL up to its query, after its scheme: the same server and database, whatever the connection options.
    private static func withoutParameters(_ url: String) -> String {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(afterScheme.prefix(while: { $0 != "?" }))
    }
}
