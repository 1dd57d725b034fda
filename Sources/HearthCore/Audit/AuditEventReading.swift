public import HearthProtocol

extension AuditEvent {
    /// The event as the admin API and `hearth audit --json` show it.
    public var record: AuditEventRecord {
        AuditEventRecord(
            id: id, time: Timestamps.rfc3339(millis: atMillis), kind: kind.rawValue, localId: localID, provider: provider,
            clientAddress: clientAddress, actor: actor.rawValue, detail: detail)
    }

    /// Whether `id` is what ``newID(atMillis:)`` makes: 13 digits, `-`, 12 ASCII letters and digits.
    public static func isWellFormedID(_ id: String) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let alphanumerics = [digits, UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z")]
        let bytes = Array(id.utf8)
        return bytes.count == 26 && bytes[13] == UInt8(ascii: "-") && bytes[..<13].allSatisfy(digits.contains)
            && bytes[14...].allSatisfy { byte in alphanumerics.contains { $0.contains(byte) } }
    }
}

extension AuditEventKind {
    /// The kind named `name`, if it is one of ``all``.
    public init?(known name: String) {
        guard let kind = Self.all.first(where: { $0.rawValue == name }) else { return nil }
        self = kind
    }
}

extension AuditQuery {
    /// The query an admin API request asks for. `INVALID_ARGUMENT` for an unknown kind, a uid no account can have or
    /// a page token this API did not give.
    public init(_ request: AuditEventsRequest) throws(WireError) {
        if let uid = request.uid, !(1...128).contains(uid.count) || uid.contains("\u{0}") {
            throw WireError(.invalidArgument, "uid must be 1 to 128 characters long.")
        }
        var kind: AuditEventKind?
        if let name = request.kind {
            guard let known = AuditEventKind(known: name) else {
                throw WireError(
                    .invalidArgument,
                    "kind must be one of \(AuditEventKind.all.map(\.rawValue).joined(separator: ", ")).")
            }
            kind = known
        }
        if let token = request.pageToken, !AuditEvent.isWellFormedID(token) {
            throw WireError(.invalidArgument, "pageToken is not a page token of this list.")
        }
        self.init(
            localID: request.uid, kind: kind, sinceMillis: request.sinceMillis, beforeID: request.pageToken,
            limit: request.maxResults)
    }
}

extension IdentityPlatform {
    /// One page of the audit log for the admin API, newest first; the next page's token when this one is full.
    public func auditEvents(_ request: AuditEventsRequest) throws -> AuditEventsResponse {
        let query = try AuditQuery(request)
        let events = try store.read { try $0.auditEvents(query) }
        return AuditEventsResponse(
            events: events.map(\.record), nextPageToken: events.count == query.limit ? events.last?.id : nil)
    }
}
