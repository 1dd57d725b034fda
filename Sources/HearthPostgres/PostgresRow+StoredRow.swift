public import HearthCore
public import HearthSQLShared
import Postgres

/// Both SQL stores decode rows into records alike (see `StoredRow`).
extension PostgresRow: StoredRow {}
