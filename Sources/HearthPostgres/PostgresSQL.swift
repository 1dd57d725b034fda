/// What `PostgresStore` runs besides `SQLCatalogue`. Values only ever reach PostgreSQL as bound `$n` parameters;
/// statements are prepared once per connection (unnamed, behind a pooler in transaction mode: see
/// `PostgresConnection`).
enum PostgresSQL {
    /// Sets `hearth.tenant` (which `SQLDialect.postgres.scope` reads) to $1 until the transaction ends.
    static let enterScope = "SELECT set_config('hearth.tenant', $1, true)"
}
