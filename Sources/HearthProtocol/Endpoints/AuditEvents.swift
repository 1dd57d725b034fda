import Foundation

/// `GET /v1/projects/{p}/auditEvents` (a Hearth extension of the admin API): one page of the audit log, newest
/// first, filtered by account (`uid`), `kind` and time (`since`, RFC 3339 or milliseconds since 1970).
/// `maxResults` is 1 to 1,000 (100 when left out); `pageToken` is the previous page's `nextPageToken`.
public struct AuditEventsRequest: Sendable, Equatable {
    public static let defaultMaxResults = 100
    public static let maxResultsRange = 1...1_000

    public var uid: String?
    /// A kind's name (`sign_in`); the service checks it is one.
    public var kind: String?
    public var sinceMillis: Int64?
    public var maxResults: Int
    public var pageToken: String?

    public init(
        uid: String? = nil, kind: String? = nil, sinceMillis: Int64? = nil, maxResults: Int = defaultMaxResults,
        pageToken: String? = nil
    ) {
        self.uid = uid
        self.kind = kind
        self.sinceMillis = sinceMillis
        self.maxResults = maxResults
        self.pageToken = pageToken
    }

    /// Reads the query string's parameters; a value that cannot be one is `INVALID_ARGUMENT`.
    public init(fields: RequestFields) throws(WireError) {
        uid = try fields.string("uid")
        kind = try fields.string("kind")
        pageToken = try fields.string("pageToken")
        if let since = try fields.string("since") {
            if let millis = Int64(since) {
                sinceMillis = millis
            } else if let millis = RFC3339.millis(from: since) {
                sinceMillis = millis
            } else {
                throw WireError(.invalidArgument, "since must be an RFC 3339 time or milliseconds since 1970.")
            }
        }
        let requested = try fields.int64("maxResults") ?? Int64(Self.defaultMaxResults)
        guard Int64(Self.maxResultsRange.lowerBound)...Int64(Self.maxResultsRange.upperBound) ~= requested else {
            throw WireError(.invalidArgument, "maxResults must be between 1 and 1000.")
        }
        maxResults = Int(requested)
    }
}

/// A page of the audit log; `nextPageToken` only when the page is full (there may be more).
public struct AuditEventsResponse: Codable, Sendable, Equatable {
    public var events: [AuditEventRecord]
    public var nextPageToken: String?

    public init(events: [AuditEventRecord], nextPageToken: String?) {
        self.events = events
        self.nextPageToken = nextPageToken
    }
}

/// One audit event as the admin API and `hearth audit --json` show it. Never holds a secret.
public struct AuditEventRecord: Codable, Sendable, Equatable {
    /// Time-ordered: a page ends with its oldest event's id, the next page's token.
    public var id: String
    /// RFC 3339 with milliseconds, UTC.
    public var time: String
    public var kind: String
    public var localId: String?
    public var provider: String?
    public var clientAddress: String?
    /// `user`, `owner`, `command-line`, `system`, `service-account:<email>` or `console:<uid>`.
    public var actor: String
    public var detail: String

    public init(
        id: String, time: String, kind: String, localId: String?, provider: String?, clientAddress: String?,
        actor: String, detail: String
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.localId = localId
        self.provider = provider
        self.clientAddress = clientAddress
        self.actor = actor
        self.detail = detail
    }
}
