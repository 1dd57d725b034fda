public import HearthCore

/// Refresh-token sessions (`refresh_sessions`) and their purge. (SQLite's legacy tokens, from before sessions, stay
/// with `SQLiteStore`: PostgreSQL never had them.)
extension SQLCatalogue {
    /// In `StoredRow.refreshSession()`'s order (`replaced` last, as three), with their types; each is also the name
    /// of its bind (`RefreshSession.binds`).
    private static let refreshSessionTypedColumns: [(String, SQLDialect.ColumnType)] = [
        ("session_id", .text), ("local_id", .text), ("sign_in_provider", .text), ("auth_time", .bigint),
        ("second_factor", .text), ("second_factor_identifier", .text), ("session_claims", .text),
        ("started_at_millis", .bigint), ("revoked_at_millis", .bigint), ("current_token_hash", .text),
        ("replaced_token_hash", .text), ("replaced_at_millis", .bigint), ("sealed_successor", .bytea),
    ]
    public static let refreshSessionColumns = refreshSessionTypedColumns.map(\.0)
    private static func refreshSessionByID(_ d: SQLDialect) -> String {
        """
        SELECT \(list(refreshSessionColumns)) FROM refresh_sessions
        WHERE tenant_id = \(d.scope) AND session_id = :session_id
        """
    }
    static let refreshSessionByID = SQLStatement(refreshSessionByID)
    /// Locks the session until the transaction ends (a `.rowLocks` write).
    static let refreshSessionByIDForUpdate = SQLStatement { d in refreshSessionByID(d) + d.forUpdate() }
    static let refreshSessionPage = SQLStatement { d in
        """
        SELECT \(list(refreshSessionColumns)) FROM refresh_sessions WHERE tenant_id = \(d.scope) AND session_id > :after
        ORDER BY session_id LIMIT :limit
        """
    }
    static let refreshSessionExists = SQLStatement { _ in "SELECT 1 FROM refresh_sessions WHERE session_id = :session_id" }
    /// Inserts only if the account exists (no foreign key: sessions outlive their account).
    static let insertRefreshSession = insertIfAccountExists(
        table: "refresh_sessions", typedColumns: refreshSessionTypedColumns)
    /// Only from the current token of a live session whose account exists. No indexed column changes.
    static let rotateRefreshSession = SQLStatement { d in
        """
        UPDATE refresh_sessions
        SET current_token_hash = :new_hash, replaced_token_hash = current_token_hash, replaced_at_millis = :at,
            sealed_successor = :sealed_successor
        WHERE tenant_id = \(d.scope) AND session_id = :session_id AND current_token_hash = :current_hash
            AND revoked_at_millis IS NULL
            AND EXISTS (
                SELECT 1 FROM accounts
                WHERE accounts.tenant_id = refresh_sessions.tenant_id AND accounts.local_id = refresh_sessions.local_id)
        """
    }
    static let liveSessionIDs = SQLStatement { d in
        """
        SELECT session_id FROM refresh_sessions
        WHERE tenant_id = \(d.scope) AND local_id = :local_id AND revoked_at_millis IS NULL
        ORDER BY started_at_millis DESC, session_id DESC \(d.offsetWithoutLimit) :skipped
        """
    }
    static let revokeSession = SQLStatement { d in
        """
        UPDATE refresh_sessions SET revoked_at_millis = :at
        WHERE tenant_id = \(d.scope) AND session_id = :session_id AND revoked_at_millis IS NULL
        """
    }
    /// Store-wide: a page of session ids, for the purge.
    static let sessionPage = SQLStatement { _ in
        "SELECT session_id FROM refresh_sessions WHERE session_id > :after ORDER BY session_id LIMIT :limit"
    }
    /// Revokes (at `:at`) the live sessions of one page (ids after `:after` up to `:last`) whose account is gone or
    /// revoked them by `validSince`.
    static let revokeDeadSessions = SQLStatement { _ in
        """
        UPDATE refresh_sessions AS s SET revoked_at_millis = :at
        WHERE s.session_id > :after AND s.session_id <= :last AND s.revoked_at_millis IS NULL
            AND NOT EXISTS (
                SELECT 1 FROM accounts AS a
                WHERE a.tenant_id = s.tenant_id AND a.local_id = s.local_id AND s.started_at_millis >= a.valid_since_millis)
        """
    }
    static let purgeSessions = SQLStatement { _ in
        "DELETE FROM refresh_sessions WHERE session_id > :after AND session_id <= :last AND revoked_at_millis < :before"
    }

    static let sessionLookups: [(name: String, statement: SQLStatement)] = [
        ("refreshSessionByID", refreshSessionByID), ("refreshSessionByIDForUpdate", refreshSessionByIDForUpdate),
        ("refreshSessionPage", refreshSessionPage), ("refreshSessionExists", refreshSessionExists),
        ("insertRefreshSession", insertRefreshSession), ("rotateRefreshSession", rotateRefreshSession),
        ("liveSessionIDs", liveSessionIDs), ("revokeSession", revokeSession), ("sessionPage", sessionPage),
        ("revokeDeadSessions", revokeDeadSessions), ("purgeSessions", purgeSessions),
    ]
}

extension SQLStoreReading {
    /// In a `.rowLocks` writer, the session is locked until the commit.
    public func refreshSession(id: String) throws -> RefreshSession? {
        try run("refreshSession(id:)") {
            try queryFirst(
                locksRows ? SQLCatalogue.refreshSessionByIDForUpdate : SQLCatalogue.refreshSessionByID,
                ["session_id": .text(id)]
            ) { try $0.refreshSession() }
        }
    }

    public func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("refreshSessions(after:limit:)") {
            try query(SQLCatalogue.refreshSessionPage, ["after": .text(sessionID ?? ""), "limit": SQLValue(limit)]) {
                try $0.refreshSession()
            }
        }
    }

    public func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String] {
        try run("liveSessionIDs") {
            try query(SQLCatalogue.liveSessionIDs, ["local_id": .text(localID), "skipped": SQLValue(max(0, count))]) {
                try $0.requiredText(0)
            }
        }
    }
}

extension SQLStoreWriting {
    public func insertRefreshSession(_ session: RefreshSession) throws {
        try run("insertRefreshSession") {
            // One statement that inserts only if the account exists (sessions have no foreign key).
            let inserted = try execute(SQLCatalogue.insertRefreshSession, session.binds) {
                $0.isTaken ? .duplicateToken : nil
            }
            guard inserted > 0 else {
                // A taken id wins over a missing account, whichever is checked first.
                let taken = try exists(SQLCatalogue.refreshSessionExists, ["session_id": .text(session.sessionID)])
                throw StoreError(taken ? .duplicateToken : .notFound)
            }
        }
    }

    public func rotateRefreshSession(
        id: String, replacing currentHash: String, with newHash: String, atMillis millis: Int64,
        sealedSuccessor: [UInt8]
    ) throws {
        try run("rotateRefreshSession") {
            let binds: SQLBinds = [
                "new_hash": .text(newHash), "at": .integer(millis), "sealed_successor": .bytes(sealedSuccessor),
                "session_id": .text(id), "current_hash": .text(currentHash),
            ]
            guard try execute(SQLCatalogue.rotateRefreshSession, binds) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    public func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Bool {
        try run("revokeSession") {
            try execute(SQLCatalogue.revokeSession, ["at": .integer(millis), "session_id": .text(sessionID)]) > 0
        }
    }

    /// One page of session ids after `cursor`, whose dead sessions are revoked and long-revoked ones deleted, in one
    /// savepoint.
    public func purgeSessions(after cursor: String?, limit: Int, revokedBefore: Int64, atMillis millis: Int64) throws
        -> RefreshTokenPurgeStep
    {
        precondition(limit >= 1, "a purge step needs a limit of at least 1")
        return try run("purgeSessions") {
            try savepoint {
                let start = SQLValue.text(cursor ?? "")
                let page = try query(SQLCatalogue.sessionPage, ["after": start, "limit": SQLValue(limit)]) {
                    try $0.requiredText(0)
                }
                guard let last = page.last else { return RefreshTokenPurgeStep(deleted: 0, next: nil) }
                try execute(SQLCatalogue.revokeDeadSessions, ["after": start, "last": .text(last), "at": .integer(millis)])
                let deleted = try execute(
                    SQLCatalogue.purgeSessions, ["after": start, "last": .text(last), "before": .integer(revokedBefore)])
                return RefreshTokenPurgeStep(deleted: deleted, next: page.count == limit ? last : nil)
            }
        }
    }
}
