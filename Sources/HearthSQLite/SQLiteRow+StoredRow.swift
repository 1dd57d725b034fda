public import HearthCore
public import HearthSQLShared
import SQLite

/// Both SQL stores decode rows into records alike (see `StoredRow`).
extension SQLiteRow: StoredRow {
    func bytes(_ column: Int) -> [UInt8]? { blob(column) }
}
