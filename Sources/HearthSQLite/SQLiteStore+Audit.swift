import HearthCore

// PLACEHOLDER of the audit-log contract: the audit-store lane replaces this file with the real table,
// migration and queries before anything is merged. Nothing may ship with it.

extension SQLiteStoreReader {
    final func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        throw StoreError(.unavailable, "the audit log is not implemented yet")
    }
}

extension SQLiteStoreWriter {
    func insertAuditEvent(_ event: AuditEvent) throws {
        throw StoreError(.unavailable, "the audit log is not implemented yet")
    }

    func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int {
        throw StoreError(.unavailable, "the audit log is not implemented yet")
    }
}
