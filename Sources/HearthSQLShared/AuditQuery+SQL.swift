public import HearthCore

/// What the SQL stores need to serve an ``AuditQuery`` from their indexes.
extension AuditQuery {
    /// The smallest id an event at or after `sinceMillis` can have (``AuditEvent/newID(atMillis:)`` starts ids with
    /// the time, 13 digits), or "" without `sinceMillis`: the SQL stores serve the time filter as a range of ids on
    /// the same index as the other filters (and check `atMillis` too).
    public var lowestID: String {
        sinceMillis.map(AuditEvent.idPrefix(atMillis:)) ?? ""
    }

    /// One query with each combination of filters, for the tests that check a store's plan for each.
    public static let everyFilterCombination: [AuditQuery] = (0..<16).map { bits in
        AuditQuery(
            localID: bits & 1 == 0 ? nil : "uid-1", kind: bits & 2 == 0 ? nil : .signIn,
            sinceMillis: bits & 4 == 0 ? nil : 1_700_000_000_000, beforeID: bits & 8 == 0 ? nil : "1700000000000-a")
    }

    /// The filters the query sets ("localID+kind", "no filter"), to name it in test results.
    public var filterNames: String {
        let names = [
            localID.map { _ in "localID" }, kind.map { _ in "kind" }, sinceMillis.map { _ in "since" },
            beforeID.map { _ in "beforeID" },
        ].compactMap { $0 }
        return names.isEmpty ? "no filter" : names.joined(separator: "+")
    }
}
