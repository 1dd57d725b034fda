public import HearthCore

/// The audit log (`audit_events`), newest first by its time-ordered id.
extension SQLCatalogue {
    /// In `StoredRow.auditEvent()`'s order; each is also the name of its bind (`AuditEvent.binds`).
    static let auditEventColumns = ["id", "at_millis", "kind", "local_id", "provider", "client_address", "actor", "detail"]
    /// A taken id inserts nothing (and no error breaks the transaction): the count tells.
    static let insertAuditEvent = SQLStatement { d in
        """
        INSERT INTO audit_events (tenant_id, \(list(auditEventColumns)))
        VALUES (\(d.scope), \(binds(auditEventColumns))) ON CONFLICT (id) DO NOTHING
        """
    }
    /// Oldest first, at most `:limit` rows, so one purge never holds the writer or locks long: events before
    /// `:before` are the ids before `:prefix`, that time's id prefix (a range of the primary key; `at_millis` is
    /// checked too).
    static let deleteAuditEvents = SQLStatement { _ in
        """
        DELETE FROM audit_events WHERE id IN (
            SELECT id FROM audit_events WHERE id < :prefix AND at_millis < :before ORDER BY id LIMIT :limit)
        """
    }

    /// Counted per day and provider over a range of the kind's index (the time is also a range of ids).
    static let countAuditEvents = SQLStatement { d in
        """
        SELECT at_millis / \(AuditDayCount.millisPerDay) AS day, provider, COUNT(*) FROM audit_events
        WHERE tenant_id = \(d.scope) AND kind = :kind AND id >= :lowest AND at_millis >= :since
        GROUP BY day, provider
        """
    }

    /// The page statement of each combination of filters, by `filterBits`.
    private static let auditEventPages = AuditQuery.everyFilterCombination.map { query in
        SQLStatement { d in
            var conditions = ["tenant_id = \(d.scope)", "id >= :lowest"]
            if query.sinceMillis != nil { conditions.append("at_millis >= :since") }
            if query.localID != nil { conditions.append("local_id = :local_id") }
            // Kept off the kind's index when the account's serves the page.
            if query.kind != nil { conditions.append("\(query.localID == nil ? "kind" : d.unindexed("kind")) = :kind") }
            if query.beforeID != nil { conditions.append("id < :before_id") }
            return """
                SELECT \(list(auditEventColumns)) FROM audit_events
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY id DESC LIMIT :limit
                """
        }
    }

    /// The statement and binds of one page of `query`. The time filter is also a range of ids (`lowestID`), so every
    /// page is a range of one index read backwards: the account's (whose rows are then checked for the kind), the
    /// kind's, or the table's own.
    static func auditEventPage(_ query: AuditQuery) -> (statement: SQLStatement, binds: SQLBinds) {
        var binds: SQLBinds = ["lowest": .text(query.lowestID), "limit": SQLValue(query.limit)]
        binds["since"] = query.sinceMillis.map { .integer($0) }
        binds["local_id"] = query.localID.map { .text($0) }
        binds["kind"] = query.kind.map { .text($0.rawValue) }
        binds["before_id"] = query.beforeID.map { .text($0) }
        let bits =
            (query.localID == nil ? 0 : 1) | (query.kind == nil ? 0 : 2) | (query.sinceMillis == nil ? 0 : 4)
            | (query.beforeID == nil ? 0 : 8)
        return (auditEventPages[bits], binds)
    }

    /// A page with every combination of filters, and the purge.
    static let auditEventLookups: [(name: String, statement: SQLStatement)] =
        [("deleteAuditEvents", deleteAuditEvents), ("countAuditEvents", countAuditEvents)]
        + AuditQuery.everyFilterCombination.map { ("auditEventPage \($0.filterNames)", auditEventPage($0).statement) }
}

extension SQLStoreReading {
    public func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        precondition(query.limit >= 1, "a page needs a limit of at least 1")
        let page = SQLCatalogue.auditEventPage(query)
        return try run("auditEvents") { try self.query(page.statement, page.binds) { try $0.auditEvent() } }
    }

    public func auditEventCounts(kind: AuditEventKind, sinceMillis: Int64) throws -> [AuditDayCount] {
        let binds: SQLBinds = [
            "kind": .text(kind.rawValue), "since": .integer(sinceMillis),
            "lowest": .text(AuditEvent.idPrefix(atMillis: sinceMillis)),
        ]
        let counts = try run("auditEventCounts") {
            try query(SQLCatalogue.countAuditEvents, binds) { row in
                AuditDayCount(day: try row.requiredInt64(0), provider: row.text(1), count: Int(try row.requiredInt64(2)))
            }
        }
        return AuditDayCount.ordered(counts)
    }
}

extension SQLStoreWriting {
    /// One statement and no savepoint (it runs in most writes that sign someone in): a taken id changes nothing and
    /// is told by the count; text the engine cannot hold (NUL, on PostgreSQL) is refused before it could break the
    /// transaction.
    public func insertAuditEvent(_ event: AuditEvent) throws {
        try run("insertAuditEvent") {
            if !dialect.textHoldsNUL {
                let texts = [
                    event.id, event.kind.rawValue, event.localID, event.provider, event.clientAddress,
                    event.actor.rawValue, event.detail,
                ]
                guard !texts.contains(where: { $0?.contains("\u{0}") == true }) else {
                    throw StoreError(.unavailable, "insertAuditEvent: PostgreSQL text cannot hold NUL")
                }
            }
            guard try execute(SQLCatalogue.insertAuditEvent, event.binds) == 1 else { throw StoreError(.duplicateToken) }
        }
    }

    @discardableResult
    public func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("deleteAuditEvents") {
            try execute(
                SQLCatalogue.deleteAuditEvents,
                [
                    "prefix": .text(AuditEvent.idPrefix(atMillis: millis)), "limit": SQLValue(limit),
                    "before": .integer(millis),
                ])
        }
    }
}
