import Postgres

extension PostgresStore {
    /// `url` as logs, banners and errors may show it, with no password nor any part of one
    /// (`PostgresConnectionString.masked`: everything between `://` and the last `@` but a plain user name, and the
    /// query from its first password parameter on).
    public static func masked(url: String) -> String {
        PostgresConnectionString.masked(url)
    }
}
