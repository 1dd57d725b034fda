import HearthCore
import HearthSQLShared
import SQLite

/// The audit log (`audit_events`, migration 10), newest first by its time-ordered id.
extension SQLiteStoreReader {
    final func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        precondition(query.limit >= 1, "a page needs a limit of at least 1")
        let page = SQL.auditEventPage(query)
        return try run("auditEvents") {
            try connection.queryAll(page.sql, page.values) { try $0.auditEvent() }
        }
    }
}

extension SQLiteStoreWriter {
    func insertAuditEvent(_ event: AuditEvent) throws {
        try run("insertAuditEvent") {
            try execute(
                SQL.insertAuditEvent,
                [
                    .text(event.id), .integer(event.atMillis), .text(event.kind.rawValue), SQLiteValue(event.localID),
                    SQLiteValue(event.provider), SQLiteValue(event.clientAddress), .text(event.actor.rawValue),
                    .text(event.detail),
                ]
            ) { code in code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil }
        }
    }

    @discardableResult
    func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("deleteAuditEvents") {
            try execute(SQL.deleteAuditEvents, [.text(AuditEvent.idPrefix(atMillis: millis)), SQLiteValue(limit), .integer(millis)])
        }
    }
}

extension SQL {
    private static let auditEventColumns = [
        "id", "at_millis", "kind", "local_id", "provider", "client_address", "actor", "detail",
    ]
    static let insertAuditEvent = """
        INSERT INTO audit_events (tenant_id, \(auditEventColumns.joined(separator: ", ")))
        VALUES (hearth_tenant(), \(Array(repeating: "?", count: auditEventColumns.count).joined(separator: ", ")))
        """
    /// Oldest first, at most `?2` rows, so one purge never holds the writer long: events before `?3` are the ids before
    /// `?1`, that time's id prefix (a range of the primary key; `at_millis` is checked too).
    static let deleteAuditEvents = """
        DELETE FROM audit_events WHERE id IN (
            SELECT id FROM audit_events WHERE id < ?1 AND at_millis < ?3 ORDER BY id LIMIT ?2)
        """

    /// The statement and values of one page of `query`. The time filter is also a range of ids (`lowestID`), so
    /// every page is a range of one index read backwards: the account's (whose rows are then checked for the kind),
    /// the kind's, or the table's own.
    static func auditEventPage(_ query: AuditQuery) -> (sql: String, values: [SQLiteValue]) {
        var values: [SQLiteValue] = [.text(query.lowestID)]
        var conditions = ["tenant_id = hearth_tenant()", "id >= ?"]
        func require(_ condition: String, _ value: SQLiteValue) {
            conditions.append(condition)
            values.append(value)
        }
        if let since = query.sinceMillis { require("at_millis >= ?", .integer(since)) }
        if let localID = query.localID { require("local_id = ?", .text(localID)) }
        // `+` keeps SQLite from choosing the kind's index when the account's serves the page.
        if let kind = query.kind { require(query.localID == nil ? "kind = ?" : "+kind = ?", .text(kind.rawValue)) }
        if let beforeID = query.beforeID { require("id < ?", .text(beforeID)) }
        values.append(SQLiteValue(query.limit))
        let sql = """
            SELECT \(auditEventColumns.joined(separator: ", ")) FROM audit_events
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY id DESC LIMIT ?
            """
        return (sql, values)
    }

    /// The audit log's statements that must be served by an index (part of `indexedLookups`): a page with every
    /// combination of filters, and the purge.
    static let auditEventLookups: [(name: String, sql: String)] = [
        ("deleteAuditEvents", deleteAuditEvents)
    ] + AuditQuery.everyFilterCombination.map { ("auditEventPage \($0.filterNames)", auditEventPage($0).sql) }
}
