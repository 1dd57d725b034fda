/// How the statements of ``SQLCatalogue`` are spelled on one engine: where the two SQL stores' engines differ, a
/// statement asks its dialect (written once, rendered once per dialect: see ``SQLStatement``).
public struct SQLDialect: Sendable {
    enum Engine: Sendable { case sqlite, postgres }

    let engine: Engine
    /// The transaction's scope (`StoreScope.tenantID`), which every statement on scoped records matches `tenant_id`
    /// against: the SQL function `hearth_tenant()` on SQLite, the setting `hearth.tenant` on PostgreSQL.
    let scope: String
    /// `a IS NOT b` on SQLite, `a IS DISTINCT FROM b` on PostgreSQL: `<>` that takes NULL for a value.
    let isDistinctFrom: String
    /// The column that orders rows by insertion (`rowid`; PostgreSQL's tables have a `seq` for it).
    let insertionOrder: String
    /// Whether TEXT can hold the NUL character (PostgreSQL's cannot).
    let textHoldsNUL: Bool

    public static let sqlite = SQLDialect(
        engine: .sqlite, scope: "hearth_tenant()", isDistinctFrom: "IS NOT", insertionOrder: "rowid",
        textHoldsNUL: true)
    public static let postgres = SQLDialect(
        engine: .postgres, scope: "coalesce(current_setting('hearth.tenant', true), '')",
        isDistinctFrom: "IS DISTINCT FROM", insertionOrder: "seq", textHoldsNUL: false)

    /// The parameter a statement's `position`-th bind (1-based) is sent as: `?1`, `$1`.
    func placeholder(_ position: Int) -> String {
        switch engine {
        case .sqlite: "?\(position)"
        case .postgres: "$\(position)"
        }
    }

    /// The clause that locks the rows a query reads (of `table` alone, when it names one) until the transaction ends;
    /// empty on SQLite, whose writer holds the whole database.
    func forUpdate(of table: String? = nil) -> String {
        switch engine {
        case .sqlite: ""
        case .postgres: table.map { " FOR UPDATE OF \($0)" } ?? " FOR UPDATE"
        }
    }

    /// `bind` (`:name`) with its type spelled out where the engine cannot infer it (in a `SELECT` list).
    func typed(_ bind: String, _ type: ColumnType) -> String {
        switch engine {
        case .sqlite: bind
        case .postgres: "\(bind)::\(type.rawValue)"
        }
    }

    /// The column types ``typed(_:_:)`` names (PostgreSQL's spelling).
    enum ColumnType: String, Sendable { case text, bigint, integer, bytea }

    /// A boolean column as a condition (SQLite keeps booleans as 0 and 1).
    func isTrue(_ column: String) -> String {
        switch engine {
        case .sqlite: "\(column) = 1"
        case .postgres: column
        }
    }

    /// `OFFSET` with no limit (SQLite has no `OFFSET` without a `LIMIT`).
    var offsetWithoutLimit: String {
        switch engine {
        case .sqlite: "LIMIT -1 OFFSET"
        case .postgres: "OFFSET"
        }
    }

    /// `column` in a condition that its index must not serve (`+column` keeps SQLite's planner off it).
    func unindexed(_ column: String) -> String {
        switch engine {
        case .sqlite: "+\(column)"
        case .postgres: column
        }
    }
}
