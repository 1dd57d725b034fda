import HearthCore
import HearthSQLShared
import Postgres

/// The audit log (`audit_events`, migration 2), newest first by its time-ordered id.
extension PostgresStoreReader {
    final func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        precondition(query.limit >= 1, "a page needs a limit of at least 1")
        let page = PostgresSQL.auditEventPage(query)
        return try run("auditEvents") { try rows(page.sql, page.values) { try $0.auditEvent() } }
    }
}

extension PostgresStoreWriter {
    /// One statement and no savepoint (it runs in most writes that sign someone in): a taken id changes nothing
    /// and is told by the count; text PostgreSQL cannot hold (NUL) is refused before it could break the transaction.
    func insertAuditEvent(_ event: AuditEvent) throws {
        try run("insertAuditEvent") {
            let texts = [event.id, event.kind.rawValue, event.localID, event.provider, event.clientAddress,
                event.actor.rawValue, event.detail]
            guard !texts.contains(where: { $0?.contains("\u{0}") == true }) else {
                throw StoreError(.unavailable, "insertAuditEvent: PostgreSQL text cannot hold NUL")
            }
            let inserted = try update(
                PostgresSQL.insertAuditEvent,
                [
                    .text(event.id), .int64(event.atMillis), .text(event.kind.rawValue), .nullable(event.localID),
                    .nullable(event.provider), .nullable(event.clientAddress), .text(event.actor.rawValue),
                    .text(event.detail),
                ])
            guard inserted == 1 else { throw StoreError(.duplicateToken) }
        }
    }

    @discardableResult
    func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("deleteAuditEvents") {
            try update(
                PostgresSQL.deleteAuditEvents,
                [.text(AuditEvent.idPrefix(atMillis: millis)), .int64(Int64(limit)), .int64(millis)])
        }
    }
}

extension PostgresSQL {
    private static let auditEventColumns = [
        "id", "at_millis", "kind", "local_id", "provider", "client_address", "actor", "detail",
    ]
    static let insertAuditEvent = """
        INSERT INTO audit_events (tenant_id, \(auditEventColumns.joined(separator: ", ")))
        VALUES (\(scope), \(parameters(auditEventColumns.count))) ON CONFLICT (id) DO NOTHING
        """
    /// Oldest first, at most $2 rows, so one purge never holds locks long.
    /// Oldest first, at most `$2` rows: events before `$3` are the ids before `$1`, that time's id prefix (a range of the
    /// primary key; `at_millis` is checked too).
    static let deleteAuditEvents = """
        DELETE FROM audit_events WHERE id IN (
            SELECT id FROM audit_events WHERE id < $1 AND at_millis < $3 ORDER BY id LIMIT $2)
        """

    /// The statement and values of one page of `query`. The time filter is also a range of ids (`lowestID`), so
    /// every page is a range of one index read backwards: the account's, the kind's or the table's own.
    static func auditEventPage(_ query: AuditQuery) -> (sql: String, values: [PostgresValue]) {
        var values: [PostgresValue] = [.text(query.lowestID)]
        var conditions = ["tenant_id = \(scope)", "id >= $1"]
        func require(_ condition: String, _ value: PostgresValue) {
            values.append(value)
            conditions.append("\(condition) $\(values.count)")
        }
        if let since = query.sinceMillis { require("at_millis >=", .int64(since)) }
        if let localID = query.localID { require("local_id =", .text(localID)) }
        if let kind = query.kind { require("kind =", .text(kind.rawValue)) }
        if let beforeID = query.beforeID { require("id <", .text(beforeID)) }
        values.append(.int64(Int64(query.limit)))
        let sql = """
            SELECT \(auditEventColumns.joined(separator: ", ")) FROM audit_events
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY id DESC LIMIT $\(values.count)
            """
        return (sql, values)
    }
}
