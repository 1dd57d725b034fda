import Foundation
import HearthCommandLine
import HearthPostgres

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
            // Several hosts (`h1:5432,h2:5432`) and libpq's parameters are libpq's to check; Hearth's own is checked here.
            guard (try? PostgresStore.isBehindTransactionPooler(url: value)) != nil else {
                throw UsageError("\(source): the PostgreSQL URL's pool_mode must be session or transaction")
            }
            self = .postgres(url: value)
        } else if lowered.hasPrefix("sqlite:") {
            let path = String(value.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw UsageError("\(source): sqlite: needs a file path (sqlite:/var/lib/hearth/hearth.sqlite)") }
            self = .sqlite(path: path)
        } else if Self.looksLikeKeywordValues(value) {
            throw UsageError(
                "\(source): libpq keyword/value strings (host=… dbname=…) are not accepted; give a postgres:// URL "
                    + "(or sqlite:PATH for a file whose name starts like this)")
        } else if value.contains("://") {
            throw UsageError("\(source): unknown kind of database (sqlite:PATH, postgres://… or postgresql://…)")
        } else {
            guard !value.isEmpty else { throw UsageError("\(source) must not be empty") }
            self = .sqlite(path: value)
        }
    }

    /// The location as logs and banners may show it: the path, or the URL without its password or any part of one.
    var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return PostgresStore.masked(url: url)
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

    /// Whether `value` starts like a libpq keyword/value connection string (`host=db password=…`): a name of letters
    /// and `_`, then `=`. Taken as a SQLite path, it would name a file after the password and print it.
    private static func looksLikeKeywordValues(_ value: String) -> Bool {
        let trimmed = value.drop { $0.isWhitespace }
        let name = trimmed.prefix { $0.isASCII && ($0.isLetter || $0 == "_") }
        return !name.isEmpty && trimmed.dropFirst(name.count).drop { $0.isWhitespace }.hasPrefix("=")
    }

    /// The URL up to its query, after its scheme: the same server and database, whatever the connection options.
    private static func withoutParameters(_ url: String) -> String {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(afterScheme.prefix(while: { $0 != "?" }))
    }
}
