import HearthCore

/// Opens a PostgreSQL store (replaced by the `PostgresStore` of branch pg-store when it merges).
func openPostgres(url: String, sealer: any SecretSealer, connections: Int) throws -> any ConfiguredStore {
    throw StartupError("this build has no PostgreSQL store yet")
}
