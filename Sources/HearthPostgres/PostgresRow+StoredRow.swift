public import HearthCore
import Postgres

/// Both SQL stores decode rows into records alike (see `StoredRow`).
extension PostgresRow: StoredRow {}
